import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RipgrepNotFoundError } from '../../../src/platform/ripgrep';
import { createGrepTool, grepTool } from '../../../src/tools/file';
import { makeToolHarness } from '../../helpers/toolHarness';
import { ageInOrder, HARMLESS_FILES, SECRET_FILES, VCS_FILES, writeTree } from './fileTree';

function tree(files: Record<string, string>) {
  const h = makeToolHarness();
  writeTree(h.cwd, files);
  return h;
}

const allWith = (names: readonly string[], text: string) => Object.fromEntries(names.map((n) => [n, text]));
const resultLines = (text: string) =>
  text
    .split('\n\n[')[0]
    .split('\n')
    .filter((l) => !l.startsWith('Found '));

describe('Grep', () => {
  it('defaults to files_with_matches, newest first (rule 16)', async () => {
    const h = tree({ 'a.txt': 'needle\n', 'b.txt': 'needle\n', 'c.txt': 'needle\n', 'd.txt': 'hay\n' });
    ageInOrder(h.cwd, ['b.txt', 'c.txt', 'a.txt']);
    const r = await h.run(grepTool, { pattern: 'needle' });
    expect(r.isError).toBeFalsy();
    expect(r.text.split('\n')).toEqual(['Found 3 files (newest first)', 'a.txt', 'c.txt', 'b.txt']);
  });

  it('head_limit defaults to 250, 0 is unlimited, offset skips (rule 17)', async () => {
    const names = Array.from({ length: 300 }, (_, i) => `f${String(i).padStart(3, '0')}.txt`);
    const h = tree(allWith(names, 'needle\n'));
    ageInOrder(h.cwd, [...names].reverse());
    const first = await h.run(grepTool, { pattern: 'needle' });
    expect(resultLines(first.text)).toHaveLength(250);
    expect(first.text).toContain('Showing results 1-250 of 300');
    expect(first.text).toContain('offset=250');
    expect(resultLines((await h.run(grepTool, { pattern: 'needle', head_limit: 0 })).text)).toHaveLength(300);
    const rest = await h.run(grepTool, { pattern: 'needle', offset: 250 });
    expect(resultLines(rest.text)).toEqual(names.slice(250));
    const page = await h.run(grepTool, { pattern: 'needle', offset: 10, head_limit: 2 });
    expect(resultLines(page.text)).toEqual(['f010.txt', 'f011.txt']);
  });

  it('content mode numbers lines by default; -n false drops them (rule 18)', async () => {
    const h = tree({ 'a.txt': 'x\nneedle one\ny\n' });
    expect((await h.run(grepTool, { pattern: 'needle', output_mode: 'content' })).text).toBe('a.txt:2:needle one');
    expect((await h.run(grepTool, { pattern: 'needle', output_mode: 'content', '-n': false })).text).toBe(
      'a.txt:needle one',
    );
  });

  it('is case-sensitive by default; -i makes it insensitive (rule 18)', async () => {
    const h = tree({ 'a.txt': 'Needle\n' });
    expect((await h.run(grepTool, { pattern: 'needle' })).text).toBe('No matches found.');
    expect((await h.run(grepTool, { pattern: 'needle', '-i': true })).text).toContain('a.txt');
  });

  it.each([false, true])('never returns sensitive files, include_ignored=%s (rule 19)', async (includeIgnored) => {
    const h = tree({ ...allWith(SECRET_FILES, 'needle\n'), 'ok.txt': 'needle\n' });
    for (const mode of ['files_with_matches', 'content', 'count_matches']) {
      const r = await h.run(grepTool, { pattern: 'needle', include_ignored: includeIgnored, output_mode: mode });
      for (const secret of SECRET_FILES) expect(r.text.split('\n\n[')[0]).not.toContain(secret);
      expect(r.text).toContain('ok.txt');
      expect(r.text, mode).toContain(
        `[${SECRET_FILES.length} sensitive files skipped: secrets (.env files, private keys, credentials) are left out of search results.]`,
      );
    }
  });

  it('counts the sensitive files it left out even when nothing else matched; none, no note', async () => {
    const h = tree({ '.env': 'TOKEN=needle\n', id_rsa: 'needle\n', 'a.txt': 'hay\n' });
    expect((await h.run(grepTool, { pattern: 'needle' })).text).toBe(
      'No matches found.\n[2 sensitive files skipped: secrets (.env files, private keys, credentials) are left out of search results.]',
    );
    expect((await h.run(grepTool, { pattern: 'hay' })).text).not.toContain('skipped');
  });

  it('refuses to search a sensitive file named directly (rule 19)', async () => {
    const h = tree({ '.env': 'needle\n' });
    const r = await h.run(grepTool, { pattern: 'needle', path: '.env' });
    expect(r.text).toContain('never searched');
    expect(r.text).not.toContain('needle\n');
  });

  it('returns .env.example/.sample/.template and public keys (rule 20)', async () => {
    const h = tree(allWith(HARMLESS_FILES, 'needle\n'));
    const r = await h.run(grepTool, { pattern: 'needle' });
    expect(resultLines(r.text).sort()).toEqual([...HARMLESS_FILES].sort());
  });

  it.each([false, true])('skips VCS folders, include_ignored=%s (rule 21)', async (includeIgnored) => {
    const h = tree({ ...allWith(VCS_FILES, 'needle\n'), 'ok.txt': 'needle\n' });
    const r = await h.run(grepTool, { pattern: 'needle', include_ignored: includeIgnored });
    expect(resultLines(r.text)).toEqual(['ok.txt']);
  });

  it('respects ignore files unless include_ignored', async () => {
    const h = tree({
      '.gitignore': 'build/\n',
      '.ignore': '*.gen\n',
      'sub/.rgignore': 'local.txt\n',
      'build/out.js': 'needle',
      'x.gen': 'needle',
      'sub/local.txt': 'needle',
      'src/a.ts': 'needle',
    });
    expect(resultLines((await h.run(grepTool, { pattern: 'needle' })).text)).toEqual(['src/a.ts']);
    const all = resultLines((await h.run(grepTool, { pattern: 'needle', include_ignored: true })).text).sort();
    expect(all).toEqual(['build/out.js', 'src/a.ts', 'sub/local.txt', 'x.gen']);
  });

  it('searches hidden files', async () => {
    const h = tree({ '.github/workflows/ci.yml': 'needle' });
    expect((await h.run(grepTool, { pattern: 'needle' })).text).toContain('.github/workflows/ci.yml');
  });

  it('shows context with -A/-B/-C and separates groups with --', async () => {
    const h = tree({ 'a.txt': ['l1', 'hit1', 'l3', 'l4', 'l5', 'l6', 'hit2', 'l8'].join('\n') + '\n' });
    const c = await h.run(grepTool, { pattern: 'hit', output_mode: 'content', '-C': 1 });
    expect(c.text).toBe(
      ['a.txt-1-l1', 'a.txt:2:hit1', 'a.txt-3-l3', '--', 'a.txt-6-l6', 'a.txt:7:hit2', 'a.txt-8-l8'].join('\n'),
    );
    const a = await h.run(grepTool, { pattern: 'hit1', output_mode: 'content', '-A': 2 });
    expect(a.text).toBe(['a.txt:2:hit1', 'a.txt-3-l3', 'a.txt-4-l4'].join('\n'));
    const b = await h.run(grepTool, { pattern: 'hit2', output_mode: 'content', '-B': 1 });
    expect(b.text).toBe(['a.txt-6-l6', 'a.txt:7:hit2'].join('\n'));
  });

  it('counts matches per file', async () => {
    const h = tree({ 'a.txt': 'x x\nx\n', 'b.txt': 'x\n', 'c.txt': 'y\n' });
    const r = await h.run(grepTool, { pattern: 'x', output_mode: 'count_matches' });
    expect(r.text).toBe(['Found 4 matches in 2 files', 'a.txt:3', 'b.txt:1'].join('\n'));
  });

  it('pages content lines with offset/head_limit and says where to continue', async () => {
    const h = tree({ 'a.txt': Array.from({ length: 10 }, (_, i) => `hit ${i + 1}`).join('\n') });
    const r = await h.run(grepTool, { pattern: 'hit', output_mode: 'content', offset: 2, head_limit: 3 });
    expect(resultLines(r.text)).toEqual(['a.txt:3:hit 3', 'a.txt:4:hit 4', 'a.txt:5:hit 5']);
    expect(r.text).toContain('offset=5');
  });

  it('matches across lines with multiline', async () => {
    const h = tree({ 'a.txt': 'start\nmiddle\nend\n' });
    expect((await h.run(grepTool, { pattern: 'start.*end', output_mode: 'content' })).text).toBe('No matches found.');
    const r = await h.run(grepTool, { pattern: 'start.*end', output_mode: 'content', multiline: true });
    expect(r.text).toBe(['a.txt:1:start', 'a.txt:2:middle', 'a.txt:3:end'].join('\n'));
  });

  it('filters by type and glob (brace patterns too)', async () => {
    const h = tree({ 'a.ts': 'needle', 'b.tsx': 'needle', 'c.py': 'needle', 'd.md': 'needle' });
    expect(resultLines((await h.run(grepTool, { pattern: 'needle', type: 'py' })).text)).toEqual(['c.py']);
    expect(resultLines((await h.run(grepTool, { pattern: 'needle', glob: '*.{ts,tsx}' })).text).sort()).toEqual([
      'a.ts',
      'b.tsx',
    ]);
  });

  it('keeps secrets out even when the glob names them', async () => {
    const h = tree({ '.env': 'needle', '.git/x': 'needle' });
    expect((await h.run(grepTool, { pattern: 'needle', glob: '.env', include_ignored: true })).text).toBe(
      'No matches found.\n[1 sensitive file skipped: secrets (.env files, private keys, credentials) are left out of search results.]',
    );
    expect((await h.run(grepTool, { pattern: 'needle', glob: '**/.git/**' })).text).toBe('No matches found.');
  });

  it('caps long lines at 500 columns', async () => {
    const h = tree({ 'min.js': `needle${'z'.repeat(2000)}\n` });
    const r = await h.run(grepTool, { pattern: 'needle', output_mode: 'content' });
    expect(r.text).toBe(`min.js:1:needle${'z'.repeat(494)}… [+1506 chars]`);
  });

  it('searches a single file given as path, and absolute paths outside cwd', async () => {
    const h = tree({ 'a.txt': 'needle\n', 'b.txt': 'needle\n' });
    expect((await h.run(grepTool, { pattern: 'needle', path: 'a.txt', output_mode: 'content' })).text).toBe(
      'a.txt:1:needle',
    );
    const outside = makeToolHarness();
    const r = await outside.run(grepTool, { pattern: 'needle', path: h.cwd });
    expect(resultLines(r.text).sort()).toEqual([join(h.cwd, 'a.txt'), join(h.cwd, 'b.txt')]);
  });

  it('treats a pattern that starts with a dash as a pattern', async () => {
    const h = tree({ 'a.txt': 'x --flag y\n' });
    expect((await h.run(grepTool, { pattern: '--flag', output_mode: 'content' })).text).toBe('a.txt:1:x --flag y');
  });

  it('reports an invalid regex and a missing path clearly', async () => {
    const h = tree({ 'a.txt': 'x' });
    const bad = await h.run(grepTool, { pattern: 'a(b' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('Grep failed');
    expect(bad.text).toContain('regex');
    const missing = await h.run(grepTool, { pattern: 'x', path: 'nope' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('Path not found');
  });

  it('reports an unknown file type', async () => {
    const h = tree({ 'a.txt': 'x' });
    const r = await h.run(grepTool, { pattern: 'x', type: 'nosuchtype' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('nosuchtype');
  });

  it('says clearly when no ripgrep can be found', async () => {
    const tool = createGrepTool({
      locate: () =>
        Promise.reject(new RipgrepNotFoundError('ripgrep (rg) was not found; install it or set JARVIS_RG_PATH')),
    });
    const h = tree({ 'a.txt': 'x' });
    const r = await h.run(tool, { pattern: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('JARVIS_RG_PATH');
  });

  describe('with a slow ripgrep', () => {
    // Prints one result, then hangs: stands in for a search over a huge tree.
    function slowRg(dir: string): string {
      const script = join(dir, 'slow-rg');
      writeFileSync(script, '#!/bin/sh\nfor last; do :; done\nprintf "%s/a.txt\\0" "$last"\nexec sleep 30\n');
      chmodSync(script, 0o755);
      return script;
    }

    it('returns partial results with a note on timeout', async () => {
      const h = tree({ 'a.txt': 'needle' });
      const tool = createGrepTool({
        locate: async () => ({ path: slowRg(h.sessionDir), source: 'env' }),
        timeoutMs: 300,
      });
      const r = await h.run(tool, { pattern: 'needle' });
      expect(r.isError).toBeFalsy();
      expect(r.text).toContain('a.txt');
      expect(r.text).toContain('timed out');
      expect(r.text).toContain('partial');
    });

    it('stops ripgrep when the step is aborted', async () => {
      const h = tree({ 'a.txt': 'needle' });
      const tool = createGrepTool({ locate: async () => ({ path: slowRg(h.sessionDir), source: 'env' }) });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const r = await h.run(tool, { pattern: 'needle' }, { signal: controller.signal });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('interrupted');
    });
  });
});
