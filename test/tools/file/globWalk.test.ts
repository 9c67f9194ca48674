// Glob's walk reads ignore files only where a listing shows them, tests entries against a stack of
// ignore frames and skips folders deeper than the glob reaches. It must list exactly what a plain
// walk asking IgnoreRules about every entry (and picomatch about every path) lists.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globTool } from '../../../src/tools/file';
import { globMatcher, globMaxDepth } from '../../../src/tools/file/globTool';
import { walkMatchingFiles } from '../../../src/tools/file/globWalk';
import { IgnoreRules } from '../../../src/tools/file/ignoreRules';
import { isSensitivePath, isVcsDirName } from '../../../src/tools/file/sensitivePaths';
import { makeToolHarness } from '../../helpers/toolHarness';
import { writeTree } from './fileTree';

/** The reference: every folder and file asked of IgnoreRules by absolute path, every path of picomatch. */
function referenceWalk(root: string, glob: string, rules: IgnoreRules | undefined): string[] {
  const isMatch = picomatch(glob, { dot: true });
  const out: string[] = [];
  const visit = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (!isVcsDirName(e.name) && !rules?.isIgnored(path, true)) visit(path);
      } else if (isMatch(relative(root, path)) && !isSensitivePath(path) && !rules?.isIgnored(path, false))
        out.push(path);
    }
  };
  visit(root);
  return out.sort();
}

const TREE = {
  '.gitignore': 'dist/\n*.log\n/top-only.txt\ngen/\n',
  '.ignore': 'tmp.txt\n!keep.log\n',
  '.rgignore': 'cache*\n',
  'top-only.txt': 'x',
  'keep.log': 'x',
  'other.log': 'x',
  'dist/out.js': 'x',
  'src/a.ts': 'x',
  'src/top-only.txt': 'x',
  'src/tmp.txt': 'x',
  'src/cache.json': 'x',
  'src/gen/x.ts': 'x',
  'pkg/.gitignore': '!gen/\n*.ts\n!keep.ts\n',
  'pkg/gen/y.ts': 'x',
  'pkg/gen/keep.ts': 'x',
  'pkg/lib/keep.ts': 'x',
  'pkg/lib/drop.ts': 'x',
  'pkg/lib/.ignore': 'nested/\n',
  'pkg/lib/nested/z.ts': 'x',
  'pkg/lib/deeper/.gitignore': 'a.md\n',
  'pkg/lib/deeper/a.md': 'x',
  'pkg/lib/deeper/b.md': 'x',
  'pkg/lib/deeper/id_rsa': 'x',
  'pkg/.env': 'x',
  '.git/config': 'x',
  'docs/guide.md': 'x',
  'docs/api/ref.md': 'x',
};

describe('walkMatchingFiles', () => {
  const globs = [
    '**/*',
    '**/*.ts',
    '**/*.md',
    '*',
    '*.log',
    'pkg/**',
    'src/*',
    '*/*/*.ts',
    '**/keep.*',
    '{src,pkg}/**/*.ts',
  ];

  it.each(globs)('lists what a walk asking IgnoreRules of every entry lists: %s', async (glob) => {
    const h = makeToolHarness();
    writeTree(h.cwd, TREE);
    const signal = new AbortController().signal;
    const rules = new IgnoreRules(h.cwd);
    const found = await walkMatchingFiles({
      root: h.cwd,
      matches: globMatcher(glob),
      maxDepth: globMaxDepth(glob),
      ignore: rules.framesAbove(h.cwd),
      signal,
    });
    expect(found.sort()).toEqual(referenceWalk(h.cwd, glob, new IgnoreRules(h.cwd)));
    const all = await walkMatchingFiles({
      root: h.cwd,
      matches: globMatcher(glob),
      maxDepth: globMaxDepth(glob),
      ignore: undefined,
      signal,
    });
    expect(all.sort()).toEqual(referenceWalk(h.cwd, glob, undefined));
  });

  it('applies the ignore files above a subfolder root', async () => {
    const h = makeToolHarness();
    writeTree(h.cwd, TREE);
    const root = join(h.cwd, 'pkg');
    const found = await walkMatchingFiles({
      root,
      matches: globMatcher('**/*'),
      maxDepth: Infinity,
      ignore: new IgnoreRules(h.cwd).framesAbove(root),
      signal: new AbortController().signal,
    });
    expect(found.sort()).toEqual(referenceWalk(root, '**/*', new IgnoreRules(h.cwd)));
    expect(found.map((p) => relative(root, p)).sort()).toEqual([
      '.gitignore',
      'gen/keep.ts',
      'lib/.ignore',
      'lib/deeper/.gitignore',
      'lib/deeper/b.md',
      'lib/keep.ts',
    ]);
  });

  it('folder-only ignore files (every pattern ends in /) skip the per-file test and still list exactly the reference', async () => {
    const h = makeToolHarness();
    // `build` and `out` are folders here but a file elsewhere: a folder-only rule never ignores a file.
    writeTree(h.cwd, {
      '.gitignore': '# folders only\nbuild/\nout/   \n',
      'build/a.ts': '',
      'src/out/b.ts': '',
      'src/build': '',
      'src/c.ts': '',
      'lib/.gitignore': 'gen/\n',
      'lib/gen/d.ts': '',
      'lib/out': '',
    });
    const found = await walkMatchingFiles({
      root: h.cwd,
      matches: globMatcher('**/*'),
      maxDepth: Infinity,
      ignore: new IgnoreRules(h.cwd).framesAbove(h.cwd),
      signal: new AbortController().signal,
    });
    expect(found.sort()).toEqual(referenceWalk(h.cwd, '**/*', new IgnoreRules(h.cwd)));
    expect(found.map((p) => relative(h.cwd, p)).sort()).toEqual([
      '.gitignore',
      'lib/.gitignore',
      'lib/out',
      'src/build',
      'src/c.ts',
    ]);
  });

  it('stops when aborted', async () => {
    const h = makeToolHarness();
    writeTree(h.cwd, TREE);
    const controller = new AbortController();
    controller.abort();
    await expect(
      walkMatchingFiles({
        root: h.cwd,
        matches: () => true,
        maxDepth: Infinity,
        ignore: undefined,
        signal: controller.signal,
      }),
    ).rejects.toThrow();
  });
});

describe('globMaxDepth and globMatcher', () => {
  const paths = [
    'a.ts',
    'b.tsx',
    '.hidden.ts',
    'src/a.ts',
    'src/a.tsx',
    'src/deep/b.ts',
    'src/deep/er/c.ts',
    'x/y/z.md',
    'README.md',
    'a.ts.bak',
    'dir.ts/inner.txt',
    'a/b',
    'ts',
    '.ts',
  ];
  const globs = [
    '*.ts',
    '**/*.ts',
    'src/*.ts',
    '*/*.ts',
    '*/*/*',
    '*.{ts,tsx}',
    '**/*.{md,ts}',
    'src/**',
    '?.ts',
    '[ab].ts',
    '*.ts*',
    '**',
    '*',
    '!(*.md)',
    'src/+(a|b).ts',
    'x/*/z.md',
    '*/',
    '**/.*',
    'a\\.ts',
  ];

  it.each(globs)('never cuts off a path picomatch matches, and matches as picomatch does: %s', (glob) => {
    const isMatch = picomatch(glob, { dot: true });
    const matcher = globMatcher(glob);
    const depth = globMaxDepth(glob);
    for (const path of paths) {
      expect(matcher(path), `${glob} on ${path}`).toBe(isMatch(path));
      if (isMatch(path)) expect(path.split('/').length - 1, `${glob} on ${path}`).toBeLessThanOrEqual(depth);
    }
  });

  it('bounds the depth of globs without ** or groups', () => {
    expect(globMaxDepth('*.ts')).toBe(0);
    expect(globMaxDepth('src/*/x.ts')).toBe(2);
    expect(globMaxDepth('**/*.ts')).toBe(Infinity);
    expect(globMaxDepth('{a,b/c}/*.ts')).toBe(Infinity);
  });
});

describe('Glob with a depth bound', () => {
  it('finds top-level and nested matches without walking deeper than needed', async () => {
    const h = makeToolHarness();
    writeTree(h.cwd, { 'a.ts': 'x', 'src/b.ts': 'x', 'src/deep/c.ts': 'x', 'src/deep/er/d.ts': 'x' });
    expect((await h.run(globTool, { pattern: '*.ts' })).text).toBe('a.ts');
    expect((await h.run(globTool, { pattern: '*/*/*.ts' })).text).toBe('src/deep/c.ts');
    expect((await h.run(globTool, { pattern: 'src/*/*.ts' })).text).toBe('src/deep/c.ts');
  });
});
