// docs/print-mode.md: stream-json ends with a `result` event and json prints that one object; both are checked
// against docs/schemas/stream-json-result.schema.json, on a run that succeeds and on runs that fail.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';

const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../docs/schemas/stream-json-result.schema.json'), 'utf8'),
) as Record<string, unknown>;
const validate = new Ajv({ allErrors: true }).compile(schema);

function lastResult(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n');
  const last = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
  expect(validate(last), JSON.stringify(validate.errors)).toBe(true);
  return last;
}

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

describe('print mode result object', () => {
  it('stream-json: a successful run ends with a result event carrying session, turns and usage', async () => {
    const dirs = makeCliDirs();
    server.push({ text: 'all done', usage: { input: 120, output: 7 } });
    const r = await runJarvis(['-p', 'say done', '--output-format', 'stream-json'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    const init = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(init).toMatchObject({ type: 'init', version: 1, model: 'mock-model' });
    const result = lastResult(r.stdout);
    expect(result).toMatchObject({
      type: 'result',
      outcome: 'success',
      exit_code: 0,
      error: null,
      session_id: init.session_id,
      turns: 1,
      text: 'all done',
      usage: { input_tokens: 120, output_tokens: 7 },
    });
    expect(typeof result.session_id).toBe('string');
  });

  it('stream-json: a 401 puts an error event and a failed result on stdout, exit 1', async () => {
    const dirs = makeCliDirs();
    server.push({
      error: { status: 401, body: { error: { message: 'invalid api key', type: 'authentication_error' } } },
    });
    const r = await runJarvis(['-p', 'x', '--output-format', 'stream-json'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('JARVIS_MODEL_API_KEY');
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const error = events.find((e) => e.type === 'error');
    expect(error?.message).toMatch(/401|api key/i);
    const result = lastResult(r.stdout);
    expect(result).toMatchObject({ outcome: 'error', exit_code: 1, turns: 1 });
    expect(result.error).toMatch(/401|api key/i);
    expect(typeof result.session_id).toBe('string');
  });

  it('stream-json: a failure before any session (broken config) still ends with a result event', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), 'default_model = \n');
    const r = await runJarvis(['-p', 'x', '--output-format', 'stream-json'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(1);
    const result = lastResult(r.stdout);
    expect(result).toMatchObject({ outcome: 'error', exit_code: 1, session_id: null, turns: 0 });
    expect(result.error).toContain('config.toml');
    expect(r.stdout).toContain('"type":"error"');
  });

  for (const format of ['stream-json', 'json'] as const) {
    it(`${format}: an unexpected error (the sessions folder is a file) still ends with an error result`, async () => {
      const dirs = makeCliDirs();
      writeFileSync(join(dirs.home, 'sessions'), 'not a folder');
      const r = await runJarvis(['-p', 'hello', '--output-format', format], {
        env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
        cwd: dirs.cwd,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('jarvis: an unexpected error stopped the program');
      const result = lastResult(r.stdout);
      expect(result).toMatchObject({ type: 'result', outcome: 'error', exit_code: 1 });
      expect(result.error).toMatch(/unexpected error stopped the program .*ENOTDIR.*\(crash note: .*\)/);
      if (format === 'json') expect(r.stdout.trim().split('\n')).toHaveLength(1);
    });
  }

  it('json: stdout is the one result object, with the answer text', async () => {
    const dirs = makeCliDirs();
    server.push({ text: 'line one\nline two' });
    const r = await runJarvis(['-p', 'answer', '--output-format', 'json'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(lastResult(r.stdout)).toMatchObject({ outcome: 'success', text: 'line one\nline two' });
  });

  it('an unknown format is a usage error naming the three', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['-p', 'x', '--output-format', 'yaml'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('text, stream-json or json');
  });
});
