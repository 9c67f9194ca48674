// The cost of the rewind snapshots (docs/sessions.md "Rewind"): one scripted editing task through
// `jarvis -p` against the loopback mock model, run alternately with `[rewind] snapshots = false` (the
// baseline, in the same run) and with the default (copies before every write). Reports the wall time
// and the session folder's size on disk as ratios against the baseline, and what one `jarvis rewind`
// of that task costs next to `jarvis --version`.
// Usage: node scripts/build.mjs && node bench/rewind.bench.mjs [--runs N]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, jarvisEnv as env, loadMockModelServer, outDir, runJarvisChild } from './jarvisChild.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 7;
const startMockModelServer = await loadMockModelServer();
const runChild = async (args, opts) => (await runJarvisChild(args, opts)).wall;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

const MODULES = 20;
/** A 2 KiB module; and one 512 KiB generated file, the kind an agent edits in a big repository. */
const moduleText = (i) => `export function f${i}(x: number) {\n  return x + ${i};\n}\n`.repeat(40);
const bigText = Array.from(
  { length: 8192 },
  (_, i) => `export const value${i} = ${i}; // generated line ${String(i).padStart(6, '0')}\n`,
).join('');

function resetTree(cwd) {
  rmSync(join(cwd, 'src'), { recursive: true, force: true });
  mkdirSync(join(cwd, 'src'), { recursive: true });
  for (let i = 0; i < MODULES; i++) writeFileSync(join(cwd, 'src', `mod${i}.ts`), moduleText(i));
  writeFileSync(join(cwd, 'src', 'generated.ts'), bigText);
}

function workspace(snapshots) {
  const dir = mkdtempSync(join(tmpdir(), 'jarvis-bench-rewind-'));
  const home = join(dir, 'home');
  const cwd = join(dir, 'work');
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(home, 'config.toml'), `[rewind]\nsnapshots = ${snapshots}\n`);
  return { dir, home, cwd };
}

/** Eight model steps: read and edit eight modules twice over, edit the big file, create three files, run a command. */
function task() {
  const steps = [{ toolCalls: [{ name: 'Glob', arguments: { pattern: 'src/**/*.ts' } }] }];
  steps.push({
    toolCalls: [
      ...Array.from({ length: 8 }, (_, i) => ({ name: 'Read', arguments: { path: `src/mod${i}.ts`, n_lines: 5 } })),
      { name: 'Read', arguments: { path: 'src/generated.ts', n_lines: 5 } },
    ],
  });
  steps.push({
    toolCalls: Array.from({ length: 8 }, (_, i) => ({
      name: 'Edit',
      arguments: {
        path: `src/mod${i}.ts`,
        old_string: `return x + ${i};`,
        new_string: `return x + ${i} + 1;`,
        replace_all: true,
      },
    })),
  });
  steps.push({
    toolCalls: [
      {
        name: 'Edit',
        arguments: {
          path: 'src/generated.ts',
          old_string: 'export const value42 = 42;',
          new_string: 'export const value42 = 4242;',
        },
      },
    ],
  });
  steps.push({
    toolCalls: Array.from({ length: 3 }, (_, i) => ({
      name: 'Write',
      arguments: { path: `src/new${i}.ts`, content: moduleText(100 + i) },
    })),
  });
  steps.push({
    toolCalls: Array.from({ length: 8 }, (_, i) => ({
      name: 'Edit',
      arguments: {
        path: `src/mod${i}.ts`,
        old_string: `return x + ${i} + 1;`,
        new_string: `return x - ${i};`,
        replace_all: true,
      },
    })),
  });
  steps.push({ toolCalls: [{ name: 'Bash', arguments: { command: 'grep -c "x - " src/mod1.ts' } }] });
  steps.push({ text: 'Changed the modules, the generated file and added three new ones.' });
  return steps;
}

/** Bytes of the files under `dir` (their sizes; block rounding differs between file systems). */
function diskBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += diskBytes(path);
    else total += statSync(path).size;
  }
  return total;
}

function onlySession(home) {
  const base = join(home, 'sessions');
  const [key] = readdirSync(base);
  const ids = readdirSync(join(base, key)).sort();
  return join(base, key, ids.at(-1));
}

const treeBytes = 8 * Buffer.byteLength(moduleText(0)) + Buffer.byteLength(bigText);
const server = await startMockModelServer();
const spaces = { off: workspace(false), on: workspace(true) };
const results = { off: [], on: [] };
for (let i = 0; i <= runs; i++) {
  // Alternate, so load on the machine falls on both alike; the first round warms the file cache.
  for (const kind of i % 2 ? ['on', 'off'] : ['off', 'on']) {
    const ws = spaces[kind];
    resetTree(ws.cwd);
    rmSync(join(ws.home, 'sessions'), { recursive: true, force: true });
    server.push(...task());
    const wall = await runChild(['-p', 'rework the modules'], { cwd: ws.cwd, env: env(ws, server) });
    const session = onlySession(ws.home);
    let history = 0;
    try {
      history = diskBytes(join(session, 'file-history'));
    } catch {
      // no copies (the baseline)
    }
    if (i > 0) results[kind].push({ wall, disk: diskBytes(session), history });
  }
}

// The rewind of that task (files only): restores 12 files, removes 3.
const rewindWalls = [];
const versionWalls = [];
for (let i = 0; i < runs; i++) {
  const ws = spaces.on;
  resetTree(ws.cwd);
  rmSync(join(ws.home, 'sessions'), { recursive: true, force: true });
  server.push(...task());
  await runChild(['-p', 'rework the modules'], { cwd: ws.cwd, env: env(ws, server) });
  rewindWalls.push(await runChild(['rewind', '--files-only'], { cwd: ws.cwd, env: env(ws, server) }));
  const t = process.hrtime.bigint();
  spawnSync(process.execPath, [bin, '--version'], { stdio: 'ignore' });
  versionWalls.push(Number(process.hrtime.bigint() - t) / 1e6);
}
await server.close();
for (const ws of Object.values(spaces)) rmSync(ws.dir, { recursive: true, force: true });

const m = (kind, field) => median(results[kind].map((r) => r[field]));
const wallOff = m('off', 'wall');
const wallOn = m('on', 'wall');
const diskOff = m('off', 'disk');
const diskOn = m('on', 'disk');
const historyOn = m('on', 'history');
const rewindWall = median(rewindWalls);
const versionWall = median(versionWalls);
const steps = task();
const writes = steps.flatMap((s) => s.toolCalls ?? []).filter((c) => c.name === 'Edit' || c.name === 'Write').length;
const lines = [
  `runs: ${runs} per variant, alternating (medians); task: ${steps.length} model steps, ${writes} writes (16 edits of 2 KiB modules, 1 edit of a 512 KiB file, 3 new files) and 1 command`,
  `wall: snapshots off ${wallOff.toFixed(1)} ms, on ${wallOn.toFixed(1)} ms → ${(wallOn / wallOff).toFixed(3)}× the baseline`,
  `session folder on disk: off ${kib(diskOff)}, on ${kib(diskOn)} (of which file-history ${kib(historyOn)}) → ${(diskOn / diskOff).toFixed(2)}× the baseline; the copies are ${(historyOn / treeBytes).toFixed(2)}× the ${kib(treeBytes)} of files the task changed`,
  `jarvis rewind --files-only of that task: ${rewindWall.toFixed(1)} ms (${(rewindWall / versionWall).toFixed(2)}× jarvis --version, ${versionWall.toFixed(1)} ms)`,
];
console.log(lines.join('\n'));
writeFileSync(join(outDir, 'rewind.txt'), `${lines.join('\n')}\n`);
