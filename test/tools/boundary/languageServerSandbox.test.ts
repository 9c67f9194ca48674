// Where a language server runs when the command sandbox runs (docs/lsp.md "Where servers run"): the launch
// languageServerSandbox builds from the session's trust boundary, run for real with a shell as the "server": the workspace and the server's root are
// readable and not writable, secret files read as the sandbox's note, nothing outside is writable either (the private
// /tmp aside), the network (even the machine's loopback) is unreachable, and secrets are not in the environment.
import { createServer, type Server } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnInGroup } from '../../../src/platform/processes';
import { channelStdio, feedChannels } from '../../../src/platform/sandbox/sandboxChannels';
import { CommandBoundary } from '../../../src/tools/boundary/commandBoundary';
import { commandWritableRoots, languageServerSandbox } from '../../../src/tools/boundary/languageServerSandbox';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/tools/boundary/sandboxSettings';
import type { ServerSpawn } from '../../../src/platform/lsp/lspPlacement';
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
  it('reads the workspace, writes nowhere, reaches no network and sees no secret', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-lsp-sandbox-')));
    const cwd = join(root, 'work');
    const home = join(root, 'home');
    mkdirSync(join(cwd, 'src'), { recursive: true });
    mkdirSync(home);
    writeFileSync(join(cwd, 'src/a.ts'), 'export const a = 1;\n');
    writeFileSync(join(cwd, '.env'), 'TOKEN=secret-value\n');
    const folders = { workspace: [cwd], scratch: join(home, 'session', 'scratch'), jarvisHome: home, home };
    mkdirSync(folders.scratch, { recursive: true });
    const spawn = languageServerSandbox(new CommandBoundary(DEFAULT_SANDBOX_SETTINGS, folders))!;
    expect(spawn).toBeDefined();
    const script = [
      `cat ${cwd}/src/a.ts`,
      `cat ${cwd}/.env`,
      `touch ${cwd}/planted 2>/dev/null && echo wrote-workspace`,
      `touch ${root}/escaped 2>/dev/null; echo "outside: $?"`,
      `node -e "require('net').connect(${port}, '127.0.0.1').on('data', d => console.log('net: ' + d)).on('error', e => console.log('net: ' + e.code))"`,
      'echo "key: ${OPENAI_API_KEY:-none}"',
    ].join('; ');
    const launch = await spawn.spawn('/bin/sh', ['-c', script], cwd, [], { ...process.env, OPENAI_API_KEY: 'sk-test' });
    const run = await runLaunch(launch, cwd);
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
    const folders = { workspace: [join(home, 'work')], scratch: join(home, 's', 'scratch'), jarvisHome: home, home };
    const off = new CommandBoundary(
      { ...DEFAULT_SANDBOX_SETTINGS, enabled: false, writablePaths: ['/opt/x'] },
      folders,
    );
    expect(languageServerSandbox(off)).toBeUndefined();
    expect(languageServerSandbox(undefined)).toBeUndefined();
    expect(commandWritableRoots(off, folders)).toEqual(
      expect.arrayContaining([...folders.workspace, folders.scratch, '/opt/x']),
    );
    expect(commandWritableRoots(undefined, folders)).toEqual(
      expect.arrayContaining([...folders.workspace, folders.scratch]),
    );
  });
});

/** Starts `launch` as LspClient does (its sandbox channels handed in) and waits for it to end. */
async function runLaunch(
  launch: ServerSpawn,
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawnInGroup(launch.file, launch.args, { cwd, env: launch.env }, channelStdio(launch));
  feedChannels(child, launch);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  return { status, stdout, stderr };
}
