// Loop limits end to end (docs/configuration.md, "Loop limits"): the built `jarvis -p` against the
// loopback mock model. A Stop hook that always blocks ends within a bounded number of requests; an
// empty or thinking-only answer, over the OpenAI and the Anthropic wire formats, is asked again and
// then fails the run with a message instead of a silent empty success; a model that repeats one call
// is stopped.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_EMPTY_RESPONSES,
  MAX_REPEATED_CALLS,
  MAX_STOP_CONTINUATIONS_PER_TURN,
} from '../../src/engine/loop/turnLimits';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import {
  startMockModelServer,
  type MockModelServer,
  type RecordedRequest,
  type ScriptedTurn,
} from '../helpers/mockModelServer';

let server: MockModelServer;
let script: (req: RecordedRequest) => ScriptedTurn = () => ({ text: 'unscripted' });
beforeAll(async () => {
  server = await startMockModelServer({ script: (req) => script(req) });
});
afterAll(async () => {
  await server.close();
});

const lastMessage = (req: RecordedRequest) => JSON.stringify(req.body.messages.at(-1));

describe('loop limits in print mode', () => {
  it('a Stop hook that always blocks ends the run within a bounded number of requests, and says so', async () => {
    const dirs = makeCliDirs();
    const hook = 'echo "Keep going: run the tests again." >&2; exit 2';
    writeFileSync(join(dirs.home, 'config.toml'), `[[hooks]]\nevent = "Stop"\ncommand = ${JSON.stringify(hook)}\n`);
    script = () => ({ text: 'Done.' });
    const before = server.requests.length;
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const r = await runJarvis(['-p', 'finish the task'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const requests = server.requests.slice(before);
    expect(requests).toHaveLength(MAX_STOP_CONTINUATIONS_PER_TURN + 1);
    expect(lastMessage(requests[1])).toContain('Keep going: run the tests again.');
    expect(lastMessage(requests.at(-1)!)).toContain('the last time a Stop hook can continue this turn');
    const cap = MAX_STOP_CONTINUATIONS_PER_TURN;
    expect(r.stderr).toContain(`after ${cap} continuations, the most one turn allows; the turn ended`);
  });

  for (const type of ['openai', 'anthropic'] as const) {
    const answers = [
      ['an empty answer', {}],
      ['only thinking', { thinking: 'Let me think about it.' }],
    ] as const;
    for (const [what, turn] of answers) {
      it(`${what} over the ${type} wire format is asked again, then fails the run with a message`, async () => {
        const dirs = makeCliDirs();
        script = () => turn;
        const before = server.requests.length;
        const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor(type), type));
        const r = await runJarvis(['-p', 'answer me'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
        expect(r.code).toBe(1);
        expect(r.stdout.trim()).toBe('');
        const sent = `The model sent ${what} (no text and no tool call)`;
        expect(r.stderr).toContain(`${sent}; asking it again (1 of ${MAX_EMPTY_RESPONSES})`);
        expect(r.stderr).toMatch(/^warning: The model sent/m);
        expect(r.stderr).toContain(`${sent} ${MAX_EMPTY_RESPONSES} times in a row; the turn failed`);
        const requests = server.requests.slice(before);
        expect(requests).toHaveLength(MAX_EMPTY_RESPONSES);
        expect(lastMessage(requests[1])).toContain('Your last response was');
      });
    }

    it(`over the ${type} wire format, an answer after an empty one completes the run`, async () => {
      const dirs = makeCliDirs();
      let n = 0;
      script = () => (n++ === 0 ? {} : { text: 'Here is the answer.' });
      const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor(type), type));
      const r = await runJarvis(['-p', 'answer me'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Here is the answer.');
    });
  }

  it('a model that repeats one valid call is warned and then stopped', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.cwd, 'notes.txt'), 'the same content\n');
    script = () => ({ toolCalls: [{ name: 'Read', arguments: { path: 'notes.txt' } }] });
    const before = server.requests.length;
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const r = await runJarvis(['-p', 'read the notes'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(server.requests.length - before).toBe(MAX_REPEATED_CALLS);
    expect(r.stderr).toContain('same Read call 3 times in a row with the same result');
    expect(r.stderr).toContain('same Read call (same arguments, same result) 5 times in a row; the turn was stopped');
    expect(lastMessage(server.requests.at(-1)!)).toContain('Warning: this is call number 4 in a row');
  });

  it('20 identical Read calls in one response are answered: one runs, 19 are duplicates of it, the run succeeds', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.cwd, 'notes.txt'), 'the same content\n');
    let n = 0;
    script = () =>
      n++ === 0
        ? {
            toolCalls: Array.from({ length: 20 }, (_, i) => ({
              id: `r${i}`,
              name: 'Read',
              arguments: { path: 'notes.txt' },
            })),
          }
        : { text: 'Read the notes.' };
    const before = server.requests.length;
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const r = await runJarvis(['-p', 'read the notes', '--output-format', 'stream-json'], {
      env,
      cwd: dirs.cwd,
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const tools = lines.filter((l) => l.role === 'tool');
    expect(tools.map((t) => t.tool_call_id)).toEqual(Array.from({ length: 20 }, (_, i) => `r${i}`));
    expect(tools[0].content).toContain('the same content');
    for (const t of tools.slice(1)) {
      expect(t.content).toMatch(/^Duplicate of call r0 in this same response \(same Read call, same arguments\)/);
      expect(t.content).toContain('the same content');
    }
    expect(lines.at(-1)).toMatchObject({ type: 'result', outcome: 'success', text: 'Read the notes.' });
    expect(server.requests.length - before).toBe(2);
    expect(r.stderr).not.toMatch(/same Read call/);
  });

  // A long output is saved to a new file on every call; the repeat limit compares what was saved, not where.
  for (const [what, command] of [
    ['short', 'echo the same line'],
    ['long (saved to a file)', 'seq 1 200000'],
  ] as const) {
    it(`8 identical Bash calls with ${what} output are warned at the 3rd and stopped at the 5th`, async () => {
      const dirs = makeCliDirs();
      script = () => ({ toolCalls: [{ name: 'Bash', arguments: { command, description: 'same command' } }] });
      const before = server.requests.length;
      const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
      const r = await runJarvis(['-p', 'run it eight times'], { env, cwd: dirs.cwd, timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(1);
      expect(server.requests.length - before).toBe(MAX_REPEATED_CALLS);
      expect(r.stderr).toContain('same Bash call 3 times in a row with the same result');
      expect(r.stderr).toContain('same Bash call 4 times in a row with the same result');
      expect(r.stderr).toContain('same Bash call (same arguments, same result) 5 times in a row; the turn was stopped');
      const results = server.requests.slice(before).map(lastMessage);
      if (command.startsWith('seq')) expect(results[1]).toMatch(/tool-outputs/);
      expect(results[3]).toContain('Warning: this is call number 3 in a row');
    });
  }
});
