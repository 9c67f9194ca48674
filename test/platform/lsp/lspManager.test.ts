// The LSP client against the real typescript-language-server and pyright-langserver from node_modules (docs/lsp.md).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileUri } from '../../../src/platform/lsp/lspClient';
import { LspManager, newErrors } from '../../../src/platform/lsp/lspManager';
import { DEFAULT_LSP_SETTINGS } from '../../../src/platform/lsp/lspServers';
import type { LspDiagnostic, LspLocation } from '../../../src/platform/lsp/lspTypes';

const BIN = resolve(__dirname, '../../../node_modules/.bin');
const FIXTURES = resolve(__dirname, '../../fixtures/lsp');
const managers: LspManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

function project(name: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-lsp-')));
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

function manager(cwd: string, path = `${BIN}:/usr/bin:/bin`, notices: string[] = [], trusted = true): LspManager {
  const m = new LspManager(
    { ...DEFAULT_LSP_SETTINGS, diagnosticsWaitMs: 60_000 },
    { cwd, env: { ...process.env, PATH: path }, onNotice: (t) => notices.push(t), trusted: () => trusted },
  );
  managers.push(m);
  return m;
}

const err = (message: string, line = 0): LspDiagnostic => ({
  range: { start: { line, character: 0 }, end: { line, character: 1 } },
  severity: 1,
  message,
});

describe('newErrors', () => {
  it('keeps only errors that were not there before, ignoring lines and warnings, counting repeats', () => {
    const warning = { ...err('unused'), severity: 2 as const };
    expect(newErrors([err('a', 1)], [err('a', 5), err('b'), warning])).toEqual([err('b')]);
    expect(newErrors([err('a')], [err('a'), err('a', 3)])).toEqual([err('a', 3)]);
    expect(newErrors([err('a')], [])).toEqual([]);
  });
});

describe.each([
  ['ts', 'src/cart.ts', 'formatPrice(total)', 'formatPrice("x")', { line: 0, character: 17 }],
  ['py', 'cart.py', 'format_price(sum(items))', 'format_price("x")', { line: 0, character: 22 }],
])('the %s server', (kind, file, good, bad, symbolAt) => {
  it('reports an edit’s new error, none after the fix, and finds the symbol in three files', async () => {
    const cwd = project(`${kind}-project`);
    const m = manager(cwd);
    const path = join(cwd, file);
    const before = readFileSync(path, 'utf8');
    const broken = before.replace(good, bad);
    const introduced = await m.checkEdit(path, before, broken);
    expect(introduced.kind, JSON.stringify(m.status())).toBe('checked');
    const errors = introduced.kind === 'checked' ? introduced.errors : [];
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toMatch(/string|int/i);
    expect(await m.checkEdit(path, broken, before)).toEqual({ kind: 'checked', errors: [] });
    const client = m.clientFor(path)!;
    const refs = await client.request<LspLocation[]>('textDocument/references', {
      textDocument: { uri: fileUri(path) },
      position: symbolAt,
      context: { includeDeclaration: true },
    });
    const files = new Set(refs.map((r) => r.uri.split('/').pop()));
    expect(files.size, JSON.stringify(refs)).toBe(3);
    expect(m.status()).toEqual([
      expect.objectContaining({ name: kind === 'ts' ? 'typescript' : 'python', state: 'ready' }),
    ]);
    await m.close();
    expect(m.status()[0].state).toBe('stopped');
  }, 120_000);
});

describe('a missing server', () => {
  it('gives one notice saying how to install it; each edit says it was not checked and why', async () => {
    const cwd = project('ts-project');
    const notices: string[] = [];
    const m = manager(cwd, '/nonexistent', notices);
    const path = join(cwd, 'src/cart.ts');
    for (const [from, to] of [
      ['a', 'b'],
      ['b', 'c'],
    ]) {
      const check = await m.checkEdit(path, from, to);
      expect(check).toEqual({
        kind: 'unchecked',
        why: expect.stringContaining('no typescript language server is installed'),
      });
      expect(check.kind === 'unchecked' && check.why).toContain('npm i -g typescript-language-server@5 typescript@5');
    }
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('npm i -g typescript-language-server@5 typescript@5');
    expect(m.status()).toEqual([expect.objectContaining({ name: 'typescript', state: 'missing' })]);
  });

  it('a file no server serves is nothing to say', async () => {
    const cwd = project('ts-project');
    expect(await manager(cwd, '/nonexistent').checkEdit(join(cwd, 'notes.md'), 'a', 'b')).toEqual({ kind: 'none' });
  });
});

describe('an untrusted folder', () => {
  it('starts no server (they run project code) and says so once', async () => {
    const cwd = project('ts-project');
    const notices: string[] = [];
    const m = manager(cwd, `${BIN}:/usr/bin:/bin`, notices, false);
    const path = join(cwd, 'src/cart.ts');
    expect(await m.checkEdit(path, 'a', 'b')).toEqual({
      kind: 'unchecked',
      why: expect.stringContaining('not trusted'),
    });
    expect(m.clientFor(path)).toBeUndefined();
    expect(notices).toEqual([expect.stringContaining('not trusted')]);
    expect(m.whyUnavailable(path)).toContain('not trusted');
    expect(m.status()).toEqual([]);
  });
});

describe('the warm-up (Read and Grep)', () => {
  it('says nothing for a missing server or an untrusted folder; the first edit still gives the one notice', async () => {
    const cwd = project('ts-project');
    const path = join(cwd, 'src/cart.ts');
    const notices: string[] = [];
    const m = manager(cwd, '/usr/bin:/bin', notices);
    m.warm(path);
    expect(notices).toEqual([]);
    const text = readFileSync(path, 'utf8');
    expect((await m.checkEdit(path, text, `${text}\n`)).kind).toBe('unchecked');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('No typescript language server');
    const untrusted: string[] = [];
    manager(cwd, `${BIN}:/usr/bin:/bin`, untrusted, false).warm(path);
    expect(untrusted).toEqual([]);
  });

  it('starts the server and opens the read file, so its diagnostics are known before an edit', async () => {
    const cwd = project('ts-project');
    const path = join(cwd, 'src/cart.ts');
    const m = manager(cwd);
    m.warm(path);
    const client = m.clientFor(path)!;
    await client.ready;
    // A bound for a loaded machine, not a duration: the warm-up's check answers well before it.
    const end = Date.now() + 60_000;
    while (client.published(path) === undefined && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(client.published(path)).toEqual([]);
    expect(client.openText(path)).toBe(readFileSync(path, 'utf8'));
  }, 120_000);
});

describe('the session ending', () => {
  it('stops a server that is still starting without reporting a failure', async () => {
    const cwd = project('ts-project');
    const notices: string[] = [];
    const m = manager(cwd, `${BIN}:/usr/bin:/bin`, notices);
    const client = m.clientFor(join(cwd, 'src/cart.ts'))!;
    expect(client.state).toBe('starting');
    await m.close();
    await client.ready.catch(() => undefined);
    await new Promise((r) => setImmediate(r));
    expect(notices).toEqual([]);
    expect(client.state).toBe('stopped');
    expect(client.failure).toBeUndefined();
  });
});

describe('trust for the checkout', () => {
  it("is asked for the file's own workspace root, not the session folder", async () => {
    const cwd = project('ts-project');
    mkdirSync(join(cwd, 'packages/lib'), { recursive: true });
    writeFileSync(join(cwd, 'packages/lib/package.json'), '{}\n');
    writeFileSync(join(cwd, 'packages/lib/x.ts'), 'export const x = 1;\n');
    const asked: string[] = [];
    const m = new LspManager(DEFAULT_LSP_SETTINGS, {
      cwd,
      env: { ...process.env, PATH: `${BIN}:/usr/bin:/bin` },
      onNotice: () => undefined,
      trusted: (root) => {
        asked.push(root);
        return false;
      },
    });
    managers.push(m);
    expect(m.clientFor(join(cwd, 'packages/lib/x.ts'))).toBeUndefined();
    expect(asked).toEqual([join(cwd, 'packages/lib')]);
    expect(m.whyUnavailable(join(cwd, 'packages/lib/x.ts'))).toContain(`stay off for ${join(cwd, 'packages/lib')}`);
  });
});
