// docs/lsp.md "Diagnostics after Bash": the check around a command, with the real typescript-language-server, when
// git is missing from the folder, fails, or no server runs.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LspManager } from '../../../src/platform/lsp/lspManager';
import { DEFAULT_LSP_SETTINGS } from '../../../src/platform/lsp/lspServers';
import { snapshotBeforeBash, withBashErrors } from '../../../src/tools/lsp/bashDiagnostics';

const BIN = resolve(__dirname, '../../../node_modules/.bin');
const managers: LspManager[] = [];
const savedPath = process.env.PATH;
afterEach(async () => {
  process.env.PATH = savedPath;
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

function project(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-bash-lsp-')));
  cpSync(resolve(__dirname, '../../fixtures/lsp/ts-project'), dir, { recursive: true });
  return dir;
}

function manager(cwd: string): LspManager {
  const m = new LspManager(
    { ...DEFAULT_LSP_SETTINGS, diagnosticsWaitMs: 60_000 },
    { cwd, env: { ...process.env, PATH: `${BIN}:/usr/bin:/bin` }, onNotice: () => undefined, trusted: () => true },
  );
  managers.push(m);
  return m;
}

/** A running server with src/cart.ts open, as after a Read or an Edit. */
async function running(cwd: string): Promise<LspManager> {
  const m = manager(cwd);
  const path = join(cwd, 'src/cart.ts');
  const text = readFileSync(path, 'utf8');
  await m.errorsAfterEdit(path, text, text.replace('total)', 'total + 0)'), Date.now() + 60_000);
  writeFileSync(path, text.replace('total)', 'total + 0)'));
  return m;
}

const ctx = (cwd: string) => ({ cwd, signal: new AbortController().signal });
const ran = { content: 'Exit code: 0\n(no output)' };

describe('the check after Bash', () => {
  it('does nothing at all while no server runs', async () => {
    const cwd = project();
    const m = manager(cwd);
    expect(await snapshotBeforeBash(m, cwd)).toBeUndefined();
    expect(await withBashErrors(ran, undefined, m, ctx(cwd))).toBe(ran);
  });

  it('outside a git repository compares the open files only', async () => {
    const cwd = project();
    const m = await running(cwd);
    const snap = await snapshotBeforeBash(m, cwd);
    expect(snap?.git).toBe(false);
    writeFileSync(join(cwd, 'src/cart.ts'), `${readFileSync(join(cwd, 'src/cart.ts'), 'utf8')}const n: number = "";\n`);
    // Not open and no git to list it: not looked at.
    writeFileSync(join(cwd, 'src/invoice.ts'), 'export const s: string = 1;\n');
    const after = await withBashErrors(ran, snap, m, ctx(cwd));
    expect(after.content).toMatch(/introduced 1 new error \(language server\):\n- src\/cart\.ts:7:7: Type 'string'/);
    expect(after.diagnostics?.errors).toBe(1);
    expect(after.content).not.toContain('invoice.ts');
  }, 120_000);

  it('says when git fails, and still checks the open files', async () => {
    const cwd = project();
    const m = await running(cwd);
    const fake = mkdtempSync(join(tmpdir(), 'jarvis-fake-git-'));
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, 'git'), '#!/bin/sh\necho "fatal: index file corrupt" >&2\nexit 3\n');
    chmodSync(join(fake, 'git'), 0o755);
    process.env.PATH = `${fake}:${savedPath}`;
    const snap = await snapshotBeforeBash(m, cwd);
    writeFileSync(join(cwd, 'src/cart.ts'), `${readFileSync(join(cwd, 'src/cart.ts'), 'utf8')}const n: number = "";\n`);
    const after = await withBashErrors(ran, snap, m, ctx(cwd));
    expect(after.content).toContain('- src/cart.ts:7:7:');
    expect(after.content).toContain(
      '(The language-server check of changed files was partial: git ls-files failed: fatal: index file corrupt)',
    );
  }, 120_000);

  it('a command that changes nothing leaves the result as it was', async () => {
    const cwd = project();
    const m = await running(cwd);
    const snap = await snapshotBeforeBash(m, cwd);
    expect(await withBashErrors(ran, snap, m, ctx(cwd))).toBe(ran);
  }, 120_000);
});
