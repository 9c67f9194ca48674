// A repository to review (docs/ci.md "jarvis review"): `main` with a small library, and a branch `feature` two commits
// ahead — the first plants an off-by-one in a loop bound, the second adds a client with a leaked API key. Also a
// hash of every file under the folder (.git included), to show that a review changed nothing on disk.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, lstatSync, readlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const RANGE_TS_BEFORE = [
  '// Sums and windows over arrays of numbers.',
  '',
  'export function sum(values: number[]): number {',
  '  let total = 0;',
  '  for (const v of values) total += v;',
  '  return total;',
  '}',
  '',
  '/** The sum of the first n values. */',
  'export function sumFirst(values: number[], n: number): number {',
  '  let total = 0;',
  '  for (let i = 0; i < n; i++) {',
  '    total += values[i];',
  '  }',
  '  return total;',
  '}',
  '',
  'export function average(values: number[]): number {',
  '  return values.length === 0 ? 0 : sum(values) / values.length;',
  '}',
  '',
  'export function windows(values: number[], size: number): number[][] {',
  '  const out: number[][] = [];',
  '  for (let i = 0; i + size <= values.length; i++) out.push(values.slice(i, i + size));',
  '  return out;',
  '}',
  '',
  'export function clamp(x: number, lo: number, hi: number): number {',
  '  return Math.min(hi, Math.max(lo, x));',
  '}',
  '',
];

/** The planted off-by-one: line 12 of the new src/range.ts reads one value past the n asked for. */
export const OFF_BY_ONE_LINE = 12;
/** The leaked key's line in src/client.ts. */
export const LEAKED_KEY_LINE = 3;

export interface ReviewRepo {
  root: string;
  base: string;
  head: string;
  /** The leaked key, made at run time so that no secret scanner mistakes this file for a leak. */
  key: string;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Dev',
      GIT_AUTHOR_EMAIL: 'dev@example.com',
      GIT_COMMITTER_NAME: 'Dev',
      GIT_COMMITTER_EMAIL: 'dev@example.com',
      GIT_CONFIG_GLOBAL: '/dev/null',
    },
  }).trim();
}

export function makeReviewRepo(root: string): ReviewRepo {
  mkdirSync(join(root, 'src'), { recursive: true });
  git(root, 'init', '-q', '-b', 'main');
  writeFileSync(join(root, 'README.md'), '# numbers\n\nSmall helpers over arrays of numbers.\n');
  writeFileSync(join(root, 'src', 'range.ts'), RANGE_TS_BEFORE.join('\n'));
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'numbers: sum, sumFirst, average, windows, clamp');
  const base = git(root, 'rev-parse', 'HEAD');
  git(root, 'checkout', '-q', '-b', 'feature');
  const after = [...RANGE_TS_BEFORE];
  after[OFF_BY_ONE_LINE - 1] = '  for (let i = 0; i <= n; i++) {';
  writeFileSync(join(root, 'src', 'range.ts'), after.join('\n'));
  git(root, 'commit', '-q', '-am', 'sumFirst: include the last value');
  const key = ['sk', 'live', createHash('sha256').update('fixture').digest('hex').slice(0, 32)].join('_');
  writeFileSync(
    join(root, 'src', 'client.ts'),
    [
      "import { sumFirst } from './range';",
      '',
      `const API_KEY = '${key}';`,
      '',
      'export async function report(values: number[]): Promise<void> {',
      "  await fetch('https://api.example.com/v1/report', {",
      "    method: 'POST',",
      '    headers: { authorization: `Bearer ${API_KEY}` },',
      '    body: JSON.stringify({ total: sumFirst(values, 3) }),',
      '  });',
      '}',
      '',
    ].join('\n'),
  );
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'client: report totals');
  return { root, base, head: git(root, 'rev-parse', 'HEAD'), key };
}

/** One hash over every file and link under `root` (names, modes and contents), .git included. */
export function treeHash(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const st = lstatSync(path);
      hash.update(`${relative(root, path)}\0${st.mode}\0`);
      if (st.isDirectory()) walk(path);
      else if (st.isSymbolicLink()) hash.update(readlinkSync(path));
      else hash.update(readFileSync(path));
    }
  };
  walk(root);
  return hash.digest('hex');
}
