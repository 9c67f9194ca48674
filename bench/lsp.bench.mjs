// Code intelligence (docs/lsp.md): for the real typescript-language-server and pyright on the fixture projects,
//   - each server's cold start (spawn to initialized), median of --runs fresh starts;
//   - how long an Edit's result waits for diagnostics on a warm server (an edit that breaks the types, then its fix),
//     median and p95;
// and `jarvis -p` start-up to the first model request with [lsp] on (default) and off, each as a ratio to
// `node -e 0` measured in the same run: a session that never edits starts no server.
// Usage: node scripts/build.mjs && node bench/lsp.bench.mjs [--runs N]
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { bin, jarvisEnv, loadMockModelServer } from './jarvisChild.mjs';

const root = resolve(import.meta.dirname, '..');
const arg = (name, fallback) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const RUNS = arg('--runs', 5);
const outDir = join(root, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
const entry = join(outDir, 'lspEntry.mjs');
await build({
  entryPoints: [join(root, 'bench', 'lspEntry.ts')],
  outfile: entry,
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'warning',
});
const { LspManager, DEFAULT_LSP_SETTINGS } = await import(entry);

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const p95 = (xs) => sorted(xs)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];
const env = { ...process.env, PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH}` };
const WAIT_MS = 60_000;

function project(name) {
  const dir = mkdtempSync(join(tmpdir(), 'jarvis-bench-lsp-'));
  cpSync(join(root, 'test/fixtures/lsp', name), dir, { recursive: true });
  return dir;
}

function manager(cwd) {
  const notices = [];
  const m = new LspManager(
    { ...DEFAULT_LSP_SETTINGS, diagnosticsWaitMs: WAIT_MS },
    { cwd, env, onNotice: (t) => notices.push(t), trusted: () => true },
  );
  return { m, notices };
}

const cases = [
  {
    name: 'typescript',
    fixture: 'ts-project',
    file: 'src/cart.ts',
    good: 'formatPrice(total)',
    bad: 'formatPrice("x")',
  },
  {
    name: 'pyright',
    fixture: 'py-project',
    file: 'cart.py',
    good: 'format_price(sum(items))',
    bad: 'format_price("x")',
  },
];

for (const c of cases) {
  const cold = [];
  for (let i = 0; i < RUNS; i++) {
    const cwd = project(c.fixture);
    const { m } = manager(cwd);
    const t = performance.now();
    const client = m.clientFor(join(cwd, c.file));
    await client.ready;
    cold.push(performance.now() - t);
    await m.close();
  }
  const cwd = project(c.fixture);
  const { m } = manager(cwd);
  const path = join(cwd, c.file);
  const good = readFileSync(path, 'utf8');
  const bad = good.replace(c.good, c.bad);
  // The first edit opens the file; it is warm-up, not measured.
  await m.errorsAfterEdit(path, good, bad, Date.now() + WAIT_MS);
  await m.errorsAfterEdit(path, bad, good, Date.now() + WAIT_MS);
  const waits = [];
  for (let i = 0; i < RUNS * 2; i++) {
    const [from, to] = i % 2 ? [bad, good] : [good, bad];
    const t = performance.now();
    const errors = await m.errorsAfterEdit(path, from, to, Date.now() + WAIT_MS);
    waits.push(performance.now() - t);
    if (!errors || errors.length !== (i % 2 ? 0 : 1))
      throw new Error(`${c.name}: unexpected ${JSON.stringify(errors)}`);
  }
  await m.close();
  console.log(
    `${c.name}: cold start median ${median(cold).toFixed(0)} ms (range ${sorted(cold)[0].toFixed(0)}–` +
      `${sorted(cold).at(-1).toFixed(0)}); edit diagnostics wait median ${median(waits).toFixed(0)} ms, ` +
      `p95 ${p95(waits).toFixed(0)} ms over ${waits.length} edits`,
  );
}

// Start-up: a session that never edits, [lsp] on and off, against node -e 0, interleaved.
const startMockModelServer = await loadMockModelServer();
const server = await startMockModelServer({ script: () => ({ text: 'ok' }) });
function workspace(lspOn) {
  const dir = mkdtempSync(join(tmpdir(), 'jarvis-bench-lsp-start-'));
  const ws = { dir, home: join(dir, 'home'), cwd: join(dir, 'work') };
  mkdirSync(ws.home, { recursive: true });
  cpSync(join(root, 'test/fixtures/lsp/ts-project'), ws.cwd, { recursive: true });
  writeFileSync(join(ws.home, 'config.toml'), `[lsp]\nenabled = ${lspOn}\n`);
  return ws;
}
function firstRequest(ws) {
  return new Promise((resolveRun, reject) => {
    const before = server.requests.length;
    const t = Date.now();
    const child = spawn(process.execPath, [bin, '-p', 'hi'], {
      cwd: ws.cwd,
      env: jarvisEnv(ws, server),
      stdio: 'ignore',
    });
    child.on('close', (code) => {
      if (code !== 0 || server.requests.length <= before) return reject(new Error(`jarvis -p exited ${code}`));
      resolveRun(server.requests[before].at - t);
    });
  });
}
function nodeFloor() {
  return new Promise((resolveRun) => {
    const t = performance.now();
    spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }).on('close', () => resolveRun(performance.now() - t));
  });
}
const on = workspace(true);
const off = workspace(false);
const times = { floor: [], on: [], off: [] };
for (let i = 0; i < RUNS; i++) {
  times.floor.push(await nodeFloor());
  times.on.push(await firstRequest(on));
  times.off.push(await firstRequest(off));
}
await server.close();
const floor = median(times.floor);
console.log(
  `start-up to first request: node -e 0 ${floor.toFixed(0)} ms; [lsp] on ${median(times.on).toFixed(0)} ms ` +
    `(${(median(times.on) / floor).toFixed(2)}x); [lsp] off ${median(times.off).toFixed(0)} ms ` +
    `(${(median(times.off) / floor).toFixed(2)}x); on/off ${(median(times.on) / median(times.off)).toFixed(2)}`,
);
