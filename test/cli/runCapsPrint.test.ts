// docs/print-mode.md "Caps": --max-turns, --max-budget-usd and --timeout through the built CLI and the scripted
// model. Each stops the run with its own outcome and exit code, the result says which cap was hit, background
// work and subagents stop too, and the session stays one a later run can resume.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { resultOf } from '../helpers/resultSchema';
import {
  cliEnv,
  latestJournal,
  latestSessionDir,
  makeCliDirs,
  mockModelEnv,
  runJarvis,
  type CliDirs,
} from '../helpers/cli';

let server: MockModelServer;
let dirs: CliDirs;
beforeEach(async () => {
  server = await startMockModelServer();
  dirs = makeCliDirs();
  writeFileSync(join(dirs.cwd, 'notes.txt'), 'release on friday\n');
});
afterEach(async () => {
  await server.close();
});

const read = (path = 'notes.txt') => ({ toolCalls: [{ name: 'Read', arguments: { path } }] });

async function jarvis(args: string[], env: Record<string, string> = mockModelEnv(server.baseUrlFor('openai'))) {
  const r = await runJarvis(args, { env: cliEnv(dirs, env), cwd: dirs.cwd, timeoutMs: 30_000 });
  const result = resultOf(r.stdout);
  return { ...r, result };
}

/** Every tool call of a request has its result: what a provider needs of a resumed conversation. */
function wellFormed(messages: Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>) {
  const answered = new Set(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
  return messages.flatMap((m) => m.tool_calls ?? []).every((c) => answered.has(c.id));
}

/** A run the turn cap stopped after `n` responses: exit 4, and the result says so. */
function expectTurnCap(r: { code: number | null; result: Record<string, unknown> }, n: number): void {
  expect(r.code).toBe(4);
  expect(r.result).toMatchObject({
    outcome: 'max_turns',
    exit_code: 4,
    model_turns: n,
    cap: { name: 'max_turns', limit: n, used: n },
    error: `The run stopped after ${n} model turn${n === 1 ? '' : 's'} (--max-turns ${n}).`,
  });
}

describe('--max-turns', () => {
  it('stops before the request that would be one too many (exit 4); the last tools ran; a resumed run goes on', async () => {
    server.push(read(), read(), read());
    const r = await jarvis(['-p', 'read it again and again', '--max-turns', '2', '--output-format', 'stream-json']);
    expectTurnCap(r, 2);
    expect(server.requests).toHaveLength(2);
    expect(r.stderr).toContain('The run stopped after 2 model turns (--max-turns 2).');
    // Both responses' calls ran and have their results; the model is told why the run stopped.
    const journal = latestJournal(dirs.home);
    expect(journal.filter((e) => (e.message as { role?: string } | undefined)?.role === 'tool')).toHaveLength(2);
    expect(journal.at(-1)).toMatchObject({ type: 'turn_end', reason: 'max_turns' });
    expect(JSON.stringify(journal.at(-2))).toContain('--max-turns 2');

    server.push({ text: 'It says: release on friday.' });
    const resumed = await jarvis(['--continue', '-p', 'now answer', '--output-format', 'json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.result).toMatchObject({ outcome: 'success', cap: null, text: 'It says: release on friday.' });
    expect(wellFormed(server.requests[2].body.messages)).toBe(true);
  });

  it('json: --max-turns 1 stops after the first response’s tools ran', async () => {
    server.push(read(), read());
    const r = await jarvis(['-p', 'read', '--max-turns', '1', '--output-format', 'json']);
    expectTurnCap(r, 1);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
  });

  it('a final answer at the last allowed turn is a success', async () => {
    server.push(read(), { text: 'Friday.' });
    const r = await jarvis(['-p', 'when?', '--max-turns', '2', '--output-format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.result).toMatchObject({ outcome: 'success', model_turns: 2, cap: null, text: 'Friday.' });
  });
});

describe('--max-budget-usd', () => {
  /** $1000 per million tokens in and out: a request of 100 + 10 tokens costs $0.11. */
  function pricedModel(price = 'price = { input = 1000, output = 1000 }'): void {
    writeFileSync(
      join(dirs.home, 'config.toml'),
      [
        'default_model = "m"',
        `[providers.mock]\ntype = "openai"\nbase_url = "${server.baseUrlFor('openai')}"\napi_key = "k"`,
        `[models.m]\nprovider = "mock"\nmodel = "mock-model"\nmax_context_size = 100000\n${price}`,
      ].join('\n\n'),
    );
  }
  const usage = { input: 100, output: 10 };

  it('stops once the priced cost passes the budget (exit 5), in the middle of the response that passed it', async () => {
    pricedModel();
    server.push({ ...read(), usage }, { ...read(), usage }, { ...read(), usage }, { text: 'done', usage });
    const r = await jarvis(['-p', 'go', '--max-budget-usd', '0.2', '--output-format', 'json'], {});
    expect(r.code).toBe(5);
    expect(r.result).toMatchObject({
      outcome: 'budget_exceeded',
      exit_code: 5,
      total_cost_usd: 0.22,
      cost_source: 'priced',
      cost_complete: true,
      cap: { name: 'max_budget_usd', limit: 0.2, used: 0.22 },
    });
    expect(String(r.result.error)).toContain('over its budget of $0.2 (--max-budget-usd 0.2)');
    expect(server.requests).toHaveLength(2);
    // The second response's calls were not run: the journal has no call without its result.
    const journal = latestJournal(dirs.home);
    expect(journal.at(-1)).toMatchObject({ type: 'turn_end', reason: 'budget_exceeded' });
    server.push({ text: 'resumed' });
    const resumed = await jarvis(['--continue', '-p', 'go on', '--output-format', 'json'], {});
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(wellFormed(server.requests[2].body.messages)).toBe(true);
  });

  it('stream-json: the same stop, the result event last', async () => {
    pricedModel();
    server.push({ ...read(), usage }, { text: 'answer', usage });
    const r = await jarvis(['-p', 'go', '--max-budget-usd', '0.1', '--output-format', 'stream-json'], {});
    expect(r.code).toBe(5);
    expect(r.result).toMatchObject({ type: 'result', outcome: 'budget_exceeded', cap: { used: 0.11 } });
    expect(server.requests).toHaveLength(1);
  });

  it('a request with no cost and no price stops the run: the budget cannot be kept (exit 1)', async () => {
    server.push(read(), { text: 'done' });
    const r = await jarvis(['-p', 'go', '--max-budget-usd', '5', '--output-format', 'json']);
    expect(r.code).toBe(1);
    expect(r.result).toMatchObject({ outcome: 'error', cap: null, total_cost_usd: null });
    expect(String(r.result.error)).toMatch(
      /--max-budget-usd 5 cannot be kept: a request to mock-model reported no cost/,
    );
    expect(String(r.result.error)).toContain('[models.<alias>] price');
    expect(server.requests).toHaveLength(1);
  });
});

describe('--timeout', () => {
  it('stops the run, its subagent and its background command (exit 124); the session resumes', async () => {
    server.push(
      {
        toolCalls: [
          {
            name: 'Bash',
            arguments: { command: 'sleep 60', run_in_background: true, description: 'long job' },
          },
          { name: 'Agent', arguments: { description: 'look around', prompt: 'List the files.' } },
        ],
      },
      { hang: true },
    );
    // Long enough for the subagent's request to be under way when it strikes, on a busy machine too.
    const r = await jarvis(['-p', 'work', '--timeout', '6s', '--output-format', 'json']);
    expect(r.code).toBe(124);
    expect(r.result).toMatchObject({
      outcome: 'timeout',
      exit_code: 124,
      cap: { name: 'timeout', limit: 6000 },
      error: 'The run stopped after 6s (--timeout 6s).',
    });
    expect((r.result.cap as { used: number }).used).toBeGreaterThanOrEqual(6000);
    // The subagent's hanging request was abandoned, and its journal ends its turn.
    await expect.poll(() => server.requests[1]?.abandonedAt).toBeDefined();
    const session = latestSessionDir(dirs.home);
    const [sub] = readdirSync(join(session, 'agents')).filter((id) => id !== 'main');
    const subJournal = readFileSync(join(session, 'agents', sub, 'wire.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(subJournal.at(-1)!)).toMatchObject({ type: 'turn_end', reason: 'cancelled' });
    // The background command was stopped, and its record says why.
    const [task] = readdirSync(join(session, 'tasks')).filter((f) => f.endsWith('.json'));
    expect(JSON.parse(readFileSync(join(session, 'tasks', task), 'utf8'))).toMatchObject({
      status: 'cancelled',
      statusMessage: 'Stopped: The run stopped after 6s (--timeout 6s).',
    });
    expect(latestJournal(dirs.home).at(-1)).toMatchObject({ type: 'turn_end', reason: 'timeout' });

    server.push({ text: 'resumed after the timeout' });
    const resumed = await jarvis(['--continue', '-p', 'go on', '--output-format', 'json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.result).toMatchObject({ text: 'resumed after the timeout' });
    expect(wellFormed(server.requests.at(-1)!.body.messages)).toBe(true);
  });

  it('stream-json: a model that never answers is stopped (exit 124)', async () => {
    server.push({ hang: true });
    const r = await jarvis(['-p', 'work', '--timeout', '1500ms', '--output-format', 'stream-json']);
    expect(r.code).toBe(124);
    expect(r.result).toMatchObject({ outcome: 'timeout', cap: { name: 'timeout', limit: 1500 } });
    expect(r.stdout.split('\n')[0]).toContain('"type":"init"');
  });
});

describe('bad cap values are usage errors (exit 2)', () => {
  const cases: Array<[string[], string]> = [
    [['--timeout', '90'], '--timeout takes a duration with its unit'],
    [['--timeout=-5s'], '--timeout takes a duration with its unit'],
    [['--max-turns', '0'], '--max-turns takes a whole number of model turns ≥ 1'],
    [['--max-turns', '2.5'], '--max-turns takes a whole number'],
    [['--max-budget-usd', '0'], '--max-budget-usd takes an amount of US dollars greater than 0'],
  ];
  for (const [flags, message] of cases) {
    it(flags.join(' '), async () => {
      const r = await runJarvis(['-p', 'x', ...flags], { env: cliEnv(dirs), cwd: dirs.cwd });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    });
  }
});
