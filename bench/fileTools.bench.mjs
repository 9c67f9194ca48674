// File-tool benchmark on a generated 20 000-file tree, with baselines measured in the same run:
//   Grep (the tool, through the engine's tool runner) against raw `rg` with equivalent flags;
//   Glob (the tool) against the floor of what it must do: a recursive walk (fs.readdirSync) that
//   picks the matches with the cheapest test that gives the same set (a file-name suffix), stats
//   every match and sorts by mtime (Glob lists newest first, so the stat is part of the job). The
//   floor ignores .gitignore, so it does a little more listing than the tool; a bare walk that
//   matches nothing is printed too.
// Usage: node bench/fileTools.bench.mjs [--files N] [--runs N]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const FILES = arg('--files', 20_000);
const RUNS = arg('--runs', 9);
const outDir = join(root, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
const entry = join(outDir, 'fileToolsEntry.mjs');
await build({
  entryPoints: [join(root, 'bench', 'fileToolsEntry.ts')],
  outfile: entry,
  bundle: true,
  platform: 'node',
  format: 'esm',
  loader: { '.md': 'text' },
  external: ['sharp', '@vscode/ripgrep'],
  logLevel: 'warning',
});
const { grepTool, globTool, makeToolHarness, defaultRipgrep } = await import(entry);

// The tree: 200 folders × 100 files, a .gitignore'd build folder, ~1 in 50 files mentions the needle.
const h = makeToolHarness();
const tree = h.cwd;
writeFileSync(join(tree, '.gitignore'), 'build/\n');
let n = 0;
for (let d = 0; n < FILES; d++) {
  const dir = join(tree, 'pkg' + (d % 20), 'mod' + d);
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f < 100 && n < FILES; f++, n++) {
    const body =
      `export function fn${n}(a: number): number {\n  return a * ${n};\n}\n` +
      (n % 50 === 0 ? `// TODO needleValue ${n}\n` : '') +
      'const filler = 1;\n'.repeat(20);
    writeFileSync(join(dir, `file${f}.${f % 3 === 0 ? 'tsx' : 'ts'}`), body);
  }
}
mkdirSync(join(tree, 'build'));
for (let i = 0; i < 200; i++) writeFileSync(join(tree, 'build', `out${i}.js`), 'needleValue\n');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn) {
  await fn();
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(samples);
}

const rgPath = (await defaultRipgrep()).path;
const cases = [
  {
    name: 'Grep files_with_matches',
    tool: () => h.run(grepTool, { pattern: 'needleValue', head_limit: 0 }),
    raw: () =>
      spawnSync(rgPath, ['--files-with-matches', '--hidden', 'needleValue', '.'], { cwd: tree, encoding: 'utf8' }),
  },
  {
    name: 'Grep content -n',
    tool: () => h.run(grepTool, { pattern: 'needleValue', output_mode: 'content', head_limit: 0 }),
    raw: () => spawnSync(rgPath, ['-n', '--hidden', 'needleValue', '.'], { cwd: tree, encoding: 'utf8' }),
  },
  {
    name: 'Grep count_matches -i',
    tool: () => h.run(grepTool, { pattern: 'NEEDLEVALUE', '-i': true, output_mode: 'count_matches', head_limit: 0 }),
    raw: () =>
      spawnSync(rgPath, ['--count-matches', '-i', '--hidden', 'NEEDLEVALUE', '.'], { cwd: tree, encoding: 'utf8' }),
  },
];
const lines = [`tree: ${FILES} files (+200 ignored), runs: ${RUNS} (medians)`];
for (const c of cases) {
  const check = await c.tool();
  if (check.isError) throw new Error(`${c.name}: ${check.text}`);
  const tool = await time(c.tool);
  const raw = await time(async () => c.raw());
  lines.push(
    `${c.name.padEnd(26)} tool ${tool.toFixed(1)} ms, raw rg ${raw.toFixed(1)} ms → ${(tool / raw).toFixed(2)}× (aim ≤ 1.2×)`,
  );
}

function walk(dir, out) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) walk(join(dir, e.name), out);
    else out.push(e.name);
  }
  return out;
}
/** The floor: walk `base` (relative to the tree), keep names ending in `suffix`, stat them, newest first. */
function walkStatSort(base, suffix) {
  const found = [];
  const visit = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) visit(path);
      else if (e.name.endsWith(suffix)) found.push({ path, mtime: statSync(path).mtimeMs });
    }
  };
  visit(join(tree, base));
  return found.sort((a, b) => b.mtime - a.mtime);
}
const globCases = [
  ['Glob **/*.tsx', { pattern: '**/*.tsx' }, '', '.tsx'],
  ['Glob pkg3/**/*.ts', { pattern: 'pkg3/**/*.ts' }, 'pkg3', '.ts'],
];
const walkMs = await time(async () => walk(tree, []));
for (const [name, args, base, suffix] of globCases) {
  const check = await h.run(globTool, args);
  if (check.isError) throw new Error(`${name}: ${check.text}`);
  // Same work: the tool reports as many files as the floor finds (build/ holds only .js files).
  const count = Number(/Found (\d+) files/.exec(check.text)?.[1]);
  if (count !== walkStatSort(base, suffix).length)
    throw new Error(`${name}: the floor finds a different set (${walkStatSort(base, suffix).length} vs ${count})`);
  const floorMs = await time(async () => walkStatSort(base, suffix));
  const tool = await time(() => h.run(globTool, args));
  lines.push(
    `${name.padEnd(26)} tool ${tool.toFixed(1)} ms, floor (walk+match+stat+sort) ${floorMs.toFixed(1)} ms → ${(tool / floorMs).toFixed(2)}× (aim ≤ 1.5×); ` +
      `bare walk of the whole tree ${walkMs.toFixed(1)} ms`,
  );
}
console.log(lines.join('\n'));
writeFileSync(join(outDir, 'fileTools.txt'), `${lines.join('\n')}\n`);
rmSync(join(tree, '..'), { recursive: true, force: true });
