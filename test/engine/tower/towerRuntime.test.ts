// Tower mode inside a runtime (docs/tower.md): the experimental flag, deferred tools, who gets Tower
// tools, agents spawned into their worktrees on the tower-worker profile, the adaptive concurrency
// budget, and what a killed coordinator leaves behind.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency } from '../../../src/engine/tower/towerConcurrency';
import { overlapWitness } from '../../../src/engine/tower/towerScopes';
import { TowerRuntime } from '../../../src/engine/tower/towerRuntime';
import { TowerGit } from '../../../src/engine/tower/towerGit';
import { TowerStore } from '../../../src/engine/tower/towerStore';
import { ProviderError, type ModelRequest } from '../../../src/llm/types';
import type { ScriptedResponse } from '../../../src/llm/scriptedClient';
import { builtinTools } from '../../../src/tools/registry';
import { TOWER_TOOL_NAMES, towerEnabled } from '../../../src/tools/tower';
import { waitUntil } from '../../helpers/cli';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';
import { gitIn, makeRepo } from './towerRepo';

verifyEnginesAfterEach();

describe('the experimental flag', () => {
  it.each([
    [{ JARVIS_CODE_EXPERIMENTAL_TOWER: '1' }, true],
    [{ JARVIS_CODE_EXPERIMENTAL_FLAG: 'true' }, true],
    [{ JARVIS_CODE_EXPERIMENTAL_TOWER: '0', JARVIS_CODE_EXPERIMENTAL_FLAG: '1' }, true],
    [{ JARVIS_CODE_EXPERIMENTAL_TOWER: '0' }, false],
    [{ JARVIS_CODE_EXPERIMENTAL_TOWER: 'maybe' }, false],
    [{}, false],
  ])('%o → %s', (env, on) => {
    expect(towerEnabled(env)).toBe(on);
  });

  it('without it the runtime has no Tower tool; with it all eleven are deferred (the first request does not grow)', () => {
    const off = makeEngine({ tools: builtinTools(), responses: [] });
    expect(off.runtime.tools.list().filter((t) => t.name.startsWith('Tower'))).toEqual([]);
    expect(off.runtime.tower).toBeUndefined();
    const on = makeEngine({ tools: builtinTools(), tower: true, responses: [] });
    expect(
      on.runtime.tools
        .list()
        .map((t) => t.name)
        .filter((n) => n.startsWith('Tower'))
        .sort(),
    ).toEqual([...TOWER_TOOL_NAMES].sort());
    expect(
      on.runtime.offered
        .list()
        .map((t) => t.name)
        .filter((n) => n.startsWith('Tower')),
    ).toEqual([]);
    expect(
      on.runtime.tools
        .list()
        .filter((t) => t.name.startsWith('Tower'))
        .every((t) => t.deferred),
    ).toBe(true);
  });
});

describe('delegated subagents', () => {
  it('an Agent-tool subagent never gets a Tower tool, even with the flag on', async () => {
    let coderTools: string[] = [];
    const h = makeEngine({
      tools: builtinTools(),
      tower: true,
      mode: 'yolo',
      responses: (req): ScriptedResponse => {
        if (req.system.includes('# Your role: subagent (coder)')) {
          coderTools = req.tools.map((t) => t.name);
          return { text: 'coded' };
        }
        return hasResult(req, 1)
          ? { text: 'done' }
          : { toolCalls: [{ name: 'Agent', arguments: { description: 'code', prompt: 'Code it.' } }] };
      },
    });
    await runPrompt(h, 'delegate');
    expect(coderTools).toContain('Bash');
    expect(coderTools.filter((n) => n.startsWith('Tower'))).toEqual([]);
    const search = JSON.stringify(
      h.client.requests.find((r) => r.system.includes('# Your role: subagent (coder)'))!.tools,
    );
    expect(search).not.toContain('TowerInit');
  });
});

describe('scope overlap evidence', () => {
  it.each([
    ['src/api/**', 'src/ui/**', false],
    ['src/**', 'src/api/x.ts', true],
    ['**/*.ts', 'src/api/**', true],
    ['src/*.ts', 'src/*.js', false],
    ['docs/{a,b}.md', 'docs/b.md', true],
    ['src/api/**', 'src/api-client/**', false],
    ['lib/[ab].ts', 'lib/*.ts', true],
  ])('%s and %s overlap: %s', (a, b, overlap) => {
    expect(overlapWitness(a, b) !== undefined).toBe(overlap);
  });

  it('a file the repository tracks counts as evidence', () => {
    expect(overlapWitness('src/*.ts', 'src/a*', [])).toBeUndefined();
    expect(overlapWitness('src/*.ts', 'src/a*', ['src/app.ts'])).toBe('src/app.ts');
  });
});

describe('adaptive concurrency', () => {
  it('halves on a rate limit (never below one), grows by one per clean finish up to the ceiling of 16, and starts waiters in order', async () => {
    const c = new AdaptiveConcurrency();
    expect([c.limit, c.ceiling]).toEqual([4, 16]);
    c.rateLimited();
    expect(c.limit).toBe(2);
    c.rateLimited();
    c.rateLimited();
    expect(c.limit).toBe(1);
    await c.acquire();
    const order: string[] = [];
    const second = c.acquire().then(() => order.push('second'));
    const third = c.acquire().then(() => order.push('third'));
    expect([c.active, c.queued]).toEqual([1, 2]);
    c.release(true);
    await second;
    expect([c.limit, c.active, c.queued]).toEqual([2, 2, 0]);
    await third;
    expect(order).toEqual(['second', 'third']);
    for (let i = 0; i < 40; i++) c.release(true);
    expect(c.limit).toBe(16);
  });

  it('a waiter whose start is aborted leaves the queue', async () => {
    const c = new AdaptiveConcurrency(1);
    await c.acquire();
    const stop = new AbortController();
    const waiting = c.acquire(stop.signal);
    stop.abort();
    await expect(waiting).rejects.toThrow(/stopped before it started/);
    expect(c.queued).toBe(0);
  });
});

const isTowerAgent = (req: ModelRequest) => req.system.includes('# Your role: Tower agent (tower-worker)');
const hasResult = (req: ModelRequest, n: number) => req.messages.filter((m) => m.role === 'tool').length >= n;

describe('spawned Tower agents', () => {
  it('a worker runs in its worktree on the tower-worker profile, in auto mode; a provider rate limit shrinks the budget', async () => {
    const repo = makeRepo();
    let rateLimitSent = false;
    const workerRequests: ModelRequest[] = [];
    const h = makeEngine({
      dirs: { home: join(repo, '..', 'home'), cwd: repo },
      tower: true,
      mode: 'manual',
      answer: () => ({ decision: 'approve' }),
      tools: builtinTools(),
      responses: (req): ScriptedResponse => {
        if (isTowerAgent(req)) {
          workerRequests.push(req);
          if (!rateLimitSent) {
            rateLimitSent = true;
            return {
              error: new ProviderError('rate_limit', 'Rate limited by mock (HTTP 429): slow down', { status: 429 }),
            };
          }
          if (!hasResult(req, 1))
            return { toolCalls: [{ name: 'Bash', arguments: { command: 'pwd && git branch --show-current' } }] };
          return { text: 'worker done' };
        }
        if (!hasResult(req, 1)) return { toolCalls: [{ name: 'TowerInit', arguments: {} }] };
        if (!hasResult(req, 2))
          return {
            toolCalls: [
              { name: 'TowerPlan', arguments: { missions: [{ id: 'api', title: 'API', scope: ['src/api/**'] }] } },
            ],
          };
        if (!hasResult(req, 3))
          return { toolCalls: [{ name: 'TowerSpawn', arguments: { mission: 'api', role: 'worker' } }] };
        return { text: 'spawned' };
      },
    });
    await runPrompt(h, 'go');
    const store = new TowerStore(repo);
    await waitUntil(() => store.read()!.roster[0]?.status === 'finished', 20_000, 'the worker to finish');
    const worktree = join(repo, '.tower/worktrees/api');
    const bash = h.eventsOf('tool_result').find((r) => r.agentId !== 'main' && r.toolName === 'Bash')!;
    expect(bash.text).toContain(`${worktree}\ntower/api`);
    const tools = workerRequests.at(-1)!.tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['Bash', 'Write', 'TowerSend', 'TowerReview', 'TowerMission']));
    expect(
      tools.filter((n) => /^(Agent|AskUserQuestion|TowerSpawn|TowerMerge|TowerPlan|TowerInit|TowerTeardown)$/.test(n)),
    ).toEqual([]);
    // Manual mode for the user, yet the worker's Bash ran without asking: it is pinned to auto.
    expect(h.approvals.filter((a) => a.agentId !== 'main')).toEqual([]);
    expect(h.eventsOf('retry').some((e) => e.agentId !== 'main')).toBe(true);
    expect(h.runtime.tower!.core.concurrency.limit).toBe(2);
    expect(store.read()!.missions[0]).toMatchObject({ status: 'done', worktree });
    await h.runtime.close();
  });
});

/** A pid that belonged to a process that has ended. */
function deadPid(): number {
  const out = execFileSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(out.trim());
}

const towerFor = (repo: string) =>
  new TowerRuntime({
    cwd: repo,
    agents: () => {
      throw new Error('unused');
    },
    tasks: {} as never,
    toolNames: () => [],
    systemPromptFor: () => '',
    onSubagent: () => {},
  });

describe('after the coordinator is killed', () => {
  it('TowerStatus reads the state with its agents lost; TowerInit from a new process takes over; TowerTeardown removes the worktrees', async () => {
    const repo = makeRepo();
    const first = towerFor(repo).coordinator();
    await first.init('x');
    await first.plan(
      [{ id: 'api', title: 'API', kind: 'build', scope: ['src/api/**'], tasks: [], depends_on: [] }],
      undefined,
    );
    const store = new TowerStore(repo);
    const wt = join(store.worktreesDir, 'api');
    await new TowerGit().addMissionWorktree(repo, wt, 'tower/api', 'main');
    const gone = deadPid();
    // What a coordinator killed mid-run leaves: its pid, a running worker of its own, a worktree.
    await store.update((s) => {
      s.coordinatorPid = gone;
      s.missions[0]!.status = 'running';
      s.missions[0]!.worktree = wt;
      s.roster.push({
        agentId: 'api-worker-1',
        role: 'worker',
        mission: 'api',
        status: 'running',
        worktree: wt,
        pid: gone,
        startedAt: new Date().toISOString(),
      });
    });
    const next = towerFor(repo).coordinator();
    expect(await next.status()).toMatch(/api-worker-1 worker of api: lost \(its coordinator ended while it ran\)/);
    expect(await next.init(undefined)).toMatch(new RegExp(`Took over the tower left by process ${gone}`));
    expect(store.read()!.missions[0]!.status).toBe('failed');
    expect(await next.teardown(false)).toMatch(/1 worktree removed[\s\S]*Unmerged branches kept for you: tower\/api/);
    expect(existsSync(wt)).toBe(false);
    expect(gitIn(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect(store.read()!.roster[0]!.status).toBe('stopped');
  });

  it('a state file cut short is reported with what to do, and TowerTeardown with force still cleans up', async () => {
    const repo = makeRepo();
    const coordinator = towerFor(repo).coordinator();
    await coordinator.init(undefined);
    const store = new TowerStore(repo);
    const wt = join(store.worktreesDir, 'api');
    await new TowerGit().addMissionWorktree(repo, wt, 'tower/api', 'main');
    writeFileSync(store.statePath, '{"version":1,"missi');
    await expect(coordinator.status()).rejects.toThrow(/state\.json cannot be read .*run TowerTeardown with force/);
    await expect(coordinator.teardown(false)).rejects.toThrow(/with force: true removes the worktrees anyway/);
    expect(await coordinator.teardown(true)).toMatch(/1 worktree removed/);
    expect(gitIn(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
  });
});
