import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import {
  cliEnv,
  collect,
  latestJournal,
  makeCliDirs,
  mockModelEnv,
  runJarvis,
  spawnJarvis,
  waitUntil,
} from '../helpers/cli';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

const journalOf = latestJournal;

describe('print mode', () => {
  it('writes the answer to stdout transcript-style and exits 0', async () => {
    const dirs = makeCliDirs();
    server.push({ text: 'First line of the answer.\nSecond line.', thinking: 'pondering quietly' });
    const r = await runJarvis(['-p', 'say hello'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('• First line of the answer.\n  Second line.\n');
    expect(r.stderr).toContain('• pondering quietly');
    const last = server.requests.at(-1)!;
    expect(last.body.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(last.body.messages.at(-1))).toContain('say hello');
  });

  it('reads the prompt from standard input when -p is not given', async () => {
    const dirs = makeCliDirs();
    server.push({ text: 'from stdin' });
    const r = await runJarvis([], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
      input: 'what is up?',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('• from stdin\n');
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain('what is up?');
  });

  it('stream-json: every stdout line is JSON; tool calls, tool results and the answer, no thinking', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.cwd, 'notes.txt'), 'alpha\nbeta\n');
    server.push(
      { thinking: 'secret thoughts', toolCalls: [{ id: 'call_1', name: 'Read', arguments: { path: 'notes.txt' } }] },
      { text: 'The file says alpha and beta.' },
    );
    const r = await runJarvis(['-p', 'read notes', '--output-format', 'stream-json'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('anthropic'), 'anthropic')),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    const all = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(all[0]).toMatchObject({ type: 'init', version: 1 });
    expect(all.at(-1)).toMatchObject({ type: 'result', outcome: 'success' });
    const lines = all.slice(1, -1);
    expect(lines[0]).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'Read' } }],
    });
    expect(lines[1]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    expect(lines[1].content).toContain('alpha');
    expect(lines[2]).toEqual({ role: 'assistant', content: 'The file says alpha and beta.' });
    expect(r.stdout).not.toContain('secret thoughts');
  });

  it('retries a 429 with Retry-After, then succeeds', async () => {
    const dirs = makeCliDirs();
    server.push(
      {
        error: {
          status: 429,
          headers: { 'retry-after-ms': '50' },
          body: { error: { message: 'rate limited', type: 'rate_limit' } },
        },
      },
      { text: 'after the wait' },
    );
    const r = await runJarvis(['-p', 'x'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('• after the wait\n');
    expect(r.stderr).toMatch(/retrying/);
  });

  it('an auth error exits 1 with an actionable message and no retry', async () => {
    const dirs = makeCliDirs();
    const before = server.requests.length;
    server.push({
      error: { status: 401, body: { error: { message: 'invalid api key', type: 'authentication_error' } } },
    });
    const r = await runJarvis(['-p', 'x'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'The API key came from the JARVIS_MODEL_API_KEY environment variable: check or replace it there.',
    );
    expect(server.requests.length - before).toBe(1);
  });

  it('a 401 names the config file and table the key came from', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'config.toml'),
      `default_model = "m"\n[providers.team]\ntype = "openai"\nbase_url = "${server.baseUrlFor('openai')}"\n[providers.team.env]\nOPENAI_API_KEY = "sk-wrong"\n` +
        '[models.m]\nprovider = "team"\nmodel = "mock-model"\nmax_context_size = 100000\n',
    );
    server.push({
      error: { status: 401, body: { error: { message: 'invalid api key', type: 'authentication_error' } } },
    });
    const r = await runJarvis(['-p', 'x'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /The API key came from OPENAI_API_KEY under \[providers\.team\.env\] in .*config\.toml: check or replace it there\./,
    );
  });

  it('a garbled stream fails with a clear error', async () => {
    const dirs = makeCliDirs();
    server.push({ text: 'partial', garble: true });
    const r = await runJarvis(['-p', 'x'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/malformed stream/);
  });

  it('with no model configured, exits non-zero and shows both ways to configure one', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['-p', 'x'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('JARVIS_MODEL_NAME');
    expect(r.stderr).toContain('default_model');
    expect(r.stderr).toContain('config.toml');
  });

  it('an invalid config names the file and the key, exits non-zero and leaves the file alone', async () => {
    const dirs = makeCliDirs();
    const file = join(dirs.home, 'config.toml');
    const text = 'default_model = "fast"\n[models.fast]\nprovider = "nowhere"\nmodel = "m"\nmax_context_size = 1000\n';
    writeFileSync(file, text);
    const mtime = statSync(file).mtimeMs;
    const r = await runJarvis(['-p', 'x'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(1);
    // HOME is the Jarvis home here, so the file shows as ~/config.toml.
    expect(r.stderr).toMatch(/~\/config\.toml: models\.fast\.provider: no provider named "nowhere"/);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(statSync(file).mtimeMs).toBe(mtime);
  });

  it.each([
    [['-p', 'x', '--plan'], /--plan cannot be used with --prompt/],
    [['--output-format', 'text'], /--output-format only applies to print mode/],
    [['--continue', '--session', 'abc'], /--continue and --session/],
    [['--yolo', '--auto'], /--yolo and --auto/],
    [['--agent', 'a', '--agent', 'b'], /--agent may only be given once/],
    [['--agent', 'a', '--agent-file', 'f.md'], /--agent and --agent-file/],
    [['--agent', 'a', '--continue'], /resumed session keeps its own/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    // --yolo with -p is accepted, but must not hide the other checks
    [['-p', 'x', '--yolo', '--output-format', 'xml'], /--output-format must be text, stream-json or json, got "xml"/],
    [['-p', 'x', '--auto', '--agent', 'a', '--agent', 'b'], /--agent may only be given once/],
    // An unknown --agent and a broken --agent-file: test/cli/skillsAgentsPrint.test.ts.
  ])('rejects conflicting flags %j', async (args, message) => {
    const dirs = makeCliDirs();
    const r = await runJarvis(args as string[], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(message);
  });

  it('--yolo and --auto with -p are accepted and change nothing', async () => {
    const dirs = makeCliDirs();
    server.push({ text: 'fine' });
    const r = await runJarvis(['-p', 'x', '--yolo'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
  });

  it('SIGINT mid-stream cancels the turn and journals the partial text', async () => {
    const dirs = makeCliDirs();
    server.push({
      text: 'a long answer that keeps on streaming slowly word by word until someone stops it',
      chunkDelayMs: 150,
    });
    const child = spawnJarvis(['-p', 'talk'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    const done = collect(child);
    // Print mode writes a step's text when its response is final (docs/print-mode.md), so the signal is sent
    // once the server has streamed part of the answer.
    const before = server.requests.length;
    await waitUntil(() => (server.requests[before]?.framesSent ?? 0) >= 4, 10_000, 'the first streamed frames');
    child.kill('SIGINT');
    const r = await done;
    expect(r.code).toBe(130);
    const journal = journalOf(dirs.home);
    const partial = journal.find((rec) => rec.type === 'message' && rec.partial) as
      { message: { text: string } } | undefined;
    expect(partial?.message.text.length).toBeGreaterThan(0);
    expect(journal.at(-1)).toMatchObject({ type: 'turn_end', reason: 'cancelled' });
  });

  it('after kill -9 during a turn, --continue resumes the session with its history', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    server.push({ toolCalls: [{ id: 'call_sleep', name: 'Bash', arguments: { command: 'sleep 4' } }] });
    const child = spawnJarvis(['-p', 'remember the word pineapple'], { env, cwd: dirs.cwd });
    const done = collect(child);
    await waitUntil(
      () => {
        try {
          return journalOf(dirs.home).some(
            (rec) => rec.type === 'message' && (rec.message as { toolCalls?: unknown[] }).toolCalls,
          );
        } catch {
          return false;
        }
      },
      10_000,
      'the tool call in the journal',
    );
    child.kill('SIGKILL');
    await done;
    server.push({ text: 'You said pineapple.' });
    const before = server.requests.length;
    const r = await runJarvis(['--continue', '-p', 'what word?'], { env, cwd: dirs.cwd });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/resuming session/);
    expect(r.stdout).toBe('• You said pineapple.\n');
    const sent = JSON.stringify(server.requests[before].body.messages);
    expect(sent).toContain('pineapple');
    expect(sent).toContain('call_sleep');
  });
});
