// The first hour with code intelligence (docs/lsp.md), end to end through `jarvis -p` on the built CLI, with the
// TypeScript server installed as docs/lsp.md says (test/helpers/lspInstall.ts: the docs' line into a temporary prefix,
// from the npm cache, on this Node 20): a Read immediately followed by an Edit that breaks the types gets the error in
// the Edit's result in a fresh session; with the server missing, with a TypeScript 7 beside it, with a server that
// needs Node 22, or with one still starting past [lsp] first_diagnostics_wait_ms, the result says the edit was not
// checked and why (and doctor gives the same fix); a short run that read a .ts file ends without a failure notice.
import { chmodSync, cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { TYPESCRIPT_INSTALL } from '../../src/platform/lsp/lspServers';
import { startMockModelServer, type MockModelServer, toolResultIn } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import {
  documentedInstallLine,
  installAsDocumented,
  withServerNeedingNode22,
  withTypeScript7,
  type InstalledServer,
} from '../helpers/lspInstall';

const FIXTURE = resolve(__dirname, '../fixtures/lsp/ts-project');
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';

let server: MockModelServer;
let installed: InstalledServer;
beforeAll(async () => {
  server = await startMockModelServer();
  installed = installAsDocumented();
  process.stdout.write(`typescript-language-server installed with: ${installed.how}\n`);
}, 180_000);
afterAll(async () => {
  await server.close();
});

function project(config = ''): CliDirs {
  const dirs = makeCliDirs();
  cpSync(FIXTURE, dirs.cwd, { recursive: true });
  writeFileSync(join(dirs.home, 'config.toml'), config);
  setWorkspaceTrust(dirs.home, dirs.cwd, true);
  return dirs;
}

const BREAK = { path: 'src/cart.ts', old_string: 'formatPrice(total)', new_string: 'formatPrice("x")' };

/** A fresh session whose model reads src/cart.ts and, with no pause, breaks its types with an Edit. */
async function readThenEdit(dirs: CliDirs, path: string) {
  server.push(
    { toolCalls: [{ id: 'read', name: 'Read', arguments: { path: 'src/cart.ts' } }] },
    { toolCalls: [{ id: 'edit', name: 'Edit', arguments: BREAK }] },
    { text: 'Done.' },
  );
  const before = server.requests.length;
  const r = await runJarvis(['-p', 'read then edit'], {
    env: cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), PATH: path }),
    cwd: dirs.cwd,
    timeoutMs: 240_000,
  });
  expect(r.code, r.stderr).toBe(0);
  return { edit: toolResultIn(server.requests.slice(before), 'edit'), stderr: r.stderr };
}

function doctor(dirs: CliDirs, path: string) {
  return runJarvis(['doctor'], {
    env: cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), PATH: path }),
    cwd: dirs.cwd,
    timeoutMs: 120_000,
  });
}

describe('the server installed as docs/lsp.md says, on Node 20', () => {
  it('the docs give the pinned line the missing-server notice gives', () => {
    expect(documentedInstallLine()).toBe(TYPESCRIPT_INSTALL);
    expect(TYPESCRIPT_INSTALL).toBe('npm i -g typescript-language-server@5 typescript@5');
  });

  it('Read then immediately Edit in a type error, in a fresh session: the error is in the Edit result', async () => {
    const dirs = project();
    const { edit, stderr } = await readThenEdit(dirs, `${installed.bin}:${SYSTEM_PATH}`);
    expect(edit).toMatch(
      /^Edited .*cart\.ts: replaced 1 occurrence at line 5\.\n\nThis change introduced 1 new error \(language server\):\n- src\/cart\.ts:5:22: Argument of type 'string' is not assignable to parameter of type 'number'\. \[typescript 2345\]$/,
    );
    // The session ending stops the server: that is not a failure.
    expect(stderr).not.toMatch(/language server (failed|could not)|it stopped/);
  }, 300_000);

  it('a short run that only reads a .ts file ends without a failure notice', async () => {
    const dirs = project();
    server.push({ toolCalls: [{ id: 'read', name: 'Read', arguments: { path: 'src/cart.ts' } }] }, { text: 'Read.' });
    const r = await runJarvis(['-p', 'just read'], {
      env: cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), PATH: `${installed.bin}:${SYSTEM_PATH}` }),
      cwd: dirs.cwd,
      timeoutMs: 120_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/language server|it stopped/);
  }, 180_000);
});

describe('an edit that could not be checked says so, and why', () => {
  it('no server installed: the install line', async () => {
    const { edit } = await readThenEdit(project(), SYSTEM_PATH);
    expect(edit).toContain(
      '\n\n(Not checked by a language server: no typescript language server is installed: ' +
        '"typescript-language-server" is not in the project\'s node_modules/.bin or on PATH. ' +
        'Install it with: npm i -g typescript-language-server@5 typescript@5',
    );
    expect(edit).not.toContain('introduced');
  }, 300_000);

  it('a TypeScript 7 beside the server (no tsserver): the notice, the result and doctor give the fix', async () => {
    const broken = withTypeScript7(installed);
    const dirs = project();
    const { edit, stderr } = await readThenEdit(dirs, `${broken.bin}:${SYSTEM_PATH}`);
    const problem =
      /the typescript language server cannot run here: the TypeScript beside .*typescript-language-server \(.*\/lib\/node_modules\/typescript, version 7\.0\.2\) has no lib\/tsserver\.js: TypeScript 7 and later are a native program that typescript-language-server cannot drive\. Fix: npm i -g typescript-language-server@5 typescript@5/;
    expect(edit).toMatch(/\n\n\(Not checked by a language server: /);
    expect(edit).toMatch(problem);
    expect(stderr.split('\n').filter((l) => /cannot run here/.test(l))).toHaveLength(1);
    const d = await doctor(dirs, `${broken.bin}:${SYSTEM_PATH}`);
    expect(d.code).toBe(1);
    expect(d.stdout).toMatch(problem);
  }, 300_000);

  it('a server that needs a newer Node: the notice, the result and doctor give the fix', async () => {
    const needs22 = withServerNeedingNode22(installed);
    const dirs = project();
    const { edit } = await readThenEdit(dirs, `${needs22.bin}:${SYSTEM_PATH}`);
    const problem = new RegExp(
      'the typescript language server cannot run here: typescript-language-server 6\\.0\\.2 \\(.*\\) needs Node ' +
        `>=22\\.22\\.2, and the node that would run it \\(\\S*/node\\) is ${process.versions.node.replace(/\./g, '\\.')}\\. ` +
        'Fix: install a version for this Node: npm i -g typescript-language-server@5 typescript@5, or put a Node ' +
        'that meets >=22\\.22\\.2 first on PATH',
    );
    expect(edit).toMatch(problem);
    const d = await doctor(dirs, `${needs22.bin}:${SYSTEM_PATH}`);
    expect(d.code).toBe(1);
    expect(d.stdout).toMatch(problem);
  }, 300_000);

  it('a server still starting past first_diagnostics_wait_ms: not checked yet, and which setting', async () => {
    // A server that reads its input and never answers `initialize`: still starting, however long one waits.
    const dirs = project(
      '[lsp]\nfirst_diagnostics_wait_ms = 1500\n[lsp.servers.typescript]\ncommand = "./slow-server"\n',
    );
    writeFileSync(join(dirs.cwd, 'slow-server'), '#!/bin/sh\nexec cat > /dev/null\n');
    chmodSync(join(dirs.cwd, 'slow-server'), 0o755);
    const { edit } = await readThenEdit(dirs, SYSTEM_PATH);
    expect(edit).toContain(
      '\n\n(Not checked by a language server yet: the typescript language server was still starting within 1.5 s ' +
        '([lsp] first_diagnostics_wait_ms); a later edit of this file is checked)',
    );
  }, 300_000);
});
