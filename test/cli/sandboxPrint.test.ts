// The command sandbox end to end through `jarvis -p` (docs/sandbox.md): a secret the Read tool refuses is not
// readable through Bash either, and the result names the boundary; a fixture project builds, tests and commits
// sandboxed; a command asking to leave the sandbox is refused in print (auto) mode; a write outside the workspace
// fails with the boundary explained; `[sandbox] required = true` with a missing bwrap refuses commands.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { sandboxAvailable } from '../helpers/sandboxAvailable';

const available = sandboxAvailable();
let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

/** Runs one print-mode turn whose model makes `calls`, and returns each call's result text by id. */
async function turn(dirs: CliDirs, calls: Array<{ id: string; name: string; arguments: Record<string, unknown> }>) {
  const before = server.requests.length;
  server.push({ toolCalls: calls }, { text: 'Done.' });
  const r = await runJarvis(['-p', 'go'], {
    env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
    cwd: dirs.cwd,
    timeoutMs: 90_000,
  });
  expect(r.code, r.stderr).toBe(0);
  const results = new Map<string, string>();
  for (const m of server.requests[before + 1].body.messages)
    if (m.role === 'tool') results.set(m.tool_call_id, String(m.content));
  return { results, stderr: r.stderr };
}

describe.skipIf(!available)('jarvis -p with the command sandbox', () => {
  it('refuses .env to Read and hides it from Bash, naming the boundary', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.cwd, '.env'), 'API_KEY=sk-secret-123\n');
    const { results } = await turn(dirs, [
      { id: 'r', name: 'Read', arguments: { path: '.env' } },
      { id: 'b', name: 'Bash', arguments: { command: 'cat .env' } },
    ]);
    expect(results.get('r')).toMatch(/secret/i);
    const bash = results.get('b') ?? '';
    expect(bash).not.toContain('sk-secret-123');
    expect(bash).toContain('Hidden by the Jarvis command sandbox');
  });

  it('runs npm test and git commit of a fixture project sandboxed', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, '.gitconfig'), '[user]\n\tname = Fixture\n\temail = fixture@example.invalid\n');
    writeFileSync(
      join(dirs.cwd, 'package.json'),
      JSON.stringify({ name: 'fixture', version: '1.0.0', scripts: { test: 'node test.js' } }),
    );
    writeFileSync(join(dirs.cwd, 'sum.js'), 'module.exports = (a, b) => a + b;\n');
    writeFileSync(
      join(dirs.cwd, 'test.js'),
      "const sum = require('./sum');\nif (sum(2, 3) !== 5) process.exit(1);\n" +
        "require('fs').writeFileSync('result.txt', 'ok');\nconsole.log('1 test passed');\n",
    );
    expect(spawnSync('git', ['init', '-q'], { cwd: dirs.cwd }).status).toBe(0);
    const { results } = await turn(dirs, [{ id: 't', name: 'Bash', arguments: { command: 'npm test' } }]);
    expect(results.get('t')).toContain('Exit code: 0');
    expect(results.get('t')).toContain('1 test passed');
    expect(existsSync(join(dirs.cwd, 'result.txt'))).toBe(true);
    const commit = await turn(dirs, [
      { id: 'c', name: 'Bash', arguments: { command: 'git add -A && git commit -qm "first" && git log --format=%an' } },
    ]);
    expect(commit.results.get('c')).toContain('Exit code: 0');
    expect(commit.results.get('c')).toContain('Fixture');
    const log = spawnSync('git', ['log', '--format=%s'], { cwd: dirs.cwd, encoding: 'utf8' });
    expect(log.stdout.trim()).toBe('first');
  });

  it('explains a write outside the workspace and refuses leaving the sandbox in print mode', async () => {
    const dirs = makeCliDirs();
    const outside = join(dirs.cwd, '..', 'outside');
    mkdirSync(outside);
    const { results } = await turn(dirs, [
      { id: 'w', name: 'Bash', arguments: { command: `echo x > ${outside}/f.txt` } },
      { id: 'h', name: 'Bash', arguments: { command: 'echo x > ~/planted.txt' } },
      { id: 'e', name: 'Bash', arguments: { command: 'echo x > /etc/jarvis-planted' } },
      { id: 'u', name: 'Bash', arguments: { command: `echo x > ${outside}/g.txt`, dangerously_unsandboxed: true } },
    ]);
    expect(results.get('w')).toContain('/tmp inside the sandbox is private');
    expect(existsSync(join(outside, 'f.txt'))).toBe(false);
    expect(results.get('h')).toContain('sandbox filesystem boundary (read-only file system)');
    expect(existsSync(join(dirs.home, 'planted.txt'))).toBe(false);
    expect(results.get('e')).toContain('sandbox filesystem boundary (read-only file system)');
    expect(results.get('u')).toContain('outside the command sandbox');
    expect(existsSync(join(outside, 'g.txt'))).toBe(false);
  });
});

describe('jarvis -p where the sandbox cannot run', () => {
  it('with required = true refuses commands and says why once at start-up', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), '[sandbox]\nrequired = true\nbwrap_path = "/nonexistent/bwrap"\n');
    const { results, stderr } = await turn(dirs, [
      { id: 'b', name: 'Bash', arguments: { command: 'echo ran > ran.txt' } },
    ]);
    expect(stderr.match(/the command sandbox cannot run/g)).toHaveLength(1);
    expect(results.get('b')).toContain('[sandbox] required = true');
    expect(existsSync(join(dirs.cwd, 'ran.txt'))).toBe(false);
  });

  it('without required runs commands as before, after the notice', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), '[sandbox]\nbwrap_path = "/nonexistent/bwrap"\n');
    const { results, stderr } = await turn(dirs, [
      { id: 'b', name: 'Bash', arguments: { command: 'echo ran > ran.txt' } },
    ]);
    expect(stderr).toContain('Commands run unconfined');
    expect(results.get('b')).toContain('Exit code: 0');
    expect(existsSync(join(dirs.cwd, 'ran.txt'))).toBe(true);
  });

  it('rejects an allowed_domains entry that is not a host name, naming the entry', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'config.toml'),
      '[sandbox]\nnetwork = "allowlist"\nallowed_domains = ["registry.npmjs.org", "registry.npmjs.org/x"]\n',
    );
    const r = await runJarvis(['-p', 'go'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
      timeoutMs: 60_000,
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('sandbox.allowed_domains[1]');
    expect(r.stderr).toContain('got "registry.npmjs.org/x"');
  });
});
