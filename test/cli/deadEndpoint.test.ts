// A dead endpoint fails fast, end to end through `jarvis -p`: a closed port fails at the first
// attempt; a server that accepts and never answers times out after the configured idle time and
// gives up when the retry budget is spent.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';

let silent: Server;
let silentRequests = 0;
const held: Array<{ destroy(): void }> = [];
beforeAll(async () => {
  silent = createServer((req) => {
    silentRequests++;
    held.push(req.socket);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('dead endpoints in print mode', () => {
  it('connection refused fails at the first attempt with a message naming the address', async () => {
    const dirs = makeCliDirs();
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const r = await runJarvis(['-p', 'hello'], { env: cliEnv(dirs, mockModelEnv(url)), cwd: dirs.cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Could not connect to the openai provider of the JARVIS_MODEL_* variables at ${url}`);
    expect(r.stderr).toContain('ECONNREFUSED');
    expect(r.stderr).not.toContain('retrying');
  });

  it('a base URL with an impossible port fails at once and says the URL is wrong', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['-p', 'hello'], {
      env: cliEnv(dirs, mockModelEnv('http://127.0.0.1:99999/v1')),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/base URL|base_url/);
    expect(r.stderr).not.toContain('retrying');
    expect(r.stderr).not.toContain('malformed stream');
  });

  it('a server that never answers times out after idle_timeout_s and stops at retry_budget_s', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), '[loop_control]\nidle_timeout_s = 1\nretry_budget_s = 2\n');
    const { port } = silent.address() as AddressInfo;
    const before = silentRequests;
    const r = await runJarvis(['-p', 'hello'], {
      env: cliEnv(dirs, mockModelEnv(`http://127.0.0.1:${port}/v1`)),
      cwd: dirs.cwd,
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/timed out/);
    expect(r.stderr).toMatch(/retrying in [\d.]+ s/); // the wait says what it waits for
    expect(r.stderr).toContain('2 s retry budget ([loop_control] retry_budget_s)');
    const attempts = silentRequests - before;
    expect(attempts).toBeGreaterThanOrEqual(1);
    expect(attempts).toBeLessThanOrEqual(3);
  });

  it('a server that never answers, with a time-out past the budget, costs one time-out and says so', async () => {
    // The shape of the defaults (120 s silence, 30 s budget) at a test's scale: another attempt could
    // only end past the budget, so there is none, and the message gives the real time and both settings.
    const dirs = makeCliDirs();
    const config = '[loop_control]\nidle_timeout_s = 2\nretry_budget_s = 1\n[memory]\nextraction_enabled = false\n';
    writeFileSync(join(dirs.home, 'config.toml'), config);
    const { port } = silent.address() as AddressInfo;
    const before = silentRequests;
    const env = cliEnv(dirs, mockModelEnv(`http://127.0.0.1:${port}/v1`));
    const r = await runJarvis(['-p', 'hello'], { env, cwd: dirs.cwd, timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('waiting for a response (nothing came for 2 s, [loop_control] idle_timeout_s)');
    expect(r.stderr).toMatch(/Gave up after 1 attempt in \d+ s: another attempt could wait 2 s more for an answer/);
    expect(r.stderr).toContain('past the 1 s retry budget ([loop_control] retry_budget_s)');
    expect(r.stderr).not.toContain('retrying');
    expect(silentRequests - before).toBe(1);
  });
});
