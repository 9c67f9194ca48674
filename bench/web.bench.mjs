// The web UI's cost (docs/web.md "Size and first paint"): the bundle `jarvis web` serves (raw and gzip bytes of each
// file in dist/web), and its first paint on the loopback — Chromium's `first-contentful-paint` of the UI opened with
// a one-time link, and the time until its session list is drawn — against two plain pages in the same run and the
// same browser: the server's own `GET /api/v1/healthz` (JSON) and a minimal HTML page this bench serves itself.
// Runs are interleaved (baseline, health, UI) so load on the machine hits all three alike.
// Usage: node scripts/build.mjs && node bench/web.bench.mjs [--runs N]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { median, ms, p95, runsFromArgs } from './benchStats.mjs';
import { loadMockModelServer, root, startJarvisServer } from './jarvisChild.mjs';

const RUNS = runsFromArgs(11);

// 1. The bundle.
const web = join(root, 'dist', 'web');
const files = ['index.html', ...readdirSync(join(web, 'assets')).map((f) => join('assets', f))].map((f) => {
  const bytes = readFileSync(join(web, f));
  return { file: f, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
});
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log('bundle (dist/web):');
for (const f of files)
  console.log(`  ${f.file.padEnd(28)} ${kb(f.raw).padStart(9)} raw  ${kb(f.gzip).padStart(8)} gzip`);
const total = files.reduce((a, f) => ({ raw: a.raw + f.raw, gzip: a.gzip + f.gzip }), { raw: 0, gzip: 0 });
console.log(`  ${'total'.padEnd(28)} ${kb(total.raw).padStart(9)} raw  ${kb(total.gzip).padStart(8)} gzip`);

// 2. First paint.
const startMockModelServer = await loadMockModelServer();
const dir = mkdtempSync(join(tmpdir(), 'jarvis-web-bench-'));
const ws = { home: join(dir, 'home'), cwd: join(dir, 'work') };
mkdirSync(ws.home, { recursive: true });
mkdirSync(ws.cwd, { recursive: true });
const model = await startMockModelServer({ script: () => ({ text: 'ok' }) });
const { child, url, token } = await startJarvisServer('web', ws, model, ['--no-open']);

async function link() {
  const res = await fetch(`${url}/api/v1/auth/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const env = await res.json();
  if (env.code !== 0) throw new Error(`no login link: ${env.msg}`);
  return env.data.url;
}

// The plain page: one heading and a line of text, no script, no style sheet.
const plain = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end('<!doctype html><html lang="en"><title>plain</title><h1>Jarvis</h1><p>A plain page.</p></html>');
});
await new Promise((ok) => plain.listen(0, '127.0.0.1', ok));
const plainUrl = `http://127.0.0.1:${plain.address().port}/`;

const browser = await chromium.launch({
  executablePath: process.env.JARVIS_TEST_CHROMIUM ?? '/usr/bin/chromium',
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
});

const FCP = `new Promise((resolve) => {
  const seen = performance.getEntriesByName('first-contentful-paint')[0];
  if (seen) return resolve(seen.startTime);
  new PerformanceObserver((list) => resolve(list.getEntriesByName('first-contentful-paint')[0].startTime)).observe({ type: 'paint', buffered: true });
})`;

/** One fresh context (no cache, no cookie): navigation start to first contentful paint, and to `ready` if given. */
async function measure(target, ready) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // A JSON page makes Chromium ask for /favicon.ico without a credential, which the server counts toward its ban
  // (docs/server.md "Ban"): not part of what is measured.
  await context.route('**/favicon.ico', (route) => route.abort());
  const page = await context.newPage();
  await page.goto(target, { waitUntil: 'load' });
  const fcp = await page.evaluate(FCP);
  let readyMs;
  if (ready) {
    await page.locator(ready).waitFor();
    readyMs = await page.evaluate('performance.now()');
  }
  await context.close();
  return { fcp, readyMs };
}

const results = { plain: [], health: [], ui: [], uiReady: [] };
try {
  // One warm-up of each (the browser's own start-up is not what is measured).
  await measure(plainUrl);
  await measure(`${url}/api/v1/healthz`);
  await measure(await link(), '#session-search');
  for (let i = 0; i < RUNS; i++) {
    results.plain.push((await measure(plainUrl)).fcp);
    results.health.push((await measure(`${url}/api/v1/healthz`)).fcp);
    const ui = await measure(await link(), '#session-search');
    results.ui.push(ui.fcp);
    results.uiReady.push(ui.readyMs);
  }
} finally {
  await browser.close();
  plain.close();
  child.kill('SIGTERM');
  await model.close();
  rmSync(dir, { recursive: true, force: true });
}

const base = median(results.plain);
console.log(
  `\nfirst paint on the loopback, ${RUNS} interleaved runs (median, p95; ratio of medians to the plain page):`,
);
const row = (name, xs) =>
  console.log(
    `  ${name.padEnd(36)} ${ms(median(xs)).padStart(9)} ${ms(p95(xs)).padStart(9)}  ${(median(xs) / base).toFixed(2)}×`,
  );
row('plain HTML page (baseline)', results.plain);
row('GET /api/v1/healthz (JSON)', results.health);
row('web UI: first-contentful-paint', results.ui);
row('web UI: session list drawn', results.uiReady);
