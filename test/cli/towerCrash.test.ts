// A coordinator killed with SIGKILL while its worker runs (docs/tower.md "Crashes and kills"): the next
// jarvis reads the tower with TowerStatus (the worker lost) and TowerTeardown removes its worktree.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startMockModelServer,
  type MockModelServer,
  type RecordedRequest,
  type ScriptedTurn,
} from '../helpers/mockModelServer';
import { cliEnv, collect, makeCliDirs, mockModelEnv, runJarvis, spawnJarvis, waitUntil } from '../helpers/cli';
import { gitIn, makeRepo } from '../engine/tower/towerRepo';

let server: MockModelServer;
let script: (req: RecordedRequest) => ScriptedTurn = () => ({ text: 'unscripted' });
beforeAll(async () => {
  server = await startMockModelServer({ script: (req) => script(req) });
});
afterAll(async () => {
  await server.close();
});

const all = (req: RecordedRequest) => JSON.stringify(req.body.messages);
const called = (req: RecordedRequest, tool: string) =>
  req.body.messages.some((m: { tool_calls?: Array<{ function: { name: string } }> }) =>
    m.tool_calls?.some((c) => c.function.name === tool),
  );
const isTowerAgent = (req: RecordedRequest) =>
  JSON.stringify(req.body.messages[0]).includes('# Your role: Tower agent (tower-worker)');

describe('Tower after a killed coordinator', () => {
  it('TowerStatus shows the worker lost, TowerTeardown cleans its worktree', async () => {
    const repo = makeRepo();
    const dirs = makeCliDirs();
    const env = cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), JARVIS_CODE_EXPERIMENTAL_TOWER: '1' });
    script = (req) => {
      // The worker's model never answers: it is still running when the coordinator is killed.
      if (isTowerAgent(req)) return { hang: true };
      if (all(req).includes('clean up the tower')) {
        if (!called(req, 'TowerStatus')) return { toolCalls: [{ name: 'TowerStatus', arguments: {} }] };
        if (!called(req, 'TowerTeardown')) return { toolCalls: [{ name: 'TowerTeardown', arguments: {} }] };
        return { text: 'cleaned up' };
      }
      if (!called(req, 'TowerInit')) return { toolCalls: [{ name: 'TowerInit', arguments: {} }] };
      if (!called(req, 'TowerPlan'))
        return {
          toolCalls: [
            { name: 'TowerPlan', arguments: { missions: [{ id: 'api', title: 'API', scope: ['src/api/**'] }] } },
          ],
        };
      if (!called(req, 'TowerSpawn'))
        return { toolCalls: [{ name: 'TowerSpawn', arguments: { mission: 'api', role: 'worker' } }] };
      return { text: 'worker started' };
    };
    const statePath = join(repo, '.tower/comms/state.json');
    const child = spawnJarvis(['-p', 'start the tower'], { env, cwd: repo });
    const ended = collect(child, 60_000);
    await waitUntil(
      () => existsSync(statePath) && JSON.parse(readFileSync(statePath, 'utf8')).roster[0]?.status === 'running',
      40_000,
      'the worker to run',
    );
    expect(gitIn(repo, 'worktree', 'list')).toContain('.tower/worktrees/api');
    child.kill('SIGKILL');
    expect((await ended).signal).toBe('SIGKILL');

    const before = server.requests.length;
    const r = await runJarvis(['-p', 'clean up the tower'], { env, cwd: repo, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const last = all(
      server.requests
        .slice(before)
        .filter((q) => !isTowerAgent(q))
        .at(-1)!,
    );
    expect(last).toMatch(/api-worker-[0-9a-f]+ worker of api: lost \(its coordinator ended while it ran\)/);
    expect(last).toMatch(/Tower torn down: 1 worktree removed\.\\nUnmerged branches kept for you: tower\/api\./);
    expect(gitIn(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect(JSON.parse(readFileSync(statePath, 'utf8'))).toMatchObject({
      active: false,
      roster: [{ status: 'stopped' }],
    });
  }, 150_000);
});
