// Tower mode's protocol rules (docs/tower.md), on a real git repository: init, the plan's scope and
// dependency checks, the merge gate condition by condition, who may review or change a mission.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TowerRuntime } from '../../../src/engine/tower/towerRuntime';
import { TowerGit } from '../../../src/engine/tower/towerGit';
import { TowerStore } from '../../../src/engine/tower/towerStore';
import type { PlannedMission, TowerService } from '../../../src/tools/tower/towerService';
import { commitIn, gitIn, makeRepo, writeIn } from './towerRepo';

const mission = (id: string, scope: string[], extra: Partial<PlannedMission> = {}): PlannedMission => ({
  id,
  title: `${id} work`,
  kind: 'build',
  scope,
  tasks: ['do it', 'test it'],
  depends_on: [],
  ...extra,
});

/** A Tower on `repo` whose agents are never started (these tests create branches and reviews themselves). */
function towerOn(repo: string): TowerRuntime {
  const unused = () => {
    throw new Error('no agents in protocol tests');
  };
  return new TowerRuntime({
    cwd: repo,
    agents: unused,
    tasks: {} as never,
    toolNames: () => [],
    systemPromptFor: () => '',
    onSubagent: () => {},
  });
}

async function planned(
  repo: string,
  missions: PlannedMission[],
): Promise<{ tower: TowerRuntime; coordinator: TowerService; store: TowerStore }> {
  const tower = towerOn(repo);
  const coordinator = tower.coordinator();
  await coordinator.init('demo');
  await coordinator.plan(missions, undefined);
  return { tower, coordinator, store: new TowerStore(repo) };
}

/** Makes the mission's worktree and branch, as TowerSpawn does, and commits `files` there. */
async function workOn(
  store: TowerStore,
  id: string,
  files: Record<string, string>,
): Promise<{ wt: string; tip: string }> {
  const wt = join(store.worktreesDir, id);
  if (!existsSync(wt)) await new TowerGit().addMissionWorktree(store.repoRoot, wt, `tower/${id}`, 'main');
  await store.update((s) => {
    const m = s.missions.find((x) => x.id === id)!;
    m.worktree = wt;
    m.status = 'done';
  });
  return { wt, tip: commitIn(wt, files) };
}

/** Assigns reviewer `reviewer` to the mission at `tip` (what TowerSpawn role reviewer records). */
async function assignReview(store: TowerStore, id: string, reviewer: string, tip: string): Promise<void> {
  await store.update((s) => {
    s.reviews.push({ id: `r${s.reviews.length + 1}`, mission: id, reviewer, tip });
    s.roster.push({
      agentId: reviewer,
      role: 'reviewer',
      mission: id,
      status: 'finished',
      worktree: '/nowhere',
      pid: process.pid,
      startedAt: new Date().toISOString(),
    });
  });
}

describe('TowerInit', () => {
  it('creates .tower/comms/state.json, records the checked-out branch as base, and keeps .tower out of git status', async () => {
    const repo = makeRepo();
    const out = await towerOn(repo).coordinator().init('ship it');
    expect(out).toContain('Base branch: main');
    const state = JSON.parse(readFileSync(join(repo, '.tower/comms/state.json'), 'utf8'));
    expect(state).toMatchObject({
      baseBranch: 'main',
      active: true,
      objective: 'ship it',
      baseCommit: gitIn(repo, 'rev-parse', 'HEAD'),
    });
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
  });

  it('refuses outside a git repository and on a detached HEAD, saying what to do', async () => {
    const repo = makeRepo();
    await expect(towerOn(join(repo, '..')).coordinator().init(undefined)).rejects.toThrow(
      /not inside a git repository/,
    );
    gitIn(repo, 'checkout', '-q', '--detach');
    await expect(towerOn(repo).coordinator().init(undefined)).rejects.toThrow(/HEAD is detached; check out the branch/);
  });

  it('after a teardown, TowerInit starts a fresh tower and keeps the old record under .tower/history', async () => {
    const repo = makeRepo();
    const { coordinator, store } = await planned(repo, [mission('api', ['src/api/**'])]);
    await coordinator.teardown(false);
    await expect(coordinator.plan([mission('ui', ['src/ui/**'])], undefined)).rejects.toThrow(
      /torn down; call TowerInit to start a new one/,
    );
    expect(await coordinator.init('again')).toMatch(/Tower initialised/);
    expect(store.read()).toMatchObject({ active: true, objective: 'again', missions: [] });
    const [old] = readdirSync(join(repo, '.tower/history'));
    expect(JSON.parse(readFileSync(join(repo, '.tower/history', old!, 'state.json'), 'utf8')).missions[0].id).toBe(
      'api',
    );
  });

  it('tools other than TowerInit and TowerStatus refuse before init', async () => {
    const coordinator = towerOn(makeRepo()).coordinator();
    await expect(coordinator.plan([mission('a', ['src/a/**'])], undefined)).rejects.toThrow(/call TowerInit first/);
    expect(await coordinator.status()).toMatch(/No tower in .*TowerInit starts one/);
  });
});

describe('TowerPlan', () => {
  it('rejects build missions whose scopes overlap and changes nothing', async () => {
    const repo = makeRepo();
    const { coordinator, store } = await planned(repo, [mission('first', ['docs/**'])]);
    for (const [a, b] of [
      ['src/**', 'src/api/**'],
      ['**/*.ts', 'src/ui/**'],
      ['src/{api,ui}/**', 'src/ui/*.ts'],
      ['src/api/server.ts', 'src/*/server.ts'],
    ]) {
      await expect(coordinator.plan([mission('a', [a!]), mission('b', [b!])], undefined)).rejects.toThrow(
        /TowerPlan rejected[\s\S]*build missions overlap: "a" \(.*\) and "b"/,
      );
    }
    expect(store.read()!.missions.map((m) => m.id)).toEqual(['first']);
  });

  it('accepts disjoint build scopes, and research missions may overlap anything', async () => {
    const repo = makeRepo();
    const { store } = await planned(repo, [
      mission('api', ['src/api/**']),
      mission('ui', ['src/ui/**', 'src/ui.css']),
      mission('survey', ['src/**'], { kind: 'research' }),
    ]);
    expect(store.read()!.missions.map((m) => `${m.id}:${m.status}:${m.branch}`)).toEqual([
      'api:planned:tower/api',
      'ui:planned:tower/ui',
      'survey:planned:tower/survey',
    ]);
  });

  it('rejects unknown dependencies, cycles, duplicate ids and scopes that leave the repository', async () => {
    const repo = makeRepo();
    const { coordinator } = await planned(repo, [mission('base', ['lib/**'])]);
    await expect(coordinator.plan([mission('x', ['x/**'], { depends_on: ['nope'] })], undefined)).rejects.toThrow(
      /depends on "nope", which is not in the plan/,
    );
    await expect(
      coordinator.plan(
        [mission('x', ['x/**'], { depends_on: ['y'] }), mission('y', ['y/**'], { depends_on: ['x'] })],
        undefined,
      ),
    ).rejects.toThrow(/cycle: x → y → x/);
    await expect(coordinator.plan([mission('x', ['x/**']), mission('x', ['z/**'])], undefined)).rejects.toThrow(
      /"x" is given twice/,
    );
    await expect(coordinator.plan([mission('x', ['../elsewhere/**'])], undefined)).rejects.toThrow(
      /leaves the repository/,
    );
    await expect(coordinator.plan([mission('x', ['/etc/**'])], undefined)).rejects.toThrow(/is absolute/);
  });
});

describe('TowerMerge gate', () => {
  it('refuses without a review, on a review that requests changes, and on a review of an older tip; merges when all conditions hold', async () => {
    const repo = makeRepo();
    const { coordinator, store, tower } = await planned(repo, [mission('api', ['src/api/**'])]);
    const first = await workOn(store, 'api', { 'src/api/server.ts': 'export const port = 2;\n' });
    await expect(coordinator.merge('api')).rejects.toThrow(/it has no review yet/);

    await assignReview(store, 'api', 'rev-1', first.tip);
    await tower
      .serviceFor({ role: 'reviewer', agentId: 'rev-1', mission: 'api' })
      .review('api', 'request_changes', 'port must be 3');
    await expect(coordinator.merge('api')).rejects.toThrow(
      /latest review \(r1 by rev-1\) requests changes: port must be 3/,
    );

    await assignReview(store, 'api', 'rev-2', first.tip);
    await tower.serviceFor({ role: 'reviewer', agentId: 'rev-2', mission: 'api' }).review('api', 'approve', 'fine');
    const second = commitIn(first.wt, { 'src/api/server.ts': 'export const port = 3;\n' });
    await expect(coordinator.merge('api')).rejects.toThrow(
      new RegExp(`review was made at ${first.tip.slice(0, 8)}, but the branch tip is now ${second.slice(0, 8)}`),
    );

    await assignReview(store, 'api', 'rev-3', second);
    await tower.serviceFor({ role: 'reviewer', agentId: 'rev-3', mission: 'api' }).review('api', 'approve', 'good');
    expect(await coordinator.merge('api')).toMatch(/Merged tower\/api into main/);
    expect(readFileSync(join(repo, 'src/api/server.ts'), 'utf8')).toBe('export const port = 3;\n');
    expect(gitIn(repo, 'log', '-1', '--format=%s')).toBe('Tower: merge mission api (api work)');
    expect(existsSync(first.wt)).toBe(false);
    await expect(coordinator.merge('api')).rejects.toThrow(/already merged/);
  });

  it('refuses a branch that changed a file outside its scope, naming the file', async () => {
    const repo = makeRepo();
    const { coordinator, store, tower } = await planned(repo, [mission('ui', ['src/ui/**'])]);
    const { tip } = await workOn(store, 'ui', {
      'src/ui/view.ts': 'export const view = 2;\n',
      'README.md': '# changed\n',
    });
    await assignReview(store, 'ui', 'rev-1', tip);
    await tower.serviceFor({ role: 'reviewer', agentId: 'rev-1', mission: 'ui' }).review('ui', 'approve', 'ok');
    await expect(coordinator.merge('ui')).rejects.toThrow(
      /changed files outside its scope \(src\/ui\/\*\*\): README\.md/,
    );
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('# demo\n');
  });

  it('refuses while a dependency is not merged', async () => {
    const repo = makeRepo();
    const { coordinator, store, tower } = await planned(repo, [
      mission('api', ['src/api/**']),
      mission('ui', ['src/ui/**'], { depends_on: ['api'] }),
    ]);
    const { tip } = await workOn(store, 'ui', { 'src/ui/view.ts': 'export const view = 5;\n' });
    await assignReview(store, 'ui', 'rev-1', tip);
    await tower.serviceFor({ role: 'reviewer', agentId: 'rev-1', mission: 'ui' }).review('ui', 'approve', 'ok');
    await expect(coordinator.merge('ui')).rejects.toThrow(/dependencies not merged yet: api/);
  });

  it('refuses when the main checkout is not on the base branch or has uncommitted tracked changes', async () => {
    const repo = makeRepo();
    const { coordinator, store, tower } = await planned(repo, [mission('api', ['src/api/**'])]);
    const { tip } = await workOn(store, 'api', { 'src/api/server.ts': 'export const port = 9;\n' });
    await assignReview(store, 'api', 'rev-1', tip);
    await tower.serviceFor({ role: 'reviewer', agentId: 'rev-1', mission: 'api' }).review('api', 'approve', 'ok');
    gitIn(repo, 'checkout', '-q', '-b', 'other');
    await expect(coordinator.merge('api')).rejects.toThrow(/main checkout is on other, not the base branch main/);
    gitIn(repo, 'checkout', '-q', 'main');
    writeIn(repo, 'README.md', '# edited, not committed\n');
    await expect(coordinator.merge('api')).rejects.toThrow(/main checkout has uncommitted changes to tracked files/);
  });
});

describe('TowerSpawn preconditions', () => {
  it('a worker waits for its dependencies to merge; a reviewer needs a branch with commits; a merged mission takes no agent', async () => {
    const repo = makeRepo();
    const { coordinator, store } = await planned(repo, [
      mission('api', ['src/api/**']),
      mission('ui', ['src/ui/**'], { depends_on: ['api'] }),
    ]);
    await expect(coordinator.spawn({ mission: 'ui', role: 'worker' }, 'c1')).rejects.toThrow(
      /depends on api, not merged yet; spawn its worker after those merge/,
    );
    await expect(coordinator.spawn({ mission: 'api', role: 'reviewer' }, 'c2')).rejects.toThrow(
      /has no branch yet \(tower\/api\); spawn its worker first/,
    );
    await expect(coordinator.spawn({ mission: 'nope', role: 'worker' }, 'c3')).rejects.toThrow(
      /There is no mission "nope"\. Missions: api, ui/,
    );
    await store.update((s) => void (s.missions[0]!.status = 'merged'));
    await expect(coordinator.spawn({ mission: 'api', role: 'worker' }, 'c4')).rejects.toThrow(/is merged already/);
    expect(gitIn(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
  });
});

describe('TowerMerge conflicts', () => {
  it('a merge that conflicts with the base is undone and reported; the base checkout stays clean', async () => {
    const repo = makeRepo();
    const { coordinator, store, tower } = await planned(repo, [mission('api', ['src/api/**'])]);
    const { tip } = await workOn(store, 'api', { 'src/api/server.ts': 'export const port = 2;\n' });
    commitIn(repo, { 'src/api/server.ts': 'export const port = 3;\n' }, 'meanwhile on main');
    await assignReview(store, 'api', 'rev-1', tip);
    await tower.serviceFor({ role: 'reviewer', agentId: 'rev-1', mission: 'api' }).review('api', 'approve', 'ok');
    await expect(coordinator.merge('api')).rejects.toThrow(
      /merging tower\/api failed and was undone:[\s\S]*CONFLICT[\s\S]*rebase its branch on the base branch/,
    );
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
    expect(gitIn(repo, 'log', '-1', '--format=%s')).toBe('meanwhile on main');
    expect(store.read()!.missions[0]!.status).toBe('done');
  });
});

describe('who may do what', () => {
  it('only the assigned reviewer may submit a review; the coordinator and workers may not', async () => {
    const repo = makeRepo();
    const { coordinator, store, tower } = await planned(repo, [mission('api', ['src/api/**'])]);
    const { tip } = await workOn(store, 'api', { 'src/api/server.ts': 'x\n' });
    await assignReview(store, 'api', 'rev-1', tip);
    await expect(coordinator.review('api', 'approve', 'me')).rejects.toThrow(
      /Only the reviewer assigned to mission "api" may submit its review; you are the coordinator/,
    );
    await expect(
      tower.serviceFor({ role: 'worker', agentId: 'api-worker-1', mission: 'api' }).review('api', 'approve', 'me'),
    ).rejects.toThrow(/you are the worker api-worker-1/);
    await expect(
      tower.serviceFor({ role: 'reviewer', agentId: 'rev-other', mission: 'api' }).review('api', 'approve', 'me'),
    ).rejects.toThrow(/assigned to mission "api" may submit its review \(rev-1\); you \(rev-other\) are not/);
    expect(store.read()!.reviews[0]!.verdict).toBeUndefined();
  });

  it('a worker patches its own mission (tasks, notes, blockers) and only reads others; workers cannot use coordinator tools', async () => {
    const repo = makeRepo();
    const { store, tower } = await planned(repo, [mission('api', ['src/api/**']), mission('ui', ['src/ui/**'])]);
    const worker = tower.serviceFor({ role: 'worker', agentId: 'api-worker-1', mission: 'api' });
    const out = await worker.mission({ tick: [1], note: 'halfway', blocker: 'need a port number' });
    expect(out).toMatch(/1\. \[x\] do it\n {2}2\. \[ \] test it/);
    expect(store.read()!.missions[0]!.blockers[0]).toMatchObject({ by: 'api-worker-1', text: 'need a port number' });
    expect(await worker.mission({ mission: 'ui' })).toContain('Mission ui: ui work');
    await expect(worker.mission({ mission: 'ui', tick: [1] })).rejects.toThrow(/change only your own \("api"\)/);
    await expect(worker.mission({ tick: [3] })).rejects.toThrow(/has 2 tasks; there is no task 3/);
    await expect(worker.merge('api')).rejects.toThrow(
      /TowerMerge is for the Tower coordinator; you are worker api-worker-1/,
    );
    await expect(worker.spawn({ mission: 'ui', role: 'worker' }, 'c1')).rejects.toThrow(
      /TowerSpawn is for the Tower coordinator/,
    );
  });

  it('messages reach the addressee and broadcasts everyone else, newest first; findings and unread counts show in TowerStatus', async () => {
    const repo = makeRepo();
    const { coordinator, store, tower } = await planned(repo, [mission('api', ['src/api/**'])]);
    await store.update(
      (s) =>
        void s.roster.push({
          agentId: 'api-worker-1',
          role: 'worker',
          mission: 'api',
          status: 'finished',
          worktree: '/x',
          pid: process.pid,
          startedAt: '',
        }),
    );
    const worker = tower.serviceFor({ role: 'worker', agentId: 'api-worker-1', mission: 'api' });
    await worker.send('tower', 'which port?');
    await coordinator.send('all', 'use port 3');
    await expect(worker.send('nobody', 'hi')).rejects.toThrow(/There is no "nobody" in the tower/);
    expect(
      await worker.finding({ kind: 'vuln', title: 'token logged', detail: 'src/auth logs it', path: 'src/auth.ts' }),
    ).toMatch(/Filed finding #1 \(vuln\)/);
    expect(await coordinator.status()).toMatch(
      /Inbox: 1 unread for tower[\s\S]*Findings: 1 vuln[\s\S]*#1 vuln by api-worker-1: token logged/,
    );
    expect(await coordinator.inbox(20)).toMatch(/^1 message, newest first:\n\n#1 .* from api-worker-1:\nwhich port\?/);
    expect(await coordinator.status()).toContain('Inbox: 0 unread for tower');
    expect(await worker.inbox(20)).toMatch(/from tower \(to all\):\nuse port 3/);
  });
});
