// Trust boundary benchmark (docs/trust-boundary.md "Cost"): what the session's boundary adds to one command on a
// 25 000-file workspace.
//   (a) per command: preparing the boundary (the workspace index brought up to date by re-reading changed folders,
//       the policy, the bubblewrap arguments), running `bash -c true` inside bwrap the way Bash does (spawnShell: the
//       seccomp filter through a pipe) and settling after it, against a plain `bash -c true` spawned the same way in
//       the same run, interleaved — median and p95 of each and of the difference;
//       the same with one file created between commands (a changed folder re-read);
//   (b) the session's one-time set-up: the first walk of the workspace (warmUp) and the bwrap probe;
//   (c) for scale, one full walk of the workspace (what a search before every command would cost).
// Target: at most 30 ms added per command. Usage: node bench/boundary.bench.mjs [--runs N]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importEntry, median, ms, p95, runsFromArgs } from './benchStats.mjs';

const RUNS = runsFromArgs(41);
const { CommandBoundary, DEFAULT_SANDBOX_SETTINGS, probeBwrap, spawnShell } = await importEntry('boundaryEntry');
const ended = (child) => new Promise((done) => child.on('close', done));

const now = () => process.hrtime.bigint();
const since = (t) => Number(process.hrtime.bigint() - t) / 1e6;
let t = now();
const probe = probeBwrap();
const probeMs = since(t);
if (!probe.ok) {
  console.log(`boundary benchmark skipped: ${probe.reason}`);
  process.exit(0);
}

// 25 000 files: 50 packages of 10 folders of 50 files, secrets in some, a nested repository, node_modules skipped.
const dir = mkdtempSync(join(tmpdir(), 'jarvis-boundary-bench-'));
const ws = join(dir, 'ws');
const home = join(dir, 'home');
const jarvis = join(home, '.jarvis-code');
const scratch = join(jarvis, 'sessions', 'p', 's');
for (let p = 0; p < 50; p++) {
  for (let d = 0; d < 10; d++) {
    const folder = join(ws, `pkg${p}`, 'src', `d${d}`);
    mkdirSync(folder, { recursive: true });
    for (let f = 0; f < 50; f++) writeFileSync(join(folder, `f${f}.ts`), 'x');
  }
  if (p % 10 === 0) writeFileSync(join(ws, `pkg${p}`, '.env'), 'K=v');
}
mkdirSync(join(ws, 'node_modules', 'dep'), { recursive: true });
mkdirSync(scratch, { recursive: true });
spawnSync('git', ['init', '-q'], { cwd: ws });
spawnSync('git', ['init', '-q'], { cwd: join(ws, 'pkg7') });
// A workspace as it is when a session starts: not changed in the last seconds (a folder changed within the file
// system's clock granularity is read again at every command, workspaceIndex.ts).
const anHourAgo = new Date(Date.now() - 3_600_000);
for (const queue = [ws]; queue.length;) {
  const folder = queue.pop();
  utimesSync(folder, anHourAgo, anHourAgo);
  for (const e of readdirSync(folder, { withFileTypes: true })) if (e.isDirectory()) queue.push(join(folder, e.name));
}

const folders = { workspace: [ws], scratch, jarvisHome: jarvis, home };
const boundary = new CommandBoundary(DEFAULT_SANDBOX_SETTINGS, folders);
t = now();
await boundary.warmUp();
const setupMs = since(t);

t = now();
let walked = 0;
for (const queue = [ws]; queue.length;) {
  const folder = queue.pop();
  for (const e of readdirSync(folder, { withFileTypes: true })) {
    walked++;
    if (e.isDirectory() && e.name !== 'node_modules' && e.name !== '.git') queue.push(join(folder, e.name));
  }
}
const walkMs = since(t);

const MINIMAL = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '--die-with-parent'];

async function measure(between) {
  const plain = [];
  const boxed = [];
  const added = [];
  const prepare = [];
  const settle = [];
  const minimal = [];
  for (let i = 0; i < RUNS; i++) {
    between?.(i);
    // Interleaved, so load on the machine falls on both alike.
    t = now();
    await ended(spawnShell('true', { cwd: ws }));
    plain.push(since(t));
    t = now();
    const run = await boundary.prepare({ command: 'true', cwd: ws });
    prepare.push(since(t));
    await ended(spawnShell('true', { cwd: ws, sandbox: run.spawn }));
    const s = now();
    run.settle();
    settle.push(since(s));
    boxed.push(since(t));
    added.push(boxed[i] - plain[i]);
    // bubblewrap itself, with the fewest mounts a sandbox needs: what any sandbox costs before the boundary's policy.
    t = now();
    await ended(spawn('bwrap', [...MINIMAL, '--', 'bash', '-c', 'true'], { cwd: ws, stdio: 'ignore' }));
    minimal.push(since(t));
  }
  return { plain, boxed, added, prepare, settle, minimal };
}

const steady = await measure();
const changing = await measure((i) => writeFileSync(join(ws, `pkg${i % 50}`, 'src', `new${i}.ts`), 'x'));
await boundary.close();
rmSync(dir, { recursive: true, force: true });

const line = (label, xs) => console.log(`${label.padEnd(44)} median ${ms(median(xs))}, p95 ${ms(p95(xs))}`);
console.log(`workspace: ${walked} entries; ${RUNS} runs each`);
line('plain bash -c true:', steady.plain);
line('through the boundary (prepare+bwrap+settle):', steady.boxed);
line('  of which prepare:', steady.prepare);
line('  of which settle:', steady.settle);
line('for scale, bwrap with the fewest mounts:', steady.minimal);
line('added per command (target ≤ 30 ms):', steady.added);
line('added, a file created before each command:', changing.added);
console.log(`ratio boundary / plain: ${(median(steady.boxed) / median(steady.plain)).toFixed(2)}×`);
console.log(`one-time set-up: first walk of the workspace ${ms(setupMs)}, bwrap probe ${ms(probeMs)}`);
console.log(`for scale, one full walk of the workspace (no masks): ${ms(walkMs)}`);
