// The session-folder attacks (test/helpers/sessionStateAttacks.ts) through the built CLI, as root and as an
// unprivileged user made for the test: each attack is first proved in plain bash on a copy of the session, then tried
// the way a prompt-injected model would — a Bash command run through the sandbox, which must not reach the session
// folder — and then planted directly, as an unconfined process would, to prove the read-back checks: `jarvis rewind`
// and `jarvis -p --continue` must neither escalate, nor signal the canary, nor restore anything outside the workspace
// or into .git (docs/sessions.md, "What a resume trusts").
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJarvis } from '../helpers/cli';
import type { MockModelServer, ScriptedTurn } from '../helpers/mockModelServer';
import { sandboxAvailable } from '../helpers/sandboxAvailable';
import {
  endCanaries,
  escalationProbes,
  expectNothingEscalated,
  makeWorld,
  proveOnCopy,
  runUnconfined,
  SECRET_TEXT,
  SESSION_STATE_ATTACKS,
  startPromptedModel,
  type SessionStateAttack,
} from '../helpers/sessionStateAttacks';
import { launcherFor, makeUserRoot, removeUserRoots, sandboxTestUsers, type TestUser } from '../helpers/sandboxUsers';

const sandboxed = sandboxAvailable();
const users = sandboxTestUsers('ss');
const user = users.find((u) => u.uid !== process.getuid?.());
const canaries: number[] = [];
let server: MockModelServer;
let answer: (replies: Record<string, ScriptedTurn>) => void;

beforeAll(async () => {
  if (user) makeUserRoot(user);
  ({ server, answer } = await startPromptedModel());
});

afterAll(async () => {
  endCanaries(canaries);
  await server.close();
  removeUserRoots(users);
});

/** Every tool result the model was sent since request `from`, by call id. */
function toolResults(from: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const req of server.requests.slice(from))
    for (const m of req.body.messages) if (m.role === 'tool') out.set(m.tool_call_id, String(m.content));
  return out;
}

const runners: Array<{ label: string; as?: TestUser }> = [
  { label: process.getuid?.() === 0 ? 'root' : 'the test user' },
  ...(user ? [{ label: `an unprivileged user (${user.name})`, as: user }] : []),
];

for (const runner of runners) {
  describe(`session-folder attacks through the built CLI, as ${runner.label}`, () => {
    const rows = SESSION_STATE_ATTACKS.filter((r) => !r.unprivilegedOnly || runner.as);
    it.each(rows.map((r): [string, SessionStateAttack] => [r.name, r]))(
      '%s',
      async (_name, row) => {
        const { w, env, run } = await makeWorld(server.baseUrlFor('openai'), canaries, runner.as);
        const launcher = runner.as ? { launcher: launcherFor(runner.as) } : {};
        const jarvis = (args: string[]) => runJarvis(args, { env, cwd: w.cwd, ...launcher, timeoutMs: 90_000 });
        proveOnCopy(row, w, join(w.home, '..'), run);

        if (sandboxed) {
          // A prompt-injected model runs the attack through Bash: the sandbox keeps the session folder out of reach.
          answer({
            'run the attack': {
              toolCalls: [{ id: 'attack', name: 'Bash', arguments: { command: row.command(w.session, w) } }],
            },
          });
          const from = server.requests.length;
          const attempt = await jarvis(['--continue', '-p', 'run the attack']);
          expect(attempt.code, attempt.stderr).toBe(0);
          expect(toolResults(from).get('attack')).toMatch(/Exit code: [1-9]/);
          expect(row.planted(w.session, w), 'planted through the sandbox').toBe(false);
        }

        // Planted directly, as an unconfined process would: what Jarvis reads back must not be trusted.
        expect(runUnconfined(row.command(w.session, w), run)).toBe(0);
        expect(row.planted(w.session, w)).toBe(true);

        const rewound = await jarvis(['rewind', '--files-only']);
        row.expectAfter?.rewind?.(rewound.stdout + rewound.stderr, w);
        expectNothingEscalated(w, 'jarvis rewind --files-only');

        answer({ 'go on': { toolCalls: escalationProbes(w) } });
        const from = server.requests.length;
        const resumed = await jarvis(['--continue', '-p', 'go on']);
        const results = [...toolResults(from).values()].join('\n');
        row.expectAfter?.print?.(`${resumed.stdout}\n${resumed.stderr}\n${results}`, w);
        expectNothingEscalated(w, 'jarvis -p --continue');
        expect(JSON.stringify(server.requests.slice(from).map((r) => r.body))).not.toContain(SECRET_TEXT);
        if (results) {
          expect(toolResults(from).get('probe-unsandboxed')).toContain('outside the command sandbox');
          expect(toolResults(from).get('probe-write')).toContain('outside the workspace');
        }
      },
      300_000,
    );
  });
}

describe.skipIf(!sandboxed)('what a sandboxed command sees of its session', () => {
  it('only the scratch folder: it writes and reads back there, and nothing else of the session is visible', async () => {
    const { w, env } = await makeWorld(server.baseUrlFor('openai'), canaries);
    const scratch = join(w.session, 'scratch');
    answer({
      'look around': {
        toolCalls: [
          { id: 'list', name: 'Bash', arguments: { command: `ls -A ${w.session}` } },
          {
            id: 'note',
            name: 'Bash',
            arguments: { command: `echo kept > ${scratch}/note.txt && cat ${scratch}/note.txt` },
          },
          { id: 'big', name: 'Bash', arguments: { command: 'seq 1 40000' } },
        ],
      },
    });
    const from = server.requests.length;
    const r = await runJarvis(['--continue', '-p', 'look around'], { env, cwd: w.cwd, timeoutMs: 90_000 });
    expect(r.code, r.stderr).toBe(0);
    const results = toolResults(from);
    expect(results.get('list')).toContain('<stdout>\nscratch\n</stdout>');
    expect(results.get('note')).toContain('kept');
    // The saved output of a long command is in the scratch folder, and a command reads it back.
    const saved = /is saved at (\S+?);/.exec(results.get('big') ?? '')?.[1] ?? '';
    expect(saved.startsWith(join(scratch, 'tool-outputs'))).toBe(true);
    answer({
      'read it back': { toolCalls: [{ id: 'back', name: 'Bash', arguments: { command: `tail -n 1 ${saved}` } }] },
    });
    const again = server.requests.length;
    await runJarvis(['--continue', '-p', 'read it back'], { env, cwd: w.cwd, timeoutMs: 90_000 });
    expect(toolResults(again).get('back')).toContain('40000');
    expect(readdirSync(w.out)).toEqual([]);
  });
});
