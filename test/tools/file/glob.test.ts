import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globTool, GLOB_MAX_RESULTS } from '../../../src/tools/file';
import { makeToolHarness } from '../../helpers/toolHarness';
import { ageInOrder, HARMLESS_FILES, SECRET_FILES, VCS_FILES, writeTree } from './fileTree';

function tree(files: Record<string, string>) {
  const h = makeToolHarness();
  writeTree(h.cwd, files);
  return h;
}

const allWith = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, 'x']));
const listed = (text: string) => text.split('\n\n[')[0].split('\n');

describe('Glob', () => {
  it('returns at most 100 paths, newest first, with a note when there were more (rule 22)', async () => {
    const names = Array.from({ length: 130 }, (_, i) => `f${String(i).padStart(3, '0')}.txt`);
    const h = tree(allWith(names));
    ageInOrder(h.cwd, names);
    const r = await h.run(globTool, { pattern: '*.txt' });
    const paths = listed(r.text);
    expect(paths).toHaveLength(GLOB_MAX_RESULTS);
    expect(paths[0]).toBe('f129.txt');
    expect(paths[99]).toBe('f030.txt');
    expect(r.text).toContain('Found 130 files; showing the 100 most recently modified');
  });

  it('sorts by modification time, newest first', async () => {
    const h = tree(allWith(['a.ts', 'b.ts', 'c.ts']));
    ageInOrder(h.cwd, ['c.ts', 'a.ts', 'b.ts']);
    expect((await h.run(globTool, { pattern: '*.ts' })).text).toBe('b.ts\na.ts\nc.ts');
  });

  it('respects .gitignore, .ignore and .rgignore, nested too, unless include_ignored (rule 23)', async () => {
    const h = tree({
      '.gitignore': 'dist/\n*.log\n',
      '.ignore': 'tmp.txt\n',
      '.rgignore': 'cache.txt\n',
      'pkg/.gitignore': 'generated.ts\n!keep.log\n',
      'dist/out.js': 'x',
      'a.log': 'x',
      'tmp.txt': 'x',
      'cache.txt': 'x',
      'pkg/generated.ts': 'x',
      'pkg/keep.log': 'x',
      'pkg/src.ts': 'x',
      'src/index.ts': 'x',
    });
    const visible = listed((await h.run(globTool, { pattern: '**/*' })).text).sort();
    expect(visible).toEqual([
      '.gitignore',
      '.ignore',
      '.rgignore',
      'pkg/.gitignore',
      'pkg/keep.log',
      'pkg/src.ts',
      'src/index.ts',
    ]);
    const all = listed((await h.run(globTool, { pattern: '**/*', include_ignored: true })).text).sort();
    expect(all).toEqual(expect.arrayContaining(['dist/out.js', 'a.log', 'tmp.txt', 'cache.txt', 'pkg/generated.ts']));
  });

  it('applies cwd ignore files when searching a subfolder', async () => {
    const h = tree({ '.gitignore': 'pkg/gen/\n', 'pkg/gen/a.ts': 'x', 'pkg/b.ts': 'x' });
    expect((await h.run(globTool, { pattern: '**/*.ts', path: 'pkg' })).text).toBe('pkg/b.ts');
  });

  it('lists files inside an ignored folder when that folder is the search path', async () => {
    const h = tree({ '.gitignore': 'node_modules/\n', 'node_modules/lib/index.js': 'x' });
    expect((await h.run(globTool, { pattern: '**/*.js', path: 'node_modules' })).text).toBe(
      'node_modules/lib/index.js',
    );
  });

  it('supports brace expansion and returns files only (rule 24)', async () => {
    const h = tree(allWith(['a.ts', 'b.tsx', 'c.js', 'dir.ts/inner.txt']));
    const r = await h.run(globTool, { pattern: '*.{ts,tsx}' });
    expect(listed(r.text).sort()).toEqual(['a.ts', 'b.tsx']);
  });

  it('matches nested paths with ** and leading folders in the pattern', async () => {
    const h = tree(allWith(['src/a.ts', 'src/deep/b.ts', 'test/c.ts', 'd.ts']));
    expect(listed((await h.run(globTool, { pattern: 'src/**/*.ts' })).text).sort()).toEqual([
      'src/a.ts',
      'src/deep/b.ts',
    ]);
    expect(listed((await h.run(globTool, { pattern: '**/*.ts' })).text)).toHaveLength(4);
    expect((await h.run(globTool, { pattern: '*.ts' })).text).toBe('d.ts');
  });

  it.each([false, true])('never lists sensitive files, include_ignored=%s', async (includeIgnored) => {
    const h = tree(allWith([...SECRET_FILES, ...HARMLESS_FILES, 'ok.txt']));
    const r = await h.run(globTool, { pattern: '**/*', include_ignored: includeIgnored });
    expect(listed(r.text).sort()).toEqual([...HARMLESS_FILES, 'ok.txt'].sort());
    expect(r.text).toContain(
      `\n\n[${SECRET_FILES.length} sensitive files skipped: secrets (.env files, private keys, credentials) are left out of search results.]`,
    );
  });

  it('counts only the sensitive files the pattern matched, and says nothing when there were none', async () => {
    const h = tree(allWith(['.env', 'keys/id_rsa', 'a.txt']));
    expect((await h.run(globTool, { pattern: '**/id_*' })).text).toBe(
      'No files found matching "**/id_*" in ..\n[1 sensitive file skipped: secrets (.env files, private keys, credentials) are left out of search results.]',
    );
    expect((await h.run(globTool, { pattern: '*.txt' })).text).toBe('a.txt');
  });

  it('treats \\{ \\[ escapes as literal characters, in the folder part and in the glob', async () => {
    const h = tree(allWith(['{draft}.md', '[id].md', 'd.md', 'docs/{a,b}/x.md', 'docs/a/y.md', 'app/[slug]/page.tsx']));
    expect((await h.run(globTool, { pattern: '\\{draft\\}.md' })).text).toBe('{draft}.md');
    expect((await h.run(globTool, { pattern: '\\[id\\].md' })).text).toBe('[id].md');
    expect((await h.run(globTool, { pattern: '*\\}.md' })).text).toBe('{draft}.md');
    expect((await h.run(globTool, { pattern: 'docs/\\{a,b\\}/*.md' })).text).toBe('docs/{a,b}/x.md');
    expect((await h.run(globTool, { pattern: 'docs/{a,b}/*.md' })).text).toBe('docs/a/y.md');
    expect((await h.run(globTool, { pattern: 'app/\\[slug\\]/*.tsx' })).text).toBe('app/[slug]/page.tsx');
  });

  it.each([
    ['**/*.{ts', 'Missing closing: "}"'],
    ['src/[', 'Missing closing: "]"'],
    ['*.@(ts|js', 'Missing closing: ")"'],
  ])('reports the invalid pattern %s as such, not as a missing path', async (pattern, why) => {
    const h = tree(allWith(['a.ts']));
    const r = await h.run(globTool, { pattern });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`Invalid glob pattern "${pattern}": ${why}`);
    expect(r.text).toContain('Fix the pattern and call Glob again.');
    expect(r.text).not.toMatch(/not found/i);
  });

  it.each([false, true])('skips VCS folders, include_ignored=%s (rule 21)', async (includeIgnored) => {
    const h = tree(allWith([...VCS_FILES, 'ok.txt']));
    expect((await h.run(globTool, { pattern: '**/*', include_ignored: includeIgnored })).text).toBe('ok.txt');
  });

  it('does not follow symlinked folders and lists symlinked files', async () => {
    const h = tree(allWith(['real/a.txt']));
    symlinkSync(join(h.cwd, 'real'), join(h.cwd, 'linkdir'));
    symlinkSync(join(h.cwd, 'real/a.txt'), join(h.cwd, 'link.txt'));
    expect(listed((await h.run(globTool, { pattern: '**/*' })).text).sort()).toEqual(['link.txt', 'real/a.txt']);
  });

  it('accepts an absolute pattern and an absolute path outside cwd', async () => {
    const other = tree(allWith(['x/a.md', 'x/b.txt']));
    const h = makeToolHarness();
    expect((await h.run(globTool, { pattern: join(other.cwd, 'x', '*.md') })).text).toBe(join(other.cwd, 'x/a.md'));
    expect((await h.run(globTool, { pattern: '**/*.txt', path: other.cwd })).text).toBe(join(other.cwd, 'x/b.txt'));
  });

  it('says so when nothing matches, and when the path is missing or a file', async () => {
    const h = tree(allWith(['a.txt']));
    expect((await h.run(globTool, { pattern: '*.rs' })).text).toContain('No files found');
    const missing = await h.run(globTool, { pattern: '*', path: 'nope' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('Path not found');
    const file = await h.run(globTool, { pattern: '*', path: 'a.txt' });
    expect(file.isError).toBe(true);
    expect(file.text).toContain('not a folder');
  });

  it('accepts a literal file path as pattern, and explains a bare folder name', async () => {
    const h = tree(allWith(['src/a.txt']));
    expect((await h.run(globTool, { pattern: 'src/a.txt' })).text).toBe('src/a.txt');
    const folder = await h.run(globTool, { pattern: 'src' });
    expect(folder.isError).toBe(true);
    expect(folder.text).toContain('src/**/*');
  });

  it('accepts and ignores the deprecated include_dirs', async () => {
    const h = tree(allWith(['d/a.txt']));
    mkdirSync(join(h.cwd, 'empty'));
    expect((await h.run(globTool, { pattern: '**/*', include_dirs: true })).text).toBe('d/a.txt');
  });
});
