// Code intelligence (docs/lsp.md): for the real typescript-language-server and pyright on the fixture projects,
//   - each server's cold start (spawn to initialized), median of --runs fresh starts;
//   - how long an Edit's result waits for diagnostics on a warm server (an edit that breaks the types, then its fix),
//     median and p95;
//   - the first Edit of a session: how long it needs without a warm-up and after the Read warm-up (the server started
//     on the Read, which the model's own time between the calls covers), and how many are checked within the default
//     first_diagnostics_wait_ms;
//   - the check around a Bash command that changes nothing, with a server running and without, against the time of
//     `sh -c true` itself;
// and `jarvis -p` start-up to the first model request with [lsp] on (default) and off in a trusted TypeScript project,
// each as a ratio to `node -e 0` measured in the same run: with [lsp] on the session starts the project's server in
// the background as it opens.
// Usage: node scripts/build.mjs && node bench/lsp.bench.mjs [--runs N]
import { execFileSync, spawn } from 'node:child_process';
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
const { LspManager, DEFAULT_LSP_SETTINGS, lspDiagnosticsExtension, setWorkspaceTrust } = await import(entry);

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
    { ...DEFAULT_LSP_SETTINGS, diagnosticsWaitMs: WAIT_MS, firstDiagnosticsWaitMs: WAIT_MS },
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
  await m.checkEdit(path, good, bad);
  await m.checkEdit(path, bad, good);
  const waits = [];
  for (let i = 0; i < RUNS * 2; i++) {
    const [from, to] = i % 2 ? [bad, good] : [good, bad];
    const t = performance.now();
    const check = await m.checkEdit(path, from, to);
    waits.push(performance.now() - t);
    if (check.kind !== 'checked' || check.errors.length !== (i % 2 ? 0 : 1))
      throw new Error(`${c.name}: unexpected ${JSON.stringify(check)}`);
  }
  await m.close();
  console.log(
    `${c.name}: cold start median ${median(cold).toFixed(0)} ms (range ${sorted(cold)[0].toFixed(0)}–` +
      `${sorted(cold).at(-1).toFixed(0)}); edit diagnostics wait median ${median(waits).toFixed(0)} ms, ` +
      `p95 ${p95(waits).toFixed(0)} ms over ${waits.length} edits`,
  );
}

// The first Edit of a session, without and with the Read warm-up (typescript).
const defaultWait = DEFAULT_LSP_SETTINGS.firstDiagnosticsWaitMs;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(check, what) {
  const end = Date.now() + WAIT_MS;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
const first = { cold: [], warmUp: [], warmed: [], coldInTime: 0, warmedInTime: 0 };
for (let i = 0; i < RUNS; i++) {
  for (const warm of [false, true]) {
    const cwd = project('ts-project');
    const { m } = manager(cwd);
    const path = join(cwd, 'src/cart.ts');
    const good = readFileSync(path, 'utf8');
    if (warm) {
      const t = performance.now();
      m.warm(path);
      const client = m.clientFor(path);
      await until(() => client.published(path) !== undefined, 'the warm-up');
      first.warmUp.push(performance.now() - t);
    }
    const t = performance.now();
    const check = await m.checkEdit(path, good, good.replace('total)', '"x")'));
    const waited = performance.now() - t;
    if (check.kind !== 'checked' || check.errors.length !== 1)
      throw new Error(`first edit: unexpected ${JSON.stringify(check)}`);
    (warm ? first.warmed : first.cold).push(waited);
    if (waited <= defaultWait) first[warm ? 'warmedInTime' : 'coldInTime'] += 1;
    await m.close();
  }
}
console.log(
  `first edit (typescript): without warm-up needs median ${median(first.cold).toFixed(0)} ms ` +
    `(${first.coldInTime}/${RUNS} within the default ${defaultWait} ms); the Read warm-up takes median ` +
    `${median(first.warmUp).toFixed(0)} ms in the background, after it the edit waits median ` +
    `${median(first.warmed).toFixed(0)} ms (${first.warmedInTime}/${RUNS} within ${defaultWait} ms)`,
);

// The check around a Bash command that changes nothing, in a git repository, with the server running and not.
function gitProject() {
  const cwd = project('ts-project');
  const git = (...a) =>
    execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.invalid', ...a], { cwd, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'fixture');
  return cwd;
}
function shTrue() {
  return new Promise((resolveRun) => {
    const t = performance.now();
    spawn('sh', ['-c', 'true'], { stdio: 'ignore' }).on('close', () => resolveRun(performance.now() - t));
  });
}
const bashCheck = { command: [], off: [], on: [] };
{
  const cwd = gitProject();
  const idle = manager(cwd).m;
  const busy = manager(cwd).m;
  const path = join(cwd, 'src/cart.ts');
  const text = readFileSync(path, 'utf8');
  await busy.checkEdit(path, text, `${text}\n`);
  writeFileSync(path, `${text}\n`);
  const ctx = { sessionId: 'bench', agentId: 'main', cwd, signal: new AbortController().signal };
  const result = { content: 'Exit code: 0\n(no output)' };
  const call = {
    callId: 'b',
    toolName: 'Bash',
    subject: 'Bash(x)',
    args: { command: 'x' },
    accesses: [],
    readOnly: false,
  };
  const outcome = { text: result.content, isError: false, result };
  const check = async (m) => {
    const ext = lspDiagnosticsExtension(m);
    const t = performance.now();
    await ext.beforeToolRun(call, ctx);
    const after = await ext.afterToolCall(call, outcome, ctx);
    if (after !== undefined) throw new Error(`bash check: unexpected ${JSON.stringify(after)}`);
    return performance.now() - t;
  };
  for (let i = 0; i < RUNS * 4; i++) {
    bashCheck.command.push(await shTrue());
    bashCheck.off.push(await check(idle));
    bashCheck.on.push(await check(busy));
  }
  await Promise.all([idle.close(), busy.close()]);
}
const cmd = median(bashCheck.command);
console.log(
  `bash check per command that changes nothing: sh -c true ${cmd.toFixed(1)} ms; no server running ` +
    `${median(bashCheck.off).toFixed(2)} ms (${(median(bashCheck.off) / cmd).toFixed(2)}x); server running ` +
    `${median(bashCheck.on).toFixed(1)} ms (${(median(bashCheck.on) / cmd).toFixed(2)}x), ` +
    `p95 ${p95(bashCheck.on).toFixed(1)} ms over ${bashCheck.on.length} commands`,
);

// Start-up: a session that never edits, [lsp] on and off, against node -e 0, interleaved.
const startMockModelServer = await loadMockModelServer();
const server = await startMockModelServer({ script: () => ({ text: 'ok' }) });
function workspace(lspOn) {
  const dir = mkdtempSync(join(tmpdir(), 'jarvis-bench-lsp-start-'));
  const ws = { dir, home: join(dir, 'home'), cwd: join(dir, 'work') };
  mkdirSync(ws.home, { recursive: true });
  cpSync(join(root, 'test/fixtures/lsp/ts-project'), ws.cwd, { recursive: true });
  writeFileSync(join(ws.home, 'config.toml'), `[lsp]\nenabled = ${lspOn}\n`);
  setWorkspaceTrust(ws.home, ws.cwd, true);
  return ws;
}
function firstRequest(ws) {
  return new Promise((resolveRun, reject) => {
    const before = server.requests.length;
    const t = Date.now();
    const child = spawn(process.execPath, [bin, '-p', 'hi'], {
      cwd: ws.cwd,
      env: jarvisEnv(ws, server, { PATH: env.PATH }),
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
