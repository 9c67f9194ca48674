// docs/lsp.md, "jarvis doctor": the built CLI lists the language servers the project's files would start, finds the
// real typescript-language-server in the repository's node_modules, starts it with --online (in a trusted checkout
// only, inside the sandbox), and treats a missing server as a note unless config.toml names it.
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';

const BIN = resolve(__dirname, '../../node_modules/.bin');
const FIXTURES = resolve(__dirname, '../fixtures/lsp');
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

function doctor(dirs: CliDirs, args: string[], path: string) {
  return runJarvis(['doctor', ...args], {
    env: cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), PATH: path }),
    cwd: dirs.cwd,
    timeoutMs: 120_000,
  });
}

function section(stdout: string): string {
  const start = stdout.indexOf('language servers:');
  expect(start, stdout).toBeGreaterThanOrEqual(0);
  const rest = stdout.slice(start);
  const end = rest.slice(1).search(/\n\S/);
  return end < 0 ? rest : rest.slice(0, end + 1);
}

describe('jarvis doctor: language servers', () => {
  it('a TypeScript project with the server on PATH: the command it runs, and with --online its name', async () => {
    const dirs = makeCliDirs();
    cpSync(join(FIXTURES, 'ts-project'), dirs.cwd, { recursive: true });
    const offline = await doctor(dirs, [], `${BIN}:${SYSTEM_PATH}`);
    expect(offline.code, offline.stdout + offline.stderr).toBe(0);
    const text = section(offline.stdout);
    expect(text).toContain('language servers: ok');
    expect(text).toContain(
      `typescript: runs ${join(BIN, 'typescript-language-server')} --stdio; inside the sandbox (read-only, no network)`,
    );
    expect(text).toContain('not started here: this checkout is not trusted');
    expect(text).not.toContain('starts and initializes');

    setWorkspaceTrust(dirs.home, dirs.cwd, true);
    server.push({ text: 'pong' });
    const online = await doctor(dirs, ['--online'], `${BIN}:${SYSTEM_PATH}`);
    expect(online.code, online.stdout + online.stderr).toBe(0);
    expect(section(online.stdout)).toContain('starts and initializes');
  }, 240_000);

  it('with --online, a found server that exits at once fails the section with its exit', async () => {
    const dirs = makeCliDirs();
    cpSync(join(FIXTURES, 'ts-project'), dirs.cwd, { recursive: true });
    writeFileSync(join(dirs.home, 'config.toml'), '[lsp.servers.typescript]\ncommand = "/bin/false"\n');
    setWorkspaceTrust(dirs.home, dirs.cwd, true);
    server.push({ text: 'pong' });
    const r = await doctor(dirs, ['--online'], SYSTEM_PATH);
    expect(r.code).toBe(1);
    const text = section(r.stdout);
    expect(text).toContain('language servers: needs attention');
    // The exit and the failed initialize request race; either way the line names the program.
    expect(text).toMatch(/does not start: .*\/bin\/false/);
  }, 120_000);

  it('the server missing: a note with how to install it, exit 0; configured explicitly: exit 1', async () => {
    const dirs = makeCliDirs();
    cpSync(join(FIXTURES, 'ts-project'), dirs.cwd, { recursive: true });
    const note = await doctor(dirs, [], SYSTEM_PATH);
    expect(note.code, note.stdout + note.stderr).toBe(0);
    const text = section(note.stdout);
    expect(text).toContain('language servers: ok');
    expect(text).toContain(
      'typescript: would run "typescript-language-server --stdio": no typescript language server is installed: ' +
        '"typescript-language-server" is not in the project\'s node_modules/.bin or on PATH',
    );
    expect(text).toContain('Install it with: npm i -g typescript-language-server@5 typescript@5');

    writeFileSync(join(dirs.home, 'config.toml'), '[lsp.servers.typescript]\nargs = ["--stdio"]\n');
    const strict = await doctor(dirs, [], SYSTEM_PATH);
    expect(strict.code).toBe(1);
    expect(section(strict.stdout)).toContain('language servers: needs attention');
    expect(section(strict.stdout)).toContain('[lsp.servers.typescript] is configured in config.toml');
  }, 120_000);

  it('a folder with no file any server serves says so', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.cwd, 'notes.txt'), 'plain text\n');
    const r = await doctor(dirs, [], `${BIN}:${SYSTEM_PATH}`);
    expect(r.code).toBe(0);
    expect(section(r.stdout)).toContain('none: no file here matches a configured server');
  }, 120_000);
});
