// TowerSpawn (docs/tower.md): a worker for a mission in its own git worktree and branch, or a reviewer
// on a detached worktree at the branch's tip. Each runs as a background task (its end reaches the
// coordinator as a task notification) on the `tower-worker` profile: auto permission, no one to ask,
// its working folder the worktree. Starts wait for the adaptive concurrency budget.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { renderTemplate } from '../../tools/defineTool';
import type { TaskService } from '../../tools/task/taskService';
import { TOWER_SERVICE, TOWER_SHARED_TOOLS, TowerError, type TowerService } from '../../tools/tower/towerService';
import { TOWER_WORKER } from '../../ext/agents/towerWorker';
import type { AgentDirectory } from '../delegation/agents';
import type { EngineEventBody } from '../loop/events';
import { COORDINATOR, missionOf, type LiveAgents, type TowerCore } from './towerCore';
import type { AgentRole, Mission, RosterEntry, TowerState } from './towerStore';
import workerBrief from './workerBrief.md';
import reviewerBrief from './reviewerBrief.md';

/** Who is calling a Tower tool. */
export interface TowerCaller {
  role: 'tower' | AgentRole;
  agentId: string;
  mission?: string;
}

export interface TowerSpawnDeps {
  agents(): AgentDirectory;
  tasks: TaskService;
  /** The tower-worker system prompt for an agent working in `cwd`. */
  systemPromptFor(cwd: string): string;
  /** Which of the runtime's tools a Tower agent gets. */
  includeTool(name: string): boolean;
  serviceFor(caller: TowerCaller): TowerService;
  onSubagent(event: Extract<EngineEventBody, { type: 'subagent' }>): void;
}

interface RunningAgent {
  taskId: string;
  rateLimited: boolean;
}

export class TowerSpawner implements LiveAgents {
  private readonly running = new Map<string, RunningAgent>();

  constructor(
    private readonly core: TowerCore,
    private readonly deps: TowerSpawnDeps,
  ) {
    core.live = this;
  }

  isLive(agentId: string): boolean {
    return this.running.has(agentId);
  }

  /** A provider rate-limited one of our agents: the budget shrinks, and that agent's end does not grow it back. */
  rateLimited(agentId: string): void {
    const agent = this.running.get(agentId);
    if (!agent) return;
    agent.rateLimited = true;
    this.core.concurrency.rateLimited();
  }

  async stopAll(reason: string): Promise<void> {
    await Promise.all(
      [...this.running.values()].map((a) => this.deps.tasks.stop(a.taskId, reason).catch(() => undefined)),
    );
  }

  async spawn(target: { mission: string; role: AgentRole; instructions?: string }, callId: string): Promise<string> {
    const { store, state } = await this.core.activeState();
    const m = missionOf(state, target.mission);
    const roster = this.core.effectiveRoster(state);
    const busy = roster.find((r) => r.mission === m.id && (r.status === 'running' || r.status === 'queued'));
    if (m.status === 'merged')
      throw new TowerError(`Mission "${m.id}" is merged already; plan new work as a new mission.`);
    const agentId = `${m.id}-${target.role}-${randomBytes(3).toString('hex')}`;
    let worktree: string;
    let brief: string;
    const fill = (tip?: string) => ({
      MISSION: m.id,
      TITLE: m.title,
      BRANCH: m.branch,
      BASE_BRANCH: state.baseBranch,
      AGENT_ID: agentId,
      SCOPE: m.scope.join(', '),
      TASKS: m.tasks.length ? m.tasks.map((t, i) => `${i + 1}. ${t.text}`).join('\n') : '(none listed)',
      INSTRUCTIONS: target.instructions ? `\nFrom the coordinator: ${target.instructions}` : '',
      TIP: tip ?? '',
      WORKTREE: '',
    });
    if (target.role === 'worker') {
      if (busy)
        throw new TowerError(
          `Mission "${m.id}" already has a ${busy.role} running (${busy.agentId}); wait for it to end.`,
        );
      const unmerged = m.dependsOn.filter((d) => state.missions.find((x) => x.id === d)?.status !== 'merged');
      if (unmerged.length)
        throw new TowerError(
          `Mission "${m.id}" depends on ${unmerged.join(', ')}, not merged yet; spawn its worker after those merge.`,
        );
      worktree = m.worktree && existsSync(m.worktree) ? m.worktree : join(store.worktreesDir, m.id);
      if (!existsSync(worktree))
        await this.core.git.addMissionWorktree(store.repoRoot, worktree, m.branch, state.baseBranch);
      const baseCommit = m.baseCommit ?? (await this.core.git.tipOf(store.repoRoot, state.baseBranch));
      brief = renderTemplate(workerBrief, { ...fill(), WORKTREE: worktree });
      await this.record(m.id, { agentId, role: 'worker', worktree }, (mission) => {
        mission.status = 'running';
        mission.worktree = worktree;
        mission.baseCommit = baseCommit;
      });
    } else {
      if (m.kind !== 'build')
        throw new TowerError(`Mission "${m.id}" is a research mission; only build missions are reviewed.`);
      if (busy?.role === 'worker')
        throw new TowerError(
          `The worker of "${m.id}" (${busy.agentId}) is still running; review its branch when it has ended.`,
        );
      const tip = await this.core.git.tipOf(store.repoRoot, m.branch).catch(() => undefined);
      if (!tip) throw new TowerError(`Mission "${m.id}" has no branch yet (${m.branch}); spawn its worker first.`);
      if (tip === m.baseCommit)
        throw new TowerError(`Branch ${m.branch} has no commit of its own yet; there is nothing to review.`);
      worktree = join(store.worktreesDir, `review-${agentId}`);
      await this.core.git.addReviewWorktree(store.repoRoot, worktree, tip);
      brief = renderTemplate(reviewerBrief, fill(tip));
      await this.record(m.id, { agentId, role: 'reviewer', worktree }, undefined, (s) => {
        s.reviews.push({ id: `r${s.reviews.length + 1}`, mission: m.id, reviewer: agentId, tip });
      });
    }
    const task = this.startTask(m, { agentId, role: target.role, worktree }, brief, callId);
    store.log(COORDINATOR, `spawned ${target.role} ${agentId} for ${m.id} (task ${task})`);
    const waiting = this.core.concurrency.hasRoom
      ? ''
      : ` It waits for a free slot (budget ${this.core.concurrency.limit}).`;
    return `Started ${target.role} ${agentId} for mission "${m.id}" as background task ${task}, in ${worktree}.${waiting} You will be notified when it ends; meanwhile TowerStatus and TowerInbox show progress.`;
  }

  private async record(
    mission: string,
    who: { agentId: string; role: AgentRole; worktree: string },
    changeMission?: (m: Mission) => void,
    changeState?: (s: TowerState) => void,
  ): Promise<void> {
    const store = await this.core.store();
    await store.update((s) => {
      const entry: RosterEntry = {
        ...who,
        mission,
        status: 'queued',
        pid: process.pid,
        startedAt: new Date().toISOString(),
      };
      s.roster.push(entry);
      if (changeMission) changeMission(missionOf(s, mission));
      changeState?.(s);
    });
  }

  private startTask(
    m: Mission,
    who: { agentId: string; role: AgentRole; worktree: string },
    brief: string,
    callId: string,
  ): string {
    const entry: RunningAgent = { taskId: '', rateLimited: false };
    this.running.set(who.agentId, entry);
    try {
      const task = this.deps.tasks.startInProcess({
        kind: 'subagent',
        description: `tower ${who.role} ${who.agentId} (${m.id})`,
        timeoutMs: null,
        run: (signal, write) => this.run(m, who, brief, callId, signal, write, entry),
      });
      entry.taskId = task.id;
      return task.id;
    } catch (e) {
      this.running.delete(who.agentId);
      void this.finish(m.id, who, 'failed', (e as Error).message);
      throw new TowerError(`Cannot start the ${who.role}: ${(e as Error).message}`);
    }
  }

  private async run(
    m: Mission,
    who: { agentId: string; role: AgentRole; worktree: string },
    brief: string,
    callId: string,
    signal: AbortSignal,
    write: (t: string) => void,
    entry: RunningAgent,
  ): Promise<string | undefined> {
    try {
      await this.core.concurrency.acquire(signal);
    } catch {
      this.running.delete(who.agentId);
      await this.finish(m.id, who, 'stopped', 'stopped before it started');
      return 'stopped before it started';
    }
    const started = Date.now();
    const agents = this.deps.agents();
    let status: 'finished' | 'failed' | 'stopped' = 'failed';
    let error: string | undefined;
    let text = '';
    try {
      await this.setStatus(who.agentId, 'running');
      const child = agents.spawn({
        agentId: who.agentId,
        name: TOWER_WORKER,
        systemPrompt: this.deps.systemPromptFor(who.worktree),
        tools: (tool) => this.deps.includeTool(tool.name),
        cwd: who.worktree,
        mode: 'auto',
        approvalPort: null,
        services: [[TOWER_SERVICE, this.deps.serviceFor({ role: who.role, agentId: who.agentId, mission: m.id })]],
      });
      // The shared Tower tools are its working tools: offered with full schemas from the first step.
      agents.parts(child.id)?.offered.load(TOWER_SHARED_TOOLS);
      this.deps.onSubagent({
        type: 'subagent',
        change: 'started',
        childId: child.id,
        agentName: TOWER_WORKER,
        parentCallId: callId,
        prompt: brief,
        description: `${who.role} of ${m.id}`,
      });
      const outcome = await child.run(brief, { signal });
      text = outcome.text;
      status =
        outcome.reason === 'completed'
          ? 'finished'
          : signal.aborted || outcome.reason === 'cancelled'
            ? 'stopped'
            : 'failed';
      error = status === 'finished' ? undefined : (outcome.error ?? `its turn ended: ${outcome.reason}`);
    } catch (e) {
      error = (e as Error).message;
    } finally {
      this.running.delete(who.agentId);
      await agents.release(who.agentId);
      this.core.concurrency.release(status === 'finished' && !entry.rateLimited);
      this.deps.onSubagent({
        type: 'subagent',
        change: 'stopped',
        childId: who.agentId,
        agentName: TOWER_WORKER,
        parentCallId: callId,
        status: status === 'finished' ? 'completed' : status === 'stopped' ? 'cancelled' : 'failed',
        response: text,
        elapsedMs: Date.now() - started,
        ...(error ? { error } : {}),
      });
      await this.finish(m.id, who, status, error);
    }
    write(
      `${who.role} ${who.agentId} of mission ${m.id}: ${status}${error ? ` (${error})` : ''}\n\n${text.trim() || '(no final message)'}\n`,
    );
    return status === 'finished' ? undefined : (error ?? status);
  }

  private async setStatus(agentId: string, status: RosterEntry['status'], error?: string): Promise<void> {
    const store = await this.core.store();
    await store.update((s) => {
      const r = s.roster.find((x) => x.agentId === agentId);
      if (!r) return;
      r.status = status;
      if (status !== 'running' && status !== 'queued') r.endedAt = new Date().toISOString();
      if (error) r.error = error;
    });
  }

  /** Records an agent's end; a reviewer's worktree goes (its verdict is recorded), a worker's stays for review and merge. */
  private async finish(
    mission: string,
    who: { agentId: string; role: AgentRole; worktree: string },
    status: 'finished' | 'failed' | 'stopped',
    error?: string,
  ): Promise<void> {
    const store = await this.core.store();
    await this.setStatus(who.agentId, status, error);
    if (who.role === 'worker') {
      await store.update((s) => {
        const m = s.missions.find((x) => x.id === mission);
        if (m && m.status === 'running') m.status = status === 'finished' ? 'done' : 'failed';
      });
    } else {
      await this.core.git.removeWorktree(store.repoRoot, who.worktree).catch(() => undefined);
    }
    store.log(who.agentId, `${who.role} of ${mission} ${status}${error ? `: ${error}` : ''}`);
  }
}
