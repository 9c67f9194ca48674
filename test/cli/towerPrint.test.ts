// Tower mode end to end (docs/tower.md): the built CLI in print mode on a real git repository, against
// the loopback mock model. The model is a script that answers by who asks — the coordinator, a
// mission's worker or its reviewer (told apart by the brief) — and by what has happened so far.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startMockModelServer,
  type MockModelServer,
  type RecordedRequest,
  type ScriptedTurn,
} from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import { gitIn, makeRepo } from '../engine/tower/towerRepo';

type Script = (req: RecordedRequest) => ScriptedTurn;
let server: MockModelServer;
let script: Script = () => ({ text: 'unscripted' });
beforeAll(async () => {
  server = await startMockModelServer({ script: (req) => script(req) });
});
afterAll(async () => {
  await server.close();
});

interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ function: { name: string } }>;
}
const messagesOf = (req: RecordedRequest): WireMessage[] => req.body.messages;
const all = (req: RecordedRequest) => JSON.stringify(req.body.messages);
const briefOf = (req: RecordedRequest) => JSON.stringify(messagesOf(req)[1]?.content ?? '');
const isTowerAgent = (req: RecordedRequest) =>
  JSON.stringify(messagesOf(req)[0]).includes('# Your role: Tower agent (tower-worker)');
/** How many answers this agent has given so far (each model response is one assistant message). */
const steps = (req: RecordedRequest) => messagesOf(req).filter((m) => m.role === 'assistant').length;
const called = (req: RecordedRequest, tool: string) =>
  messagesOf(req).some((m) => m.tool_calls?.some((c) => c.function.name === tool));
const toolNames = (req: RecordedRequest): string[] =>
  (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);

const towerEnv = { JARVIS_CODE_EXPERIMENTAL_TOWER: '1' };

function workerTurn(req: RecordedRequest, mission: 'api' | 'ui'): ScriptedTurn {
  const files: Record<string, string> =
    mission === 'api'
      ? { 'src/api/server.ts': 'export const port = 8080;\n' }
      : { 'src/ui/view.ts': 'export const view = "new";\n', 'README.md': '# demo, touched by ui\n' };
  switch (steps(req)) {
    case 0:
      return { toolCalls: Object.keys(files).map((path) => ({ name: 'Read', arguments: { path } })) };
    case 1:
      return {
        toolCalls: Object.entries(files).map(([path, content]) => ({ name: 'Write', arguments: { path, content } })),
      };
    case 2:
      return {
        toolCalls: [
          {
            name: 'Bash',
            arguments: {
              command: `git add -A && git commit -q -m "${mission}: mission work" && git log -1 --format=%s`,
            },
          },
        ],
      };
    case 3:
      return { toolCalls: [{ name: 'TowerMission', arguments: { tick: [1] } }] };
    default:
      return { text: `${mission} worker: done and committed.` };
  }
}

function reviewerTurn(req: RecordedRequest, mission: 'api' | 'ui'): ScriptedTurn {
  switch (steps(req)) {
    case 0:
      return { toolCalls: [{ name: 'Bash', arguments: { command: 'git diff --stat main...HEAD' } }] };
    case 1:
      return mission === 'api'
        ? {
            toolCalls: [
              {
                name: 'TowerReview',
                arguments: { mission, verdict: 'approve', summary: 'Port change is correct and in scope.' },
              },
            ],
          }
        : {
            toolCalls: [
              {
                name: 'TowerReview',
                arguments: {
                  mission,
                  verdict: 'request_changes',
                  summary: 'README.md is outside the ui scope; revert it.',
                },
              },
            ],
          };
    default:
      return { text: `${mission} review submitted.` };
  }
}

/** The coordinator: one action per answer, each taken once, the later ones after the notifications they need. */
function coordinatorTurn(req: RecordedRequest): ScriptedTurn {
  const text = all(req);
  const ended = (role: string, mission: string) =>
    new RegExp(`${role} \\S+ of mission ${mission}: finished`).test(text);
  if (!called(req, 'TowerInit'))
    return { toolCalls: [{ name: 'TowerInit', arguments: { objective: 'Change the API port and the UI view' } }] };
  if (!called(req, 'TowerPlan')) {
    return {
      toolCalls: [
        {
          name: 'TowerPlan',
          arguments: {
            missions: [
              { id: 'api', title: 'API port', scope: ['src/api/**'], tasks: ['set the port to 8080'] },
              { id: 'ui', title: 'UI view', scope: ['src/ui/**'], tasks: ['render the new view'] },
            ],
          },
        },
      ],
    };
  }
  if (!called(req, 'TowerSpawn')) {
    return {
      toolCalls: [
        { name: 'TowerSpawn', arguments: { mission: 'api', role: 'worker' } },
        { name: 'TowerSpawn', arguments: { mission: 'ui', role: 'worker' } },
      ],
    };
  }
  if (!(ended('worker', 'api') && ended('worker', 'ui'))) return { text: 'Waiting for the workers.' };
  if (text.includes('nothing to review')) return { text: 'Stuck: a worker committed nothing.' };
  if (!text.includes('Started reviewer')) {
    return {
      toolCalls: [
        { name: 'TowerSpawn', arguments: { mission: 'api', role: 'reviewer' } },
        { name: 'TowerSpawn', arguments: { mission: 'ui', role: 'reviewer' } },
      ],
    };
  }
  if (!(ended('reviewer', 'api') && ended('reviewer', 'ui'))) return { text: 'Waiting for the reviews.' };
  if (!called(req, 'TowerMerge')) return { toolCalls: [{ name: 'TowerMerge', arguments: { mission: 'api' } }] };
  if (!text.includes('TowerMerge refused for \\"ui\\"'))
    return { toolCalls: [{ name: 'TowerMerge', arguments: { mission: 'ui' } }] };
  if (!called(req, 'TowerStatus')) return { toolCalls: [{ name: 'TowerStatus', arguments: {} }] };
  if (!called(req, 'TowerTeardown')) return { toolCalls: [{ name: 'TowerTeardown', arguments: {} }] };
  return { text: 'Tower finished: api merged, ui refused.' };
}

describe('Tower mode in print mode', () => {
  it('without the experimental flag no Tower tool exists', async () => {
    const dirs = makeCliDirs();
    let offered: string[] = [];
    script = (req) => {
      offered = [...toolNames(req), all(req)];
      return { text: 'no tower' };
    };
    const r = await runJarvis(['-p', 'hello'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(0);
    expect(offered.join('\n')).not.toMatch(/Tower/);
  });

  it('plans two missions, workers commit in their own worktrees, one review approves and one rejects, the approved branch merges, the out-of-scope one is refused, teardown leaves no worktree', async () => {
    const dirs = makeCliDirs();
    const repo = makeRepo();
    const before = server.requests.length;
    script = (req) => {
      if (!isTowerAgent(req)) return coordinatorTurn(req);
      const brief = briefOf(req);
      const mission = brief.includes('mission \\"api\\"') ? 'api' : 'ui';
      if (steps(req) === 0 && brief.includes('You are the worker')) {
        // While the workers run, their worktrees are real git worktrees of the repository.
        const listed = gitIn(repo, 'worktree', 'list');
        expect(listed).toContain(`.tower/worktrees/${mission}`);
      }
      return brief.includes('You are the worker') ? workerTurn(req, mission) : reviewerTurn(req, mission);
    };
    const r = await runJarvis(['-p', 'Run the tower'], {
      env: cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), ...towerEnv }),
      cwd: repo,
      timeoutMs: 30_000,
    });
    const requests = server.requests.slice(before);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Tower finished: api merged, ui refused.');

    // Each worker committed on its own branch, in its own worktree (tower/api is deleted once merged).
    expect(gitIn(repo, 'log', '-1', '--format=%s', 'tower/ui')).toBe('ui: mission work');
    expect(gitIn(repo, 'show', '--name-only', '--format=', 'tower/ui').split('\n').sort()).toEqual([
      'README.md',
      'src/ui/view.ts',
    ]);

    // The approved branch merged into main; the rejected, out-of-scope one did not. Topological order: the mission's
    // commit and `initial` can carry the same second, and git's default order then depends on the tie.
    expect(gitIn(repo, 'log', '--topo-order', '--format=%s', 'main')).toMatch(
      /^Tower: merge mission api \(API port\)\napi: mission work\ninitial$/,
    );
    expect(readFileSync(join(repo, 'src/api/server.ts'), 'utf8')).toBe('export const port = 8080;\n');
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('# demo\n');
    const last = all(requests.filter((q) => !isTowerAgent(q)).at(-1)!);
    expect(last).toContain('Merged tower/api into main');
    expect(last).toMatch(
      /TowerMerge refused for \\"ui\\"; nothing was merged:\\n- the latest review \(r\d by ui-reviewer-[0-9a-f]+\) requests changes: README.md is outside the ui scope; revert it.\\n- it changed files outside its scope \(src\/ui\/\*\*\): README.md/,
    );
    expect(last).toMatch(
      /Review gate:\\n {2}api: merged [0-9a-f]{8}\\n {2}ui: changes requested at [0-9a-f]{8} by ui-reviewer-/,
    );

    // Teardown: no worktree left, the unmerged branch kept, the merged one deleted, the record kept.
    expect(gitIn(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect(existsSync(join(repo, '.tower/worktrees'))).toBe(false);
    expect(gitIn(repo, 'branch', '--list', 'tower/*').trim()).toBe('tower/ui');
    const state = JSON.parse(readFileSync(join(repo, '.tower/comms/state.json'), 'utf8'));
    expect(state.active).toBe(false);
    expect(
      state.missions.map((m: { id: string; status: string; tasks: Array<{ done: boolean }> }) => [
        m.id,
        m.status,
        m.tasks[0]!.done,
      ]),
    ).toEqual([
      ['api', 'merged', true],
      ['ui', 'done', true],
    ]);
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');

    // Workers and reviewers ran on the tower-worker profile: Tower tools plus file/shell/search, no questions, no coordinator tools.
    const agentTools = toolNames(requests.find(isTowerAgent)!);
    expect(agentTools).toEqual(
      expect.arrayContaining([
        'Read',
        'Write',
        'Edit',
        'Glob',
        'Grep',
        'Bash',
        'TowerSend',
        'TowerMission',
        'TowerReview',
        'TowerStatus',
      ]),
    );
    expect(agentTools.filter((n) => /AskUserQuestion|Agent|TowerMerge|TowerSpawn|TowerPlan/.test(n))).toEqual([]);
  }, 150_000);

  it("runs none of the programs the repository's config names: hooks, a smudge filter, signing (docs/sandbox.md)", async () => {
    const dirs = makeCliDirs();
    const repo = makeRepo();
    // Planted as a command could: hooks on checkout and merge, a smudge filter, signing with a program — all in
    // the workspace, each appending to a canary outside it.
    const canary = join(dirs.home, 'canary');
    const evil = join(repo, '.git', 'evil.sh');
    writeFileSync(evil, `#!/bin/sh\necho "$(basename "$0") $*" >> ${canary}\ncat\n`);
    chmodSync(evil, 0o755);
    for (const hook of ['post-checkout', 'pre-merge-commit', 'post-merge']) {
      writeFileSync(join(repo, '.git', 'hooks', hook), `#!/bin/sh\nexec ${evil} "$@" </dev/null\n`);
      chmodSync(join(repo, '.git', 'hooks', hook), 0o755);
    }
    gitIn(repo, 'config', 'filter.fx.smudge', evil);
    writeFileSync(join(repo, '.gitattributes'), 'src/** filter=fx\n');
    gitIn(repo, 'add', '.gitattributes');
    gitIn(repo, 'commit', '-q', '-m', 'attributes');
    gitIn(repo, 'config', 'gpg.program', evil);
    script = (req) => {
      if (!isTowerAgent(req)) return coordinatorTurn(req);
      const brief = briefOf(req);
      const mission = brief.includes('mission \\"api\\"') ? 'api' : 'ui';
      return brief.includes('You are the worker') ? workerTurn(req, mission) : reviewerTurn(req, mission);
    };
    const r = await runJarvis(['-p', 'Run the tower'], {
      env: cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), ...towerEnv }),
      cwd: repo,
      timeoutMs: 30_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Tower finished: api merged, ui refused.');
    expect(gitIn(repo, 'log', '-1', '--format=%s', 'main')).toBe('Tower: merge mission api (API port)');
    expect(existsSync(canary) ? readFileSync(canary, 'utf8') : '').toBe('');
    // The plants are live: the user's own next checkout runs them.
    gitIn(repo, 'checkout', '-q', '-b', 'after');
    expect(readFileSync(canary, 'utf8')).toMatch(/evil\.sh/);
  }, 150_000);
});
