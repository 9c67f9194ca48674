// Tower mode's protocol (docs/tower.md): the state a coordinator and its agents share, and the rules
// they are held to — disjoint build scopes, the review gate, dependency order, who may review or
// change a mission. Spawning agents is in towerSpawner.ts; the per-caller checks in towerAgentService.ts.
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../../store/sessionLock';
import { TowerError, type FindingInput, type MissionPatch, type PlannedMission } from '../../tools/tower/towerService';
import { AdaptiveConcurrency } from './towerConcurrency';
import { TowerGit } from './towerGit';
import { checkPlan } from './towerPlan';
import { inScope } from './towerScopes';
import { renderMission, renderStatus, reviewsOf } from './towerStatusView';
import { TowerStateError, TowerStore, type Mission, type RosterEntry, type TowerState } from './towerStore';

/** The coordinator's name in messages, the roster and the activity log. */
export const COORDINATOR = 'tower';
export const BROADCAST = 'all';

/** What Tower needs to know about the agents this process runs. */
export interface LiveAgents {
  isLive(agentId: string): boolean;
  /** Stops every agent this process runs for the tower; resolves when they have ended. */
  stopAll(reason: string): Promise<void>;
}

export class TowerCore {
  private storeCache: TowerStore | undefined;
  readonly concurrency = new AdaptiveConcurrency();
  live: LiveAgents = { isLive: () => false, stopAll: async () => {} };

  /** The repository operations, with the session's environment. */
  readonly git: TowerGit;

  constructor(
    private readonly cwd: string,
    env?: Readonly<NodeJS.ProcessEnv>,
  ) {
    this.git = new TowerGit(env);
  }

  /** The store of the repository the session works in (found once, with git). */
  async store(): Promise<TowerStore> {
    this.storeCache ??= new TowerStore(await this.git.repoRootOf(this.cwd));
    return this.storeCache;
  }

  /** The state, which must exist and be active. */
  async activeState(): Promise<{ store: TowerStore; state: TowerState }> {
    const store = await this.store();
    const state = this.readState(store);
    if (!state) throw new TowerError('Tower is not initialised in this repository: call TowerInit first.');
    if (!state.active) throw new TowerError('This tower was torn down; call TowerInit to start a new one.');
    return { store, state };
  }

  readState(store: TowerStore): TowerState | undefined {
    try {
      return store.read();
    } catch (e) {
      if (e instanceof TowerStateError) throw new TowerError(e.message);
      throw e;
    }
  }

  /** Roster entries as this process sees them: a running agent of a dead process (or of this process but gone) is lost. */
  effectiveRoster(state: TowerState): RosterEntry[] {
    return state.roster.map((r) => {
      if (r.status !== 'running' && r.status !== 'queued') return r;
      const gone = r.pid === process.pid ? !this.live.isLive(r.agentId) : !isProcessAlive(r.pid);
      return gone ? { ...r, status: 'lost' as const, error: 'its coordinator ended while it ran' } : r;
    });
  }

  async init(objective: string | undefined): Promise<string> {
    const store = await this.store();
    const existing = this.readState(store);
    if (existing?.active) {
      if (existing.coordinatorPid !== process.pid && isProcessAlive(existing.coordinatorPid)) {
        throw new TowerError(
          `Another jarvis process (pid ${existing.coordinatorPid}) coordinates the tower in ${store.repoRoot}. Use that session, or end it first.`,
        );
      }
      if (existing.coordinatorPid !== process.pid) {
        await store.update((s) => {
          s.roster = this.effectiveRoster(s).map((r) =>
            r.status === 'lost' ? { ...r, endedAt: new Date().toISOString() } : r,
          );
          for (const m of s.missions)
            if (
              m.status === 'running' &&
              !s.roster.some((r) => r.mission === m.id && r.role === 'worker' && r.status === 'running')
            )
              m.status = 'failed';
          s.coordinatorPid = process.pid;
          if (objective) s.objective = objective;
        });
        store.log(COORDINATOR, `took over the tower from process ${existing.coordinatorPid}, which is gone`);
        return `Took over the tower left by process ${existing.coordinatorPid} (it is gone); agents it ran are marked lost.\n\n${await this.status()}`;
      }
      return `Tower is already active.\n\n${await this.status()}`;
    }
    const baseBranch = await this.git.currentBranch(store.repoRoot);
    const baseCommit = await this.git.tipOf(store.repoRoot, baseBranch).catch(() => {
      throw new TowerError(`The branch ${baseBranch} has no commit yet; commit something first, then call TowerInit.`);
    });
    await this.git.excludeTowerDir(store.repoRoot);
    if (existing && existsSync(store.commsDir)) {
      // The record of a torn-down tower is kept, out of the new tower's way.
      const history = join(store.towerDir, 'history');
      mkdirSync(history, { recursive: true });
      renameSync(store.commsDir, join(history, existing.createdAt.replace(/[:.]/g, '-')));
    }
    store.write({
      version: 1,
      repoRoot: store.repoRoot,
      baseBranch,
      baseCommit,
      objective,
      active: true,
      createdAt: new Date().toISOString(),
      coordinatorPid: process.pid,
      missions: [],
      roster: [],
      reviews: [],
      readCounts: {},
    });
    store.log(COORDINATOR, `initialised on ${baseBranch} at ${baseCommit.slice(0, 8)}`);
    return `Tower initialised in ${store.repoRoot}. Base branch: ${baseBranch} (${baseCommit.slice(0, 8)}). State: ${store.commsDir}. Next: TowerPlan.`;
  }

  async plan(missions: PlannedMission[], objective: string | undefined): Promise<string> {
    const { store, state } = await this.activeState();
    const ids = missions.map((m) => m.id);
    const { planned, problems } = checkPlan(missions, state, await this.git.trackedFiles(store.repoRoot));
    if (problems.length)
      throw new TowerError(
        `TowerPlan rejected; nothing was changed:\n- ${problems.join('\n- ')}\nFix the plan and call TowerPlan again.`,
      );
    await store.update((s) => {
      s.missions = [...s.missions.filter((m) => !ids.includes(m.id)), ...planned];
      if (objective) s.objective = objective;
    });
    store.log(COORDINATOR, `planned ${planned.map((m) => m.id).join(', ')}`);
    return `Planned ${planned.length} mission${planned.length === 1 ? '' : 's'}:\n${planned.map((m) => `- ${m.id} [${m.kind}] ${m.scope.join(', ')}${m.dependsOn.length ? ` (after ${m.dependsOn.join(', ')})` : ''}`).join('\n')}\nNext: TowerSpawn a worker for each mission whose dependencies are merged.`;
  }

  /** Why each condition of the merge gate fails for a mission; empty when it may merge. */
  private async mergeRefusals(
    store: TowerStore,
    state: TowerState,
    m: Mission,
  ): Promise<{ refusals: string[]; tip?: string }> {
    const refusals: string[] = [];
    const repo = store.repoRoot;
    const tip = await this.git.tipOf(repo, m.branch).catch(() => undefined);
    if (!tip) return { refusals: [`branch ${m.branch} does not exist; spawn the mission's worker first`] };
    if (this.effectiveRoster(state).some((r) => r.mission === m.id && r.role === 'worker' && r.status === 'running'))
      refusals.push('its worker is still running');
    const { latest } = reviewsOf(state.reviews, m.id);
    if (!latest) refusals.push('it has no review yet: TowerSpawn a reviewer');
    else if (latest.verdict !== 'approve')
      refusals.push(
        `the latest review (${latest.id} by ${latest.reviewer}) requests changes: ${latest.summary ?? ''}`.trim(),
      );
    else if (latest.tip !== tip)
      refusals.push(
        `the latest review was made at ${latest.tip.slice(0, 8)}, but the branch tip is now ${tip.slice(0, 8)}: spawn a reviewer for the current tip`,
      );
    const unmerged = m.dependsOn.filter((d) => state.missions.find((x) => x.id === d)?.status !== 'merged');
    if (unmerged.length) refusals.push(`dependencies not merged yet: ${unmerged.join(', ')}`);
    const outside = (await this.git.changedFiles(repo, state.baseBranch, m.branch)).filter((f) => !inScope(f, m.scope));
    if (outside.length)
      refusals.push(`it changed files outside its scope (${m.scope.join(', ')}): ${outside.join(', ')}`);
    const branch = await this.git.currentBranch(repo).catch(() => undefined);
    if (branch !== state.baseBranch)
      refusals.push(
        `the main checkout is on ${branch ?? 'a detached HEAD'}, not the base branch ${state.baseBranch}: check it out first`,
      );
    else if (await this.git.hasTrackedChanges(repo))
      refusals.push(`the main checkout has uncommitted changes to tracked files; commit or stash them first`);
    return { refusals, tip };
  }

  async merge(id: string): Promise<string> {
    const { store, state } = await this.activeState();
    const m = missionOf(state, id);
    if (m.kind !== 'build') throw new TowerError(`Mission "${id}" is a research mission; it has nothing to merge.`);
    if (m.status === 'merged')
      throw new TowerError(`Mission "${id}" is already merged (${m.mergedCommit?.slice(0, 8)}).`);
    const { refusals } = await this.mergeRefusals(store, state, m);
    if (refusals.length) {
      store.log(COORDINATOR, `merge of ${id} refused: ${refusals.join('; ')}`);
      throw new TowerError(`TowerMerge refused for "${id}"; nothing was merged:\n- ${refusals.join('\n- ')}`);
    }
    let merged: string;
    try {
      merged = await this.git.mergeBranch(store.repoRoot, m.branch, `Tower: merge mission ${m.id} (${m.title})`);
    } catch (e) {
      throw new TowerError((e as Error).message);
    }
    await store.update((s) => {
      const target = missionOf(s, id);
      target.status = 'merged';
      target.mergedCommit = merged;
      delete target.worktree;
    });
    if (m.worktree) await this.git.removeWorktree(store.repoRoot, m.worktree);
    store.log(COORDINATOR, `merged ${id} into ${state.baseBranch} (${merged.slice(0, 8)})`);
    return `Merged ${m.branch} into ${state.baseBranch}: ${merged.slice(0, 8)}. Its worktree was removed.`;
  }

  async teardown(force: boolean): Promise<string> {
    const store = await this.store();
    let state: TowerState | undefined;
    try {
      state = store.read();
    } catch (e) {
      if (!force)
        throw new TowerError(`${(e as Error).message}\n(TowerTeardown with force: true removes the worktrees anyway.)`);
    }
    if (!state && !force && !existsSync(store.towerDir)) throw new TowerError('There is no tower in this repository.');
    await this.live.stopAll('the tower was torn down');
    const repo = store.repoRoot;
    const paths = new Set<string>();
    for (const r of state?.roster ?? []) paths.add(r.worktree);
    for (const m of state?.missions ?? []) if (m.worktree) paths.add(m.worktree);
    if (existsSync(store.worktreesDir))
      for (const name of readdirSync(store.worktreesDir)) paths.add(join(store.worktreesDir, name));
    for (const w of await this.git.listWorktrees(repo)) if (w.startsWith(store.worktreesDir + '/')) paths.add(w);
    let removed = 0;
    for (const path of paths) {
      if (!existsSync(path)) continue;
      await this.git.removeWorktree(repo, path);
      removed++;
    }
    if (existsSync(store.worktreesDir) && readdirSync(store.worktreesDir).length === 0) rmdirSync(store.worktreesDir);
    const kept: string[] = [];
    for (const m of state?.missions ?? []) {
      if (m.status === 'merged') await this.git.deleteBranch(repo, m.branch);
      else if (await this.git.tipOf(repo, m.branch).catch(() => undefined)) kept.push(m.branch);
    }
    if (state) {
      await store.update((s) => {
        s.active = false;
        s.roster = this.effectiveRoster(s).map((r) =>
          r.status === 'running' || r.status === 'queued' || r.status === 'lost'
            ? { ...r, status: 'stopped' as const, endedAt: new Date().toISOString() }
            : r,
        );
        for (const m of s.missions) delete m.worktree;
      });
      store.log(COORDINATOR, `torn down: ${removed} worktree${removed === 1 ? '' : 's'} removed`);
    }
    const left = (await this.git.listWorktrees(repo)).filter((w) => w.startsWith(store.towerDir + '/'));
    return [
      `Tower torn down: ${removed} worktree${removed === 1 ? '' : 's'} removed${left.length ? `, but git still lists ${left.join(', ')}` : ''}.`,
      kept.length ? `Unmerged branches kept for you: ${kept.join(', ')}.` : 'No unmerged mission branches.',
      `The record stays in ${store.commsDir}.`,
    ].join('\n');
  }

  async send(from: string, to: string, text: string): Promise<string> {
    const { store, state } = await this.activeState();
    if (to !== COORDINATOR && to !== BROADCAST && !state.roster.some((r) => r.agentId === to)) {
      throw new TowerError(
        `There is no "${to}" in the tower. Send to "tower", "all" or one of: ${state.roster.map((r) => r.agentId).join(', ') || '(no agents yet)'}.`,
      );
    }
    if (to === from) throw new TowerError('That is you; send to "tower", "all" or another agent.');
    const m = await store.addMessage({ from, to, text });
    store.log(from, `message #${m.id} to ${to}`);
    return `Sent message #${m.id} to ${to}.`;
  }

  async inbox(reader: string, limit: number): Promise<string> {
    const { store } = await this.activeState();
    const mine = store.messages().filter((m) => m.to === reader || (m.to === BROADCAST && m.from !== reader));
    await store.update((s) => {
      s.readCounts[reader] = mine.length;
    });
    if (!mine.length) return 'Your inbox is empty.';
    const shown = mine.slice(-limit).reverse();
    return [
      `${mine.length} message${mine.length === 1 ? '' : 's'}, newest first:`,
      ...shown.map((m) => `#${m.id} ${m.at} from ${m.from}${m.to === BROADCAST ? ' (to all)' : ''}:\n${m.text}`),
    ].join('\n\n');
  }

  async finding(by: string, mission: string | undefined, f: FindingInput): Promise<string> {
    const { store } = await this.activeState();
    const record = await store.addFinding({ by, ...(mission ? { mission } : {}), ...f });
    store.log(by, `finding #${record.id} (${f.kind}): ${f.title}`);
    return `Filed finding #${record.id} (${f.kind}). The coordinator sees it in TowerStatus.`;
  }

  async review(reviewer: string, id: string, verdict: 'approve' | 'request_changes', summary: string): Promise<string> {
    const { store, state } = await this.activeState();
    missionOf(state, id);
    const assigned = [...state.reviews].reverse().find((r) => r.mission === id && r.reviewer === reviewer);
    if (!assigned) {
      const who = reviewsOf(state.reviews, id).pending?.reviewer;
      throw new TowerError(
        `Only the reviewer assigned to mission "${id}" may submit its review${who ? ` (${who})` : ''}; you (${reviewer}) are not. Report what you found with TowerFinding or TowerSend instead.`,
      );
    }
    await store.update((s) => {
      const r = s.reviews.find((x) => x.id === assigned.id)!;
      Object.assign(r, { verdict, summary, at: new Date().toISOString() });
    });
    store.log(reviewer, `review ${assigned.id} of ${id}: ${verdict} at ${assigned.tip.slice(0, 8)}`);
    return `Recorded your verdict on "${id}" (${verdict}) for commit ${assigned.tip.slice(0, 8)}.`;
  }

  async mission(caller: { id: string; owns?: string; coordinator: boolean }, patch: MissionPatch): Promise<string> {
    const { store, state } = await this.activeState();
    const id = patch.mission ?? caller.owns;
    if (!id)
      return state.missions.length
        ? state.missions.map((m) => renderMission(m, state.reviews, this.effectiveRoster(state))).join('\n\n')
        : 'No missions yet.';
    const m = missionOf(state, id);
    const changes =
      (patch.tick?.length ?? 0) + (patch.untick?.length ?? 0) + (patch.note ? 1 : 0) + (patch.blocker ? 1 : 0);
    if (changes === 0) return renderMission(m, state.reviews, this.effectiveRoster(state));
    if (!caller.coordinator && caller.owns !== id)
      throw new TowerError(
        `You may read mission "${id}" but change only your own${caller.owns ? ` ("${caller.owns}")` : ''}; tell its owner with TowerSend.`,
      );
    const bad = [...(patch.tick ?? []), ...(patch.untick ?? [])].filter((n) => n > m.tasks.length);
    if (bad.length)
      throw new TowerError(
        `Mission "${id}" has ${m.tasks.length} task${m.tasks.length === 1 ? '' : 's'}; there is no task ${bad.join(', ')}.`,
      );
    const updated = await store.update((s) => {
      const target = missionOf(s, id);
      const at = new Date().toISOString();
      for (const n of patch.tick ?? []) target.tasks[n - 1]!.done = true;
      for (const n of patch.untick ?? []) target.tasks[n - 1]!.done = false;
      if (patch.note) target.notes.push({ at, by: caller.id, text: patch.note });
      if (patch.blocker) target.blockers.push({ at, by: caller.id, text: patch.blocker });
      return structuredClone(target);
    });
    store.log(caller.id, `updated mission ${id}${patch.blocker ? ` (blocker: ${patch.blocker})` : ''}`);
    return renderMission(updated, state.reviews, this.effectiveRoster(state));
  }

  async status(): Promise<string> {
    const store = await this.store();
    const state = this.readState(store);
    if (!state) return `No tower in ${store.repoRoot}. TowerInit starts one.`;
    const messages = store
      .messages()
      .filter((m) => m.to === COORDINATOR || (m.to === BROADCAST && m.from !== COORDINATOR));
    const c = this.concurrency;
    return renderStatus({
      state,
      roster: this.effectiveRoster(state),
      unread: Math.max(0, messages.length - (state.readCounts[COORDINATOR] ?? 0)),
      findings: store.findings(),
      activity: store.activity(),
      concurrency: { limit: c.limit, active: c.active, queued: c.queued, ceiling: c.ceiling },
    });
  }
}

export function missionOf(state: TowerState, id: string): Mission {
  const m = state.missions.find((x) => x.id === id);
  if (!m)
    throw new TowerError(
      `There is no mission "${id}". Missions: ${state.missions.map((x) => x.id).join(', ') || '(none: TowerPlan first)'}.`,
    );
  return m;
}
