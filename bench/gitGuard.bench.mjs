// Cost of running Jarvis's own git calls without the repository's programs (docs/sandbox.md, "Jarvis's own git
// calls"): each call lists the configuration first (one `git config` process) and passes the neutral settings.
//   `git status --porcelain` and `git ls-files -m` through platform/git.ts, against the same command spawned
//   plainly, in the same run, on a repository of N tracked files (default 2 000)
// Usage: node bench/gitGuard.bench.mjs [--runs N] [--files N]
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const RUNS = arg('--runs', 31);
const FILES = arg('--files', 2000);
const outDir = join(root, 'bench', 'results');
const entry = join(outDir, 'gitGuardEntry.mjs');
const ms = (x) => `${x.toFixed(2)} ms`;
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const p95 = (xs) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

mkdirSync(outDir, { recursive: true });
await build({
  entryPoints: [join(root, 'bench', 'gitGuardEntry.ts')],
  outfile: entry,
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'warning',
});
const { runGit } = await import(entry);

const repo = mkdtempSync(join(tmpdir(), 'jarvis-bench-git-'));
const git = (...args) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
git('init', '-q', '-b', 'main');
git('config', 'user.email', 'bench@example.invalid');
git('config', 'user.name', 'bench');
for (let i = 0; i < FILES; i++) {
  const dir = join(repo, `d${i % 50}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
}
git('add', '-A');
git('commit', '-q', '-m', 'files');
writeFileSync(join(repo, 'd0', 'f0.txt'), 'changed\n');

const plainGit = promisify(execFile);
async function timed(fn) {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

console.log(`Jarvis's own git calls, guarded vs plain (${FILES} tracked files, ${RUNS} runs each, interleaved)`);
for (const args of [
  ['status', '--porcelain'],
  ['ls-files', '-m', '-z'],
]) {
  const plain = [];
  const guarded = [];
  await plainGit('git', args, { cwd: repo });
  await runGit(args, repo);
  for (let i = 0; i < RUNS; i++) {
    plain.push(await timed(() => plainGit('git', args, { cwd: repo })));
    guarded.push(await timed(() => runGit(args, repo)));
  }
  const added = median(guarded) - median(plain);
  console.log(
    `  git ${args.join(' ').padEnd(20)} plain ${ms(median(plain))} (p95 ${ms(p95(plain))})   guarded ${ms(median(guarded))} (p95 ${ms(p95(guarded))})   ratio ${(median(guarded) / median(plain)).toFixed(2)}   added ${ms(added)}`,
  );
}
rmSync(repo, { recursive: true, force: true });
