// UI benchmarks. Prints plain figure lines.
//   (a) frame cost with a 30 000-line transcript: while an answer streams, and steady (spinner only)
//   (b) idle CPU of the real binary over 10 s with the UI open in tmux (/proc/<pid>/stat)
//   (c) RSS of the real binary across a long scripted session (many turns), sampled as it grows, and
//       the JS heap after a forced full GC at the same points (a preload answers SIGUSR2 with
//       gc() + process.memoryUsage()): RSS moves with GC timing by tens of KiB per turn either way,
//       the heap after GC is what the session really keeps
// Usage: node scripts/build.mjs && node bench/tui.bench.mjs [--turns N] [--idle-seconds S]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const arg = (name, fallback) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const turns = arg('--turns', 150);
const idleSeconds = arg('--idle-seconds', 10);
const outDir = join(root, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
const bundle = (entry, out) =>
  build({
    entryPoints: [join(root, entry)],
    outfile: join(outDir, out),
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
    loader: { '.md': 'text' },
    external: ['@mariozechner/pi-tui', 'cli-highlight'],
    nodePaths: [join(root, 'node_modules')],
  });
await bundle('bench/tuiBenchEntry.ts', 'tuiBenchEntry.mjs');
await bundle('test/helpers/mockModelServer.ts', 'mockModelServer.mjs');

// (a) frames — run in-process (the bundle resolves pi-tui from the project's node_modules).
const { measureFrames } = await import(join(outDir, 'tuiBenchEntry.mjs'));
measureFrames(3000, 100); // warm up the JIT
const f = measureFrames(30_000, 400);
console.log(`tui frame: transcript ${f.transcriptLines} lines`);
console.log(
  `tui frame: streaming ${f.streamingFrameMs.toFixed(3)} ms/frame (${Math.round(f.bytesPerStreamingFrame)} bytes written per frame)`,
);
console.log(`tui frame: steady (spinner) ${f.steadyFrameMs.toFixed(3)} ms/frame`);
console.log(`tui frame: unchanged ${f.idleFrameMs.toFixed(4)} ms/frame (nothing written)`);
console.log(`tui frame: full reprint (resize / ctrl+o) ${f.reprintMs.toFixed(1)} ms`);

// (b) and (c) need tmux and the built binary.
let hasTmux = true;
try {
  execFileSync('tmux', ['-V'], { stdio: 'ignore' });
} catch {
  hasTmux = false;
}
if (!hasTmux) {
  console.log('tui idle/rss: skipped (tmux is not installed)');
  process.exit(0);
}

const { startMockModelServer } = await import(join(outDir, 'mockModelServer.mjs'));
const memProbe = join(outDir, 'memProbe.mjs');
const memLog = join(outDir, 'memProbe.log');
writeFileSync(
  memProbe,
  `import { appendFileSync } from 'node:fs';
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  globalThis.gc?.();
  const m = process.memoryUsage();
  appendFileSync(process.env.JARVIS_BENCH_MEM_LOG, JSON.stringify({ heapUsed: m.heapUsed, rss: m.rss }) + '\\n');
});
`,
);
rmSync(memLog, { force: true });
const answer = (n) => ({
  text: `Answer ${n}: ${'lorem ipsum dolor sit amet '.repeat(12)}\n\n- point one\n- point two\n\n\`\`\`js\nconsole.log(${n});\n\`\`\`\nDone ${n}.`,
});
const server = await startMockModelServer({ script: (_req, i) => answer(i) });
const dir = mkdtempSync(join(tmpdir(), 'jarvis-tui-bench-'));
const home = join(dir, 'home');
const cwd = join(dir, 'work');
mkdirSync(home, { recursive: true });
mkdirSync(cwd, { recursive: true });
// Pre-answer the trust prompt so the UI opens straight to the input box.
writeFileSync(
  join(home, 'trusted_workspaces.json'),
  JSON.stringify({ version: 1, workspaces: { [cwd]: { trusted: false, decidedAt: new Date().toISOString() } } }),
);
const socket = `jarvis-tui-bench-${process.pid}`;
const tmux = (...a) => execFileSync('tmux', ['-L', socket, ...a], { encoding: 'utf8' });
const env = {
  JARVIS_CODE_HOME: home,
  JARVIS_MEMORY_EXTRACTION_ENABLED: 'false',
  JARVIS_MODEL_NAME: 'any',
  JARVIS_MODEL_API_KEY: 'k',
  JARVIS_MODEL_PROVIDER_TYPE: 'openai',
  JARVIS_MODEL_BASE_URL: server.baseUrlFor('openai'),
  TERM: 'xterm-256color',
  NODE_OPTIONS: `--expose-gc --import=${memProbe}`,
  JARVIS_BENCH_MEM_LOG: memLog,
};
const envText = Object.entries(env)
  .map(([k, v]) => `${k}='${v}'`)
  .join(' ');
tmux(
  '-f',
  '/dev/null',
  'new-session',
  '-d',
  '-s',
  'b',
  '-x',
  '120',
  '-y',
  '40',
  '-c',
  cwd,
  `exec env ${envText} ${process.execPath} ${join(root, 'bin', 'jarvis')}`,
);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const screen = () => tmux('capture-pane', '-p', '-t', 'b');
async function waitFor(text, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (screen().includes(text)) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${text}\n${screen()}`);
}
try {
  await waitFor('manual · any');
  const pid = Number(tmux('display-message', '-p', '-t', 'b', '#{pane_pid}').trim());
  const ticks = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks
  };
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  const hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  await sleep(2000); // let start-up work (terminal queries, lazy imports) settle
  const c0 = ticks();
  const perSecond = [];
  for (let s = 0; s < idleSeconds; s++) {
    const before = ticks();
    await sleep(1000);
    perSecond.push(ticks() - before);
  }
  const idleCpu = (ticks() - c0) / hz;
  console.log(
    `tui idle: ${(idleCpu * 1000).toFixed(0)} ms CPU over ${idleSeconds} s with the UI open (${((idleCpu / idleSeconds) * 100).toFixed(2)}% of a core; clock ticks per second: ${perSecond.join(' ')})`,
  );

  const rssAt = [];
  const heapAt = [];
  /** The JS heap after a full GC, MiB (the preload writes one line per SIGUSR2). */
  const heapAfterGc = async () => {
    const lines = () => (existsSync(memLog) ? readFileSync(memLog, 'utf8').trim().split('\n').filter(Boolean) : []);
    const before = lines().length;
    process.kill(pid, 'SIGUSR2');
    const deadline = Date.now() + 5000;
    while (lines().length === before && Date.now() < deadline) await sleep(20);
    const last = lines()[before];
    return last ? JSON.parse(last).heapUsed / 1048576 : NaN;
  };
  console.log(`tui rss: at start ${rss().toFixed(1)} MiB`);
  const t0 = Date.now();
  for (let n = 0; n < turns; n++) {
    tmux('send-keys', '-t', 'b', '-l', `prompt ${n}`);
    tmux('send-keys', '-t', 'b', 'Enter');
    await waitFor(`Done ${n}.`);
    if ((n + 1) % Math.max(1, Math.floor(turns / 6)) === 0 || n === turns - 1) {
      rssAt.push([n + 1, rss()]);
      heapAt.push([n + 1, await heapAfterGc()]);
    }
  }
  const secs = (Date.now() - t0) / 1000;
  for (const [n, r] of rssAt) console.log(`tui rss: after ${n} turns ${r.toFixed(1)} MiB`);
  const [n1, r1] = rssAt[Math.floor(rssAt.length / 2) - 1] ?? rssAt[0];
  const [n2, r2] = rssAt[rssAt.length - 1];
  console.log(
    `tui rss: growth ${(((r2 - r1) * 1024) / Math.max(1, n2 - n1)).toFixed(1)} KiB per turn between turn ${n1} and ${n2} (each turn adds ~${(answer(0).text.length / 1024).toFixed(1)} KiB of answer text to the transcript)`,
  );
  for (const [n, h] of heapAt) console.log(`tui heap after gc: after ${n} turns ${h.toFixed(2)} MiB`);
  const [h1n, h1] = heapAt[Math.floor(heapAt.length / 2) - 1] ?? heapAt[0];
  const [h2n, h2] = heapAt[heapAt.length - 1];
  console.log(
    `tui heap after gc: growth ${(((h2 - h1) * 1024) / Math.max(1, h2n - h1n)).toFixed(1)} KiB per turn between turn ${h1n} and ${h2n}`,
  );
  console.log(
    `tui session: ${turns} turns in ${secs.toFixed(1)} s (${((secs * 1000) / turns).toFixed(0)} ms per turn incl. polling)`,
  );
} finally {
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
