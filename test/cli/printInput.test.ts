// stdin and -p combine, end to end: piped text travels with the question; `-p -` and a bare `-p` read
// the prompt from stdin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

async function promptSent(
  args: string[],
  input?: string,
): Promise<{ code: number | null; stderr: string; sent?: string }> {
  const dirs = makeCliDirs();
  const before = server.requests.length;
  server.push({ text: 'Answer.' });
  const r = await runJarvis(args, {
    env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
    cwd: dirs.cwd,
    input,
  });
  const request = server.requests[before];
  const sent = request ? (request.body.messages.at(-1) as { content: string }).content : undefined;
  return { code: r.code, stderr: r.stderr, sent };
}

describe('print mode input', () => {
  it('cat log | jarvis -p "question" sends the piped text as context and the argument as the question', async () => {
    const r = await promptSent(['-p', 'why did this fail?'], 'step 1 ok\nERROR: disk full\n');
    expect(r.code).toBe(0);
    expect(r.sent).toBe(
      'The following text was piped to jarvis on standard input:\n<stdin>\nstep 1 ok\nERROR: disk full\n</stdin>\n\nwhy did this fail?',
    );
  });

  it('-p - reads the whole prompt from stdin', async () => {
    const r = await promptSent(['-p', '-'], 'summarise this repository\n');
    expect(r.code).toBe(0);
    expect(r.sent).toBe('summarise this repository\n');
  });

  it('echo x | jarvis -p (no value) works', async () => {
    const r = await promptSent(['-p'], 'list the files\n');
    expect(r.code).toBe(0);
    expect(r.sent).toBe('list the files\n');
  });

  it('-p "question" with nothing piped sends just the question', async () => {
    const r = await promptSent(['-p', 'just this']);
    expect(r.code).toBe(0);
    expect(r.sent).toBe('just this');
  });

  it('a bare -p with empty stdin fails with a clear message', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['-p'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
      input: '',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the prompt is empty');
  });

  it('a piped text larger than the window is cut to its end, with a note on stderr', async () => {
    const dirs = makeCliDirs();
    const before = server.requests.length;
    server.push({ text: 'Answer.' });
    const log = `${'noise line\n'.repeat(40_000)}FATAL: the real error\n`;
    const env = cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), JARVIS_MODEL_MAX_CONTEXT_SIZE: '40000' });
    const r = await runJarvis(['-p', 'why?'], { env, cwd: dirs.cwd, input: log });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /the piped text is about \d+ tokens, more than fits model "mock-model"'s 40000-token window; sending only its last \d+ characters/,
    );
    const sent = (server.requests[before].body.messages.at(-1) as { content: string }).content;
    expect(sent).toContain('FATAL: the real error');
    expect(sent).toMatch(/\[the first \d+ characters of the piped text were cut to fit the model's window\]/);
    expect(sent.length / 4).toBeLessThan(40_000 * 0.75);
    expect(r.stderr).not.toMatch(/compact/i); // the request fits without compaction
    expect(sent.endsWith('</stdin>\n\nwhy?')).toBe(true);
  });

  it('a prompt larger than the window by itself is refused before any request', async () => {
    const dirs = makeCliDirs();
    const before = server.requests.length;
    const env = cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), JARVIS_MODEL_MAX_CONTEXT_SIZE: '40000' });
    const r = await runJarvis(['-p', '-'], { env, cwd: dirs.cwd, input: 'word '.repeat(60_000) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the prompt is about \d+ tokens, but model "mock-model" has a 40000-token window/);
    expect(r.stderr).toContain('of which a request may fill about 30000 tokens');
    expect(r.stderr).toMatch(/the system prompt and tools take about \d+ tokens of it, which leaves about \d+ tokens/);
    expect(r.stderr).toContain('Shorten it');
    expect(server.requests.length).toBe(before);
  });

  it('a window too small for the system prompt and tools says so with the figures, whatever the prompt', async () => {
    const dirs = makeCliDirs();
    const before = server.requests.length;
    const env = cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), JARVIS_MODEL_MAX_CONTEXT_SIZE: '1000' });
    const r = await runJarvis(['-p', 'hi'], { env, cwd: dirs.cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /the system prompt and tool definitions alone are about \d+ tokens, and model "mock-model"/,
    );
    expect(r.stderr).toContain('has a 1000-token window, of which a request may fill about 750 tokens');
    expect(r.stderr).toContain('so no prompt fits. Use a model with a larger window, or fewer tools');
    expect(r.stderr).not.toContain('tokens are left');
    expect(server.requests.length).toBe(before);
  });
});
