// Where a language server runs when the command sandbox runs (docs/lsp.md "Where servers run"): the launch
// languageServerSandbox builds, run for real with a shell as the "server": the workspace and the server's root are
// readable and not writable, secret files read as the sandbox's note, nothing outside is writable either (the private
// /tmp aside), the network (even the machine's loopback) is unreachable, and secrets are not in the environment.
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandSandbox, DEFAULT_SANDBOX_SETTINGS } from '../../../src/tools/shell/commandSandbox';
import { languageServerSandbox } from '../../../src/tools/shell/languageServerSandbox';
import { sandboxAvailable } from '../../helpers/sandboxAvailable';

const SANDBOX = sandboxAvailable();
let listener: Server;
let port = 0;
beforeAll(async () => {
  listener = createServer((s) => s.end('hello'));
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  port = (listener.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => listener.close(() => r())));

describe.skipIf(!SANDBOX)('a language server in the sandbox', () => {
  it('reads the workspace, writes nowhere, reaches no network and sees no secret', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-lsp-sandbox-')));
    const cwd = join(root, 'work');
    const home = join(root, 'home');
    mkdirSync(join(cwd, 'src'), { recursive: true });
    mkdirSync(home);
    writeFileSync(join(cwd, 'src/a.ts'), 'export const a = 1;\n');
    writeFileSync(join(cwd, '.env'), 'TOKEN=secret-value\n');
    const sandbox = new CommandSandbox(DEFAULT_SANDBOX_SETTINGS, { additionalDirs: [], jarvisHome: home });
    const spawn = languageServerSandbox(sandbox, { cwd, additionalDirs: [], sessionDir: join(home, 'session') })!;
    expect(spawn).toBeDefined();
    const script = [
      `cat ${cwd}/src/a.ts`,
      `cat ${cwd}/.env`,
      `touch ${cwd}/planted 2>/dev/null && echo wrote-workspace`,
      `touch ${root}/escaped 2>/dev/null; echo "outside: $?"`,
      `node -e "require('net').connect(${port}, '127.0.0.1').on('data', d => console.log('net: ' + d)).on('error', e => console.log('net: ' + e.code))"`,
      'echo "key: ${OPENAI_API_KEY:-none}"',
    ].join('; ');
    const launch = spawn.spawn('/bin/sh', ['-c', script], cwd, [], { ...process.env, OPENAI_API_KEY: 'sk-test' });
    const run = spawnSync(launch.file, [...launch.args], { cwd, env: launch.env, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('export const a = 1;');
    expect(run.stdout).not.toContain('secret-value');
    expect(run.stdout).toContain('Hidden by the Jarvis command sandbox');
    expect(run.stdout).not.toContain('wrote-workspace');
    expect(existsSync(join(cwd, 'planted'))).toBe(false);
    expect(existsSync(join(root, 'escaped'))).toBe(false);
    expect(run.stdout).toMatch(/net: E[A-Z]+/);
    expect(run.stdout).not.toContain('net: hello');
    expect(run.stdout).toContain('key: none');
  }, 120_000);

  it('none where the sandbox is off: the server then runs as it is, from places commands cannot write', () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-lsp-nosandbox-')));
    const off = new CommandSandbox(
      { ...DEFAULT_SANDBOX_SETTINGS, enabled: false },
      { additionalDirs: [], jarvisHome: home },
    );
    expect(languageServerSandbox(off, { cwd: home, additionalDirs: [], sessionDir: home })).toBeUndefined();
    expect(languageServerSandbox(undefined, { cwd: home, additionalDirs: [], sessionDir: home })).toBeUndefined();
  });
});
