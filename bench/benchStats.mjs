// Small shared pieces of the benchmarks that compare against a baseline measured in the same run: order statistics,
// millisecond formatting, and bundling an entry of the sources with esbuild.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

export const benchRoot = resolve(import.meta.dirname, '..');
const sorted = (xs) => [...xs].sort((a, b) => a - b);
export const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
export const p95 = (xs) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
export const ms = (x) => `${x.toFixed(1)} ms`;

/** `--runs N` of the command line, or `fallback`. */
export function runsFromArgs(fallback) {
  const at = process.argv.indexOf('--runs');
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

/** Bundles `bench/<name>.ts` into bench/results and imports it. */
export async function importEntry(name) {
  const outDir = join(benchRoot, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, `${name}.mjs`);
  await build({
    entryPoints: [join(benchRoot, 'bench', `${name}.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    loader: { '.md': 'text' },
    logLevel: 'warning',
  });
  return import(outfile);
}
