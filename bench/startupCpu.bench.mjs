// CPU time (user + system) from spawn to the first model request, this build against another one, on a warm home
// (issue 44, "Start-up on a new machine"). Wall times on the shared 2-core machine follow its load; the CPU a start
// spends before its first request moves far less, so this is the figure to compare two builds by. Each child runs
// with an --import hook that wraps fetch and writes process.cpuUsage() to stderr at its first call; the two builds
// run interleaved, each in its own warm home (two uncounted runs first).
//   node scripts/build.mjs && node bench/startupCpu.bench.mjs --against <folder holding bin/jarvis and dist/> [--runs N]
// Keep a copy of an earlier build to compare with: `mkdir -p bench/results/before && cp -r bin dist bench/results/before/`.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bin, jarvisEnv, loadMockModelServer } from './jarvisChild.mjs';

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const runs = Number(arg('--runs')) || 11;
const against = arg('--against');
if (!against || !existsSync(join(against, 'bin', 'jarvis'))) {
  console.error('usage: node bench/startupCpu.bench.mjs --against <folder holding bin/jarvis and dist/> [--runs N]');
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), 'jarvis-bench-cpu-'));
const hook = join(scratch, 'firstFetchCpu.mjs');
writeFileSync(
  hook,
  [
    "import { writeSync } from 'node:fs';",
    'const original = globalThis.fetch;',
    'let seen = false;',
    'globalThis.fetch = function fetch(...args) {',
    '  if (!seen) {',
    '    seen = true;',
    '    const { user, system } = process.cpuUsage();',
    '    writeSync(2, `\\nfirst-request-cpu-us ${user + system}\\n`);',
    '  }',
    '  return original.apply(this, args);',
    '};',
    '',
  ].join('\n'),
);

const startMockModelServer = await loadMockModelServer();
const server = await startMockModelServer({ script: () => ({ text: 'ok' }) });

function warmHome(name) {
  const dir = join(scratch, name);
  const ws = { dir, home: join(dir, 'home'), cwd: join(dir, 'work') };
  mkdirSync(ws.home, { recursive: true });
  mkdirSync(ws.cwd, { recursive: true });
  return ws;
}

/** Runs `jarvis -p hi`; resolves with the CPU ms it had used when it made its first request. */
function cpuToFirstRequest(program, ws) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', hook, program, '-p', 'hi'], {
      cwd: ws.cwd,
      env: jarvisEnv(ws, server),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      const found = /first-request-cpu-us (\d+)/.exec(err);
      if (code !== 0 || !found)
        return reject(new Error(`${program} exited ${code} with no request: ${err.slice(-800)}`));
      resolvePromise(Number(found[1]) / 1000);
    });
  });
}

const builds = [
  ['this build', bin, warmHome('this')],
  [`--against ${against}`, join(resolve(against), 'bin', 'jarvis'), warmHome('against')],
];
for (const [, program, ws] of builds) for (let i = 0; i < 2; i++) await cpuToFirstRequest(program, ws);
const samples = builds.map(() => []);
for (let i = 0; i < runs; i++)
  for (const [b, [, program, ws]] of builds.entries()) samples[b].push(await cpuToFirstRequest(program, ws));
await server.close();
rmSync(scratch, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`CPU (user + system) from spawn to the first model request, warm home (median of ${runs}, interleaved)`);
for (const [b, [name]] of builds.entries())
  console.log(`  ${name}: ${median(samples[b]).toFixed(0)} ms (${samples[b].map((x) => x.toFixed(0)).join(' ')})`);
console.log(`this build: ${(median(samples[0]) / median(samples[1])).toFixed(2)}× the other's CPU (below 1.00 = less)`);
