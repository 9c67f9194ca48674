// docs/configuration.md, "jarvis doctor --online": a model endpoint that answers, one that refuses the key and an MCP
// server that does not start, each with its exit code and the line that names it; offline, doctor says what it skipped.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import { EVERYTHING_BIN } from '../helpers/mcpServers';
import { modelProbeLimit } from '../../src/cli/doctorOnline';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

describe('jarvis doctor --online', () => {
  it('offline, doctor says the endpoint and servers were not contacted', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['doctor'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('did not contact the model endpoint, start MCP servers');
    expect(r.stdout).toContain('jarvis doctor --online');
  });

  it('a model that answers and an MCP server that starts: exit 0, its tools listed', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'mcp.json'),
      JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] } } }),
    );
    const before = server.requests.length;
    server.push({ text: 'pong' });
    const r = await runJarvis(['doctor', '--online'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ model "mock-model" at http:\/\/127\.0\.0\.1:\d+.*: answered a one-token request/);
    expect(r.stdout).toMatch(/✓ MCP server "everything" \(user, .*\): started, \d+ tools \(.*echo/);
    expect(r.stdout).toMatch(/✓ ripgrep from \w+ \(.*\): ripgrep \d+/);
    expect(r.stdout).toContain('All checks passed.');
    expect(server.requests.length - before).toBe(1);
    expect(server.requests.at(-1)!.headers.authorization).toMatch(/^Bearer /);
  });

  it('a model that refuses the key: exit 1, the auth failure and where the key came from', async () => {
    const dirs = makeCliDirs();
    server.push({
      error: { status: 401, body: { error: { message: 'invalid api key', type: 'authentication_error' } } },
    });
    const r = await runJarvis(['doctor', '--online'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ model "mock-model" at .*Authentication failed.*JARVIS_MODEL_API_KEY/);
    expect(r.stdout).toContain('Online checks: needs attention');
    expect(r.stdout).toContain('1 failed (marked ✗ above)');
    expect(r.stdout).toContain('Some checks need attention.');
  });

  it('an MCP server that does not start: exit 1, named with its error', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          broken: { command: process.execPath, args: ['-e', 'console.error("no config"); process.exit(3)'] },
        },
      }),
    );
    server.push({ text: 'pong' });
    const r = await runJarvis(['doctor', '--online'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✓ model "mock-model"/);
    expect(r.stdout).toMatch(/✗ MCP server "broken" \(user, .*\): did not start: .*no config/);
    expect(r.stdout).toContain('1 failed (marked ✗ above)');
  });

  it('a model that accepts and never answers: exit 1, the time-out that fired named with its value', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), '[loop_control]\nidle_timeout_s = 2\n');
    server.push({ hang: true });
    const began = Date.now();
    const r = await runJarvis(['doctor', '--online'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    console.log(`doctor --online against a silent model: ${Date.now() - began} ms (probe limit 2 s)`);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /✗ model "mock-model" at .*: no answer within 2 s \(\[loop_control\] idle_timeout_s = 2 s\); the request was stopped/,
    );
    expect(r.stdout).not.toContain('cancelled');
  });

  it('the probe waits the session idle time-out, at most 30 s, and says which limit it used', () => {
    expect(modelProbeLimit(120_000)).toEqual({
      ms: 30_000,
      named: "jarvis doctor's probe limit of 30 s; a session waits [loop_control] idle_timeout_s = 120 s",
    });
    expect(modelProbeLimit(0).named).toContain('idle_timeout_s = with no limit (0)');
    expect(modelProbeLimit(5_000)).toEqual({ ms: 5_000, named: '[loop_control] idle_timeout_s = 5 s' });
  });

  it('--online with a target is a usage error', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['doctor', 'config', '--online'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('jarvis doctor --online without a target');
  });
});
