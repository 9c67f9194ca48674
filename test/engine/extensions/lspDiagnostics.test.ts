// docs/lsp.md "Diagnostics after edits" and "Diagnostics after Bash": the after-tool extension of the loop with the
// real typescript-language-server — an edit's and a created file's new errors, an edit that could not be checked, and
// the check around a command (git missing from the folder, failing, no server running).
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lspDiagnosticsExtension } from '../../../src/engine/extensions/lspDiagnostics';
import type { ToolCallFacts } from '../../../src/engine/loop/turnExtension';
import { LspManager } from '../../../src/platform/lsp/lspManager';
import { DEFAULT_LSP_SETTINGS } from '../../../src/platform/lsp/lspServers';
import type { ToolResult } from '../../../src/tools/defineTool';

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

function manager(cwd: string, path = `${BIN}:/usr/bin:/bin`): LspManager {
  const m = new LspManager(
    { ...DEFAULT_LSP_SETTINGS, diagnosticsWaitMs: 60_000 },
    { cwd, env: { ...process.env, PATH: path }, onNotice: () => undefined, trusted: () => true },
  );
  managers.push(m);
  return m;
}

/** A running server with src/cart.ts open, as after a Read or an Edit. */
async function running(cwd: string): Promise<LspManager> {
  const m = manager(cwd);
  const path = join(cwd, 'src/cart.ts');
  const text = readFileSync(path, 'utf8');
  await m.checkEdit(path, text, text.replace('total)', 'total + 0)'));
  writeFileSync(path, text.replace('total)', 'total + 0)'));
  return m;
}

const gate = (cwd: string) => ({ sessionId: 's', agentId: 'main', cwd, signal: new AbortController().signal });
const ran: ToolResult = { content: 'Exit code: 0\n(no output)' };
const bash = (cwd: string, args: object = { command: 'x' }): ToolCallFacts => ({
  callId: 'bash-1',
  toolName: 'Bash',
  subject: 'Bash(x)',
  args,
  accesses: [{ kind: 'exec', cwd }],
  readOnly: false,
});
const write = (path: string): ToolCallFacts => ({
  callId: 'edit-1',
  toolName: 'Edit',
  subject: `Edit(${path})`,
  args: { path },
  accesses: [{ kind: 'write', path }],
  readOnly: false,
});
const outcome = (result: ToolResult) => ({ text: String(result.content), isError: !!result.isError, result });

/** A Bash call through the extension: before it runs, `change` (the command), then after it. */
async function throughBash(m: LspManager, cwd: string, change: () => void, args?: object) {
  const ext = lspDiagnosticsExtension(m);
  await ext.beforeToolRun!(bash(cwd, args), gate(cwd));
  change();
  return (await ext.afterToolCall!(bash(cwd, args), outcome(ran), gate(cwd)))?.result ?? ran;
}

describe('the check after an edit', () => {
  it("appends an edit's new error, and a created file's errors", async () => {
    const cwd = project();
    const m = manager(cwd);
    const ext = lspDiagnosticsExtension(m);
    const path = join(cwd, 'src/cart.ts');
    const before = readFileSync(path, 'utf8');
    const after = before.replace('formatPrice(total)', 'formatPrice("x")');
    writeFileSync(path, after);
    const edited: ToolResult = { content: 'Edited.', display: { kind: 'diff', path, before, after } };
    const result = (await ext.afterToolCall!(write(path), outcome(edited), gate(cwd)))!.result!;
    expect(result.content).toMatch(
      /^Edited\.\n\nThis change introduced 1 new error \(language server\):\n- src\/cart\.ts:5:22:/,
    );
    expect(result.diagnostics?.errors).toBe(1);
    const created = join(cwd, 'src/fresh.ts');
    writeFileSync(created, 'export const n: number = "one";\n');
    const wrote = (await ext.afterToolCall!(write(created), outcome({ content: 'Created.' }), gate(cwd)))!.result!;
    expect(wrote.content).toMatch(/introduced 1 new error \(language server\):\n- src\/fresh\.ts:1:14: Type 'string'/);
  }, 120_000);

  it('says an edit was not checked, and why, when no server is installed', async () => {
    const cwd = project();
    const m = manager(cwd, '/usr/bin:/bin');
    const path = join(cwd, 'src/cart.ts');
    const edited: ToolResult = { content: 'Edited.', display: { kind: 'diff', path, before: 'a', after: 'b' } };
    const result = (await lspDiagnosticsExtension(m).afterToolCall!(write(path), outcome(edited), gate(cwd)))!.result!;
    expect(result.content).toMatch(
      /^Edited\.\n\n\(Not checked by a language server: no typescript language server is installed:/,
    );
    expect(result.content).toContain('npm i -g typescript-language-server@5 typescript@5');
    expect(result.diagnostics).toBeUndefined();
  });

  it('leaves a failed call, and a file no server serves, as they were', async () => {
    const cwd = project();
    const ext = lspDiagnosticsExtension(manager(cwd));
    const failed: ToolResult = { content: 'old_string not found', isError: true };
    expect(await ext.afterToolCall!(write(join(cwd, 'src/cart.ts')), outcome(failed), gate(cwd))).toBeUndefined();
    writeFileSync(join(cwd, 'notes.md'), '# notes\n');
    expect(
      await ext.afterToolCall!(write(join(cwd, 'notes.md')), outcome({ content: 'Created.' }), gate(cwd)),
    ).toBeUndefined();
  });
});

describe('the check after Bash', () => {
  it('does nothing at all while no server runs, nor for a background command', async () => {
    const cwd = project();
    expect(await throughBash(manager(cwd), cwd, () => undefined)).toBe(ran);
    const m = await running(cwd);
    const change = () => writeFileSync(join(cwd, 'src/cart.ts'), 'const n: number = "";\n');
    expect(await throughBash(m, cwd, change, { command: 'x', run_in_background: true })).toBe(ran);
  }, 120_000);

  it('outside a git repository compares the open files only', async () => {
    const cwd = project();
    const m = await running(cwd);
    const after = await throughBash(m, cwd, () => {
      writeFileSync(
        join(cwd, 'src/cart.ts'),
        `${readFileSync(join(cwd, 'src/cart.ts'), 'utf8')}const n: number = "";\n`,
      );
      // Not open and no git to list it: not looked at.
      writeFileSync(join(cwd, 'src/invoice.ts'), 'export const s: string = 1;\n');
    });
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
    const after = await throughBash(m, cwd, () =>
      writeFileSync(
        join(cwd, 'src/cart.ts'),
        `${readFileSync(join(cwd, 'src/cart.ts'), 'utf8')}const n: number = "";\n`,
      ),
    );
    expect(after.content).toContain('- src/cart.ts:7:7:');
    expect(after.content).toContain(
      '(The language-server check of changed files was partial: git ls-files failed: fatal: index file corrupt)',
    );
  }, 120_000);

  it('a command that changes nothing leaves the result as it was', async () => {
    const cwd = project();
    const m = await running(cwd);
    expect(await throughBash(m, cwd, () => undefined)).toBe(ran);
  }, 120_000);
});
