// `jarvis serve` memory per idle session (docs/server.md "Memory"): the resident set (VmRSS) of the server process
// bare (started, one authenticated request answered) against the same process holding 1, 10 and 50 sessions, each
// created over the API and left idle after answering one prompt from the loopback mock model. Reported as MB above
// the bare server and as MB per session (also counted after the first, which loads the engine's code too), with the
// bare figure as the baseline of the same run.
// Usage: node scripts/build.mjs && node bench/server.bench.mjs
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMockModelServer, startJarvisServer } from './jarvisChild.mjs';

const COUNTS = [1, 10, 50];
const startMockModelServer = await loadMockModelServer();
const dir = mkdtempSync(join(tmpdir(), 'jarvis-server-bench-'));
const ws = { home: join(dir, 'home'), cwd: join(dir, 'work') };
mkdirSync(ws.home, { recursive: true });
mkdirSync(ws.cwd, { recursive: true });
const model = await startMockModelServer({ script: () => ({ text: 'ok' }) });
const { child, url, token } = await startJarvisServer('serve', ws, model);

async function call(method, path, body) {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const env = await res.json();
  if (env.code !== 0) throw new Error(`${method} ${path}: ${env.msg}`);
  return env.data;
}

/** VmRSS of the server in MB: the median of five readings, a few event-loop turns apart. */
async function rss() {
  const readings = [];
  for (let i = 0; i < 5; i++) {
    await call('GET', '/api/v1/meta');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]);
    readings.push(kb / 1024);
  }
  return readings.sort((a, b) => a - b)[2];
}

/** One idle session: created, one prompt answered, nothing running. */
async function idleSession() {
  const s = await call('POST', '/api/v1/sessions', {});
  await call('POST', `/api/v1/sessions/${s.session_id}/prompts`, { content: [{ type: 'text', text: 'hi' }] });
  for (;;) {
    const status = await call('GET', `/api/v1/sessions/${s.session_id}/status`);
    if (!status.busy) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

try {
  const bare = await rss();
  console.log(`bare server (baseline): ${bare.toFixed(1)} MB RSS`);
  let held = 0;
  let first;
  for (const n of COUNTS) {
    while (held < n) {
      await idleSession();
      held++;
    }
    const now = await rss();
    const above = now - bare;
    console.log(
      `${String(n).padStart(2)} idle sessions: ${now.toFixed(1)} MB RSS (${(now / bare).toFixed(2)}× bare), ` +
        `+${above.toFixed(1)} MB, ${(above / n).toFixed(2)} MB per session` +
        (first === undefined ? '' : `, ${((now - first) / (n - 1)).toFixed(2)} MB per session after the first`),
    );
    // The first session also loads the engine's code (lazy chunks): the later ones show what a session costs.
    first ??= now;
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await model.close();
  rmSync(dir, { recursive: true, force: true });
}
