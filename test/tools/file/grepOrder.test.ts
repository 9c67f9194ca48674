// Grep content mode searches on all ripgrep threads and orders files itself: the output must be
// the same on every run, in `rg --sort path` order, and offset pages must add up to the whole.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRipgrep } from '../../../src/platform/ripgrep';
import { createGrepTool, grepTool } from '../../../src/tools/file';
import { compareRipgrepPaths, orderByPath, type GrepLine } from '../../../src/tools/file/grepContent';
import { makeToolHarness } from '../../helpers/toolHarness';
import { writeTree } from './fileTree';

/** 12 folders × 15 files, each with three hits (two of them adjacent), and files without any. */
function bigTree() {
  const h = makeToolHarness();
  const files: Record<string, string> = {};
  for (let d = 0; d < 12; d++) {
    for (let f = 0; f < 15; f++) {
      const body = ['top', `hit ${d}.${f} a`, `hit ${d}.${f} b`, 'x', 'y', `hit ${d}.${f} c`, 'end'];
      files[`dir${d % 4}/sub${d}/f${f}.txt`] = body.join('\n') + '\n';
      files[`dir${d % 4}/sub${d}/quiet${f}.txt`] = 'nothing here\n';
    }
  }
  writeTree(h.cwd, files);
  return h;
}

/** The result lines, without the closing notes. */
const body = (text: string) => text.split('\n\n[')[0].split('\n');

describe('Grep content order', () => {
  it('gives identical content output on every run', async () => {
    const h = bigTree();
    for (const extra of [{}, { '-C': 1 }, { '-n': false }]) {
      const args = { pattern: 'hit', output_mode: 'content', head_limit: 0, ...extra };
      const first = (await h.run(grepTool, args)).text;
      expect(first.split('\n').filter((l) => l.includes('hit '))).toHaveLength(12 * 15 * 3);
      for (let i = 0; i < 4; i++) expect((await h.run(grepTool, args)).text).toBe(first);
    }
  });

  it('orders files as rg --sort path does and keeps each file in line order', async () => {
    const h = bigTree();
    const full = body((await h.run(grepTool, { pattern: 'hit', output_mode: 'content', head_limit: 0 })).text);
    const rg = spawnSync(
      (await defaultRipgrep()).path,
      ['--no-config', '--sort', 'path', '-n', '--regexp', 'hit', '.'],
      { cwd: h.cwd, encoding: 'utf8' },
    );
    expect(full).toEqual(
      rg.stdout
        .trim()
        .split('\n')
        .map((l) => l.replace(/^\.\//, '')),
    );
  });

  it('pages with offset/head_limit that concatenate to the full result', async () => {
    const h = bigTree();
    const full = body((await h.run(grepTool, { pattern: 'hit', output_mode: 'content', head_limit: 0 })).text);
    const paged: string[] = [];
    for (let offset = 0; ;) {
      const r = await h.run(grepTool, { pattern: 'hit', output_mode: 'content', offset, head_limit: 37 });
      const lines = body(r.text);
      paged.push(...lines);
      const next = /offset=(\d+)/.exec(r.text);
      if (!next) break;
      expect(Number(next[1])).toBe(offset + lines.length);
      offset = Number(next[1]);
    }
    expect(paged).toEqual(full);
  });

  it('pages with context lines too (separators aside)', async () => {
    const h = bigTree();
    const withoutSeparators = (lines: string[]) => lines.filter((l) => l !== '--');
    const full = withoutSeparators(
      body((await h.run(grepTool, { pattern: 'hit', output_mode: 'content', '-B': 1, head_limit: 0 })).text),
    );
    const paged: string[] = [];
    for (let offset = 0; offset < full.length; offset += 50) {
      paged.push(
        ...withoutSeparators(
          body(
            (await h.run(grepTool, { pattern: 'hit', output_mode: 'content', '-B': 1, offset, head_limit: 50 })).text,
          ),
        ),
      );
    }
    expect(paged).toEqual(full);
  });

  it('tells when more lines follow exactly as a search in path order did', async () => {
    const h = bigTree();
    const total = 12 * 15 * 3;
    const last = await h.run(grepTool, { pattern: 'hit', output_mode: 'content', offset: total - 10, head_limit: 10 });
    expect(body(last.text)).toHaveLength(10);
    expect(last.text).not.toContain('[');
    const before = await h.run(grepTool, {
      pattern: 'hit',
      output_mode: 'content',
      offset: total - 11,
      head_limit: 10,
    });
    expect(before.text).toContain(`More matching lines follow. To see them, call again with offset=${total - 1}.`);
    const short = await h.run(grepTool, { pattern: 'hit', output_mode: 'content', offset: total - 5, head_limit: 10 });
    expect(body(short.text)).toHaveLength(5);
    expect(short.text).not.toContain('[');
  });

  it('searches again in path order when the unordered output passes the cap', async () => {
    const h = bigTree();
    const full = body((await h.run(grepTool, { pattern: 'hit', output_mode: 'content', head_limit: 0 })).text);
    const capped = createGrepTool({ maxOutputBytes: 32 * 1024 });
    const r = await h.run(capped, { pattern: 'hit', output_mode: 'content', offset: 5, head_limit: 20 });
    expect(body(r.text)).toEqual(full.slice(5, 25));
    expect(r.text).not.toContain('partial');
    expect(r.text).toContain('offset=25');
  });

  it('gives way to a search in path order when a small page has many matches', async () => {
    const h = bigTree();
    const full = body((await h.run(grepTool, { pattern: 'hit', output_mode: 'content', head_limit: 0 })).text);
    for (const offset of [0, 3, 100]) {
      const r = await h.run(grepTool, { pattern: 'hit', output_mode: 'content', offset, head_limit: 5 });
      expect(body(r.text)).toEqual(full.slice(offset, offset + 5));
      expect(r.text).toContain(`More matching lines follow. To see them, call again with offset=${offset + 5}.`);
    }
  });

  it('still stops early on a single file', async () => {
    const h = makeToolHarness();
    writeTree(h.cwd, { 'big.txt': Array.from({ length: 5000 }, (_, i) => `hit ${i}`).join('\n') });
    const r = await h.run(grepTool, { pattern: 'hit', path: 'big.txt', output_mode: 'content', head_limit: 3 });
    expect(body(r.text)).toEqual(['big.txt:1:hit 0', 'big.txt:2:hit 1', 'big.txt:3:hit 2']);
    expect(r.text).toContain('offset=3');
  });
});

describe('compareRipgrepPaths', () => {
  it('compares name by name, by code point', () => {
    const names = [
      '/r/😀',
      '/r/ｚ',
      '/r/a b',
      '/r/a/b',
      '/r/a-c',
      '/r/B',
      '/r/.h',
      '/r/a.b',
      '/r/z/ｚ/x',
      '/r/z/😀/x',
      '/r/é',
      '/r/a/b-c',
      '/r/ab',
      '/r/a0',
    ];
    const expected = [
      '/r/.h',
      '/r/B',
      '/r/a/b',
      '/r/a/b-c',
      '/r/a b',
      '/r/a-c',
      '/r/a.b',
      '/r/a0',
      '/r/ab',
      '/r/z/ｚ/x',
      '/r/z/😀/x',
      '/r/é',
      '/r/ｚ',
      '/r/😀',
    ];
    expect([...names].sort((a, b) => compareRipgrepPaths(a, b, false))).toEqual(expected);
  });

  it('treats a backslash as a separator on Windows only', () => {
    expect(compareRipgrepPaths('a\\b', 'a-c', true)).toBeLessThan(0);
    expect(compareRipgrepPaths('a\\b', 'a-c', false)).toBeGreaterThan(0);
  });

  it('matches rg --sort path on awkward names', async () => {
    const h = makeToolHarness();
    const names = [
      'a-c',
      'a.b',
      'a/b',
      'a/b-c',
      'a b',
      'B',
      'b',
      'é',
      '日本',
      '😀',
      'ｚ',
      '_x',
      '.h',
      'ab',
      'a0',
      'z/😀/x',
      'z/ｚ/x',
    ];
    writeTree(h.cwd, Object.fromEntries(names.map((n) => [n, 'needle\n'])));
    const rg = spawnSync(
      (await defaultRipgrep()).path,
      ['--no-config', '--hidden', '--sort', 'path', '-l', 'needle', h.cwd],
      { encoding: 'utf8' },
    );
    const expected = rg.stdout.trim().split('\n');
    const lines: GrepLine[] = names.map((n) => ({
      path: join(h.cwd, n),
      lineNumber: 1,
      text: 'needle',
      isMatch: true,
    }));
    expect(orderByPath(lines).map((l) => l.path)).toEqual(expected);
  });
});
