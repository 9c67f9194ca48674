// `jarvis trust [--revoke] [path]` and print mode's `--trust` (docs/ui.md "Workspace trust"), through the built CLI:
// a script trusts a folder deliberately, recorded exactly as the interactive UI's yes (with the project MCP files'
// digests), told what trust enables there; the next print run starts the project MCP server (server-everything, which
// writes a marker when it starts) and checks edits with the real typescript-language-server; --revoke turns both off;
// a path that is not a folder is a usage error, and so is --trust outside print mode.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileDigest, TRUST_ENABLES, trustFilePath, workspaceTrust } from '../../src/store/trust';
import { BIN, cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { EVERYTHING_BIN } from '../helpers/mcpServers';
import { startMockModelServer, type MockModelServer, toolResultIn } from '../helpers/mockModelServer';

const PATH = `${resolve(__dirname, '../../node_modules/.bin')}:/usr/local/bin:/usr/bin:/bin`;

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

/** The TypeScript fixture with a project MCP server that writes `marker` when it starts. */
function project(): { dirs: CliDirs; marker: string; mcpFile: string } {
  const dirs = makeCliDirs();
  cpSync(resolve(__dirname, '../fixtures/lsp/ts-project'), dirs.cwd, { recursive: true });
  const marker = join(dirname(dirs.cwd), 'mcp-started');
  mkdirSync(join(dirs.cwd, '.jarvis-code'));
  const mcpFile = join(dirs.cwd, '.jarvis-code', 'mcp.json');
  const args = [
    '-e',
    `require('fs').writeFileSync(${JSON.stringify(marker)}, ''); process.argv.push('stdio'); ` +
      `import(${JSON.stringify(EVERYTHING_BIN)})`,
  ];
  writeFileSync(
    mcpFile,
    JSON.stringify({ mcpServers: { docs: { command: process.execPath, args, startup: 'eager' } } }),
  );
  return { dirs, marker, mcpFile };
}

function jarvis(dirs: CliDirs, args: string[], cwd = dirs.cwd) {
  return runJarvis(args, {
    env: cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), PATH }),
    cwd,
    timeoutMs: 240_000,
  });
}

const EDIT = { path: 'src/cart.ts', old_string: 'formatPrice(total)', new_string: 'formatPrice("x")' };
const readThenEdit = () => [
  { toolCalls: [{ id: 'read', name: 'Read', arguments: { path: 'src/cart.ts' } }] },
  { toolCalls: [{ id: 'edit', name: 'Edit', arguments: EDIT }] },
  { text: 'Done.' },
];

describe('jarvis trust', () => {
  it('records trust as the UI does, says what it enables; the next print run uses MCP and language servers', async () => {
    const { dirs, marker, mcpFile } = project();
    const t = await jarvis(dirs, ['trust'], dirs.cwd);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toContain(`Trusted ${dirs.cwd}.`);
    for (const line of TRUST_ENABLES) expect(t.stdout).toContain(`  • ${line}`);
    expect(t.stdout).toContain(`Its project MCP servers: docs (stdio: ${process.execPath} -e`);
    expect(t.stdout).toContain('Language servers for its project files: typescript (tsconfig.json).');
    expect(t.stdout).toContain(`Undo with: jarvis trust --revoke ${dirs.cwd}`);
    // Exactly what the UI's yes records: trusted, with the project MCP file's digest and its launch files as they are now.
    expect(workspaceTrust(dirs.home, dirs.cwd)).toEqual({
      trusted: true,
      decidedAt: expect.any(String),
      mcpFiles: { [mcpFile]: fileDigest(mcpFile) },
      mcpLaunch: {}, // its server starts no file of the workspace
    });

    server.push(...readThenEdit());
    const before = server.requests.length;
    const r = await jarvis(dirs, ['-p', 'break the cart']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(toolResultIn(server.requests.slice(before), 'edit')).toContain('This change introduced 1 new error');
  }, 300_000);

  it('--revoke records the folder as not trusted: neither starts, and the edit says why', async () => {
    const { dirs, marker } = project();
    expect((await jarvis(dirs, ['trust', dirs.cwd], dirname(dirs.cwd))).code).toBe(0);
    const revoked = await jarvis(dirs, ['trust', '--revoke'], dirs.cwd);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`${dirs.cwd} is not trusted now`);
    expect(workspaceTrust(dirs.home, dirs.cwd)?.trusted).toBe(false);

    server.push(...readThenEdit());
    const before = server.requests.length;
    const r = await jarvis(dirs, ['-p', 'break the cart']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(r.stderr).toContain('project MCP servers not started because this workspace is not trusted: docs');
    expect(toolResultIn(server.requests.slice(before), 'edit')).toContain(
      `(Not checked by a language server: Language servers stay off for ${dirs.cwd}: that checkout is not trusted`,
    );
  }, 300_000);

  it('a path that is not a folder is a usage error, and nothing is recorded', async () => {
    const dirs = makeCliDirs();
    const missing = await jarvis(dirs, ['trust', 'no-such-folder']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${join(dirs.cwd, 'no-such-folder')} does not exist; give the folder to trust`);
    writeFileSync(join(dirs.cwd, 'notes.txt'), 'x\n');
    const file = await jarvis(dirs, ['trust', '--revoke', 'notes.txt']);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain(`${join(dirs.cwd, 'notes.txt')} is not a folder; trust is given to a folder.`);
    expect(existsSync(trustFilePath(dirs.home))).toBe(false);
  }, 120_000);
});

describe('jarvis -p --trust', () => {
  it('trusts the folder before anything starts, says so on stderr, and the same run uses what it enables', async () => {
    const { dirs, marker, mcpFile } = project();
    server.push(...readThenEdit());
    const before = server.requests.length;
    const r = await jarvis(dirs, ['-p', 'break the cart', '--trust']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`info: trusted ${dirs.cwd} (--trust), as the interactive UI's yes records it.`);
    expect(r.stderr).toContain(`info:   • ${TRUST_ENABLES[1]}`);
    expect(workspaceTrust(dirs.home, dirs.cwd)).toEqual({
      trusted: true,
      decidedAt: expect.any(String),
      mcpFiles: { [mcpFile]: fileDigest(mcpFile) },
      mcpLaunch: {}, // its server starts no file of the workspace
    });
    expect(existsSync(marker)).toBe(true);
    expect(toolResultIn(server.requests.slice(before), 'edit')).toContain('This change introduced 1 new error');
  }, 300_000);

  it('outside print mode (a terminal, no -p) it is a usage error', () => {
    const dirs = makeCliDirs();
    // `script` gives jarvis a terminal, so without -p it would open the interactive UI.
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const r = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --trust`, '/dev/null'], {
      cwd: dirs.cwd,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stdout).toContain('--trust applies to print mode (-p)');
    expect(r.status).toBe(2);
    expect(existsSync(trustFilePath(dirs.home))).toBe(false);
  }, 120_000);
});
