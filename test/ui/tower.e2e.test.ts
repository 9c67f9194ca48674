// `/tower` in the interactive UI (tmux, the built CLI, the mock model, a real git repository; docs/tower.md
// "In the terminal UI"): without the flag it says how to enable it; with it, an objective goes to the
// coordinator, a worker commits in its worktree, the Tower panel shows the dashboard, teardown cleans up.
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedTurn } from '../helpers/mockModelServer';
import { requireSystemPart } from '../helpers/requireAll';
import { gitIn, makeRepo } from '../engine/tower/towerRepo';
import { appsClosedAfterEach, send } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

const isTowerAgent = (req: RecordedRequest) =>
  JSON.stringify(req.body.messages[0]).includes('# Your role: Tower agent (tower-worker)');
const steps = (req: RecordedRequest) =>
  req.body.messages.filter((m: { role: string }) => m.role === 'assistant').length;

function script(req: RecordedRequest): ScriptedTurn {
  if (isTowerAgent(req)) {
    switch (steps(req)) {
      case 0:
        return { toolCalls: [{ name: 'Read', arguments: { path: 'src/api/server.ts' } }] };
      case 1:
        return {
          toolCalls: [
            { name: 'Write', arguments: { path: 'src/api/server.ts', content: 'export const port = 9090;\n' } },
          ],
        };
      case 2:
        return { toolCalls: [{ name: 'Bash', arguments: { command: 'git commit -qam "api: port 9090"' } }] };
      default:
        return { text: 'port changed' };
    }
  }
  const text = JSON.stringify(req.body.messages);
  if (text.includes('of mission api: finished')) return { text: 'The api worker finished.' };
  switch (steps(req)) {
    case 0:
      return {
        toolCalls: [
          {
            name: 'TowerPlan',
            arguments: {
              missions: [{ id: 'api', title: 'API port', scope: ['src/api/**'], tasks: ['set port 9090'] }],
            },
          },
        ],
      };
    case 1:
      return { toolCalls: [{ name: 'TowerSpawn', arguments: { mission: 'api', role: 'worker' } }] };
    default:
      return { text: 'Worker started.' };
  }
}

describe.skipIf(!hasTmux)('/tower in the UI (tmux)', { timeout: 120_000 }, () => {
  it('without the experimental flag /tower says how to enable it', async () => {
    const app = await start({ turns: [] });
    send(app, '/tower status');
    await app.tmux.waitFor(/Tower mode is experimental and not enabled in this session/);
  });

  it('an objective runs a worker in its worktree; the Tower panel shows missions, roster and gate; teardown removes the worktree', async () => {
    const repo = makeRepo();
    const app = await start({ script, cwd: repo, args: ['--yolo'], env: { JARVIS_CODE_EXPERIMENTAL_TOWER: '1' } });
    send(app, '/tower Change the API port to 9090');
    await app.tmux.waitFor(/Tower mode on\. Tower initialised in/);
    await app.tmux.waitFor('The api worker finished.', { scrollback: true, timeoutMs: 60_000 });
    expect(gitIn(repo, 'log', '-1', '--format=%s', 'tower/api')).toBe('api: port 9090');

    send(app, '/tower');
    const panel = await app.tmux.waitFor(/Review gate:/);
    expect(panel).toContain('Missions (1):');
    expect(panel).toContain('api [build] done — tasks 0/1 — src/api/**');
    expect(panel).toMatch(/api-worker-[0-9a-f]+ worker of api: finished/);
    expect(panel).toMatch(/api: not reviewed/);
    app.tmux.keys('Escape');
    await app.tmux.waitForGone(/Review gate:/);

    send(app, '/tower teardown');
    await app.tmux.waitFor(/Tower torn down: 1 worktree removed\./);
    expect(gitIn(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
  });
});
