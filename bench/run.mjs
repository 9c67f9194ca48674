// Spine benchmarks. Prints figures and ratios against baselines measured in the same run.
//   (a) start-up: `jarvis --version` and `jarvis -p` until its first model request, vs `node -e 0`
//   (b) a scripted six-step task against the loopback mock model: wall time, CPU seconds, peak RSS,
//       and the size of the first request (system prompt + tool schemas)
// Usage: npm run bench   (builds first)   — options: --runs N
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, jarvisEnv as env, loadMockModelServer, outDir, runJarvisChild as runChild } from './jarvisChild.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 15;
const startMockModelServer = await loadMockModelServer();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1)} ms`;

function timeSync(cmd, args, opts = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: 'ignore', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

function sample(fn) {
  fn(); // warm the file cache
  return median(Array.from({ length: runs }, fn));
}

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'jarvis-bench-'));
  const home = join(dir, 'home');
  const cwd = join(dir, 'work');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(cwd, 'src'), { recursive: true });
  for (let i = 0; i < 40; i++)
    writeFileSync(
      join(cwd, 'src', `mod${i}.ts`),
      `export function f${i}(x: number) {\n  return x + ${i};\n}\n`.repeat(20),
    );
  writeFileSync(join(cwd, 'src', 'config.ts'), 'export const retries = 3;\nexport const timeoutMs = 1000;\n');
  return { dir, home, cwd };
}

const server = await startMockModelServer();
const ws = workspace();

// (a) start-up
const nodeBaseline = sample(() => timeSync(process.execPath, ['-e', '0']));
const version = sample(() => timeSync(process.execPath, [bin, '--version']));
const toFirstRequest = [];
for (let i = 0; i <= runs; i++) {
  server.push({ text: 'ok' });
  const before = server.requests.length;
  const { t0 } = await runChild(['-p', 'hi'], { cwd: ws.cwd, env: env(ws, server) });
  const firstAt = server.requests[before].at; // Date.now() in this process
  const spawnedAt = Date.now() - Number(process.hrtime.bigint() - t0) / 1e6;
  if (i > 0) toFirstRequest.push(firstAt - spawnedAt);
}
const firstReq = median(toFirstRequest);

// (b) the scripted six-step task
const task = [
  { toolCalls: [{ name: 'Glob', arguments: { pattern: 'src/**/*.ts' } }] },
  { toolCalls: [{ name: 'Grep', arguments: { pattern: 'retries', output_mode: 'content' } }] },
  {
    toolCalls: [
      { name: 'Read', arguments: { path: 'src/config.ts' } },
      { name: 'Read', arguments: { path: 'src/mod1.ts', n_lines: 20 } },
    ],
  },
  {
    toolCalls: [
      { name: 'Edit', arguments: { path: 'src/config.ts', old_string: 'retries = 3', new_string: 'retries = 5' } },
    ],
  },
  { toolCalls: [{ name: 'Bash', arguments: { command: 'grep -c retries src/config.ts' } }] },
  { text: 'Raised retries from 3 to 5 in src/config.ts and checked it.' },
];
const taskRuns = [];
for (let i = 0; i < Math.max(5, Math.floor(runs / 2)); i++) {
  writeFileSync(join(ws.cwd, 'src', 'config.ts'), 'export const retries = 3;\nexport const timeoutMs = 1000;\n');
  server.push(...task);
  const before = server.requests.length;
  const diag = join(ws.dir, `diag-${i}.json`);
  const { wall } = await runChild(['-p', 'raise the retries to 5'], {
    cwd: ws.cwd,
    env: env(ws, server, { JARVIS_DIAGNOSTICS_FILE: diag }),
  });
  const usage = JSON.parse(readFileSync(diag, 'utf8'));
  taskRuns.push({
    wall,
    cpu: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
    rssMiB: usage.maxRSS / 1024,
    firstBytes: Buffer.byteLength(JSON.stringify(server.requests[before].body)),
    steps: server.requests.length - before,
  });
}
const commandWall = sample(() => timeSync('bash', ['-c', 'grep -c retries src/config.ts'], { cwd: ws.cwd }));
await server.close();
rmSync(ws.dir, { recursive: true, force: true });

const t = {
  wall: median(taskRuns.map((r) => r.wall)),
  cpu: median(taskRuns.map((r) => r.cpu)),
  rss: Math.max(...taskRuns.map((r) => r.rssMiB)),
  firstBytes: taskRuns[0].firstBytes,
  steps: taskRuns[0].steps,
};
const lines = [
  `runs: ${runs} (medians)`,
  `node -e 0:                      ${ms(nodeBaseline)}`,
  `jarvis --version:               ${ms(version)}  (${(version / nodeBaseline).toFixed(2)}× node -e 0; aim ≤ 1.5×)`,
  `jarvis -p → first model request: ${ms(firstReq)}  (${(firstReq / nodeBaseline).toFixed(2)}× node -e 0)`,
  `six-step task (${t.steps} model requests): wall ${ms(t.wall)}, of which its command ≈ ${ms(commandWall)}; harness ≈ ${ms(t.wall - commandWall)} (aim ≤ 1200 ms)`,
  `six-step task: CPU ${t.cpu.toFixed(2)} s, peak RSS ${t.rss.toFixed(1)} MiB (aim ≤ 120 MiB)`,
  `first request: ${t.firstBytes} bytes = ${(t.firstBytes / 1024).toFixed(1)} KiB (aim ≤ 24 KiB)`,
];
console.log(lines.join('\n'));
writeFileSync(join(outDir, 'spine.txt'), `${lines.join('\n')}\n`);
