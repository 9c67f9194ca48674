// Swarm benchmark: `jarvis -p` whose model calls AgentSwarm with N items (default 128) against the
// instant loopback mock model. Prints the swarm's wall time (from the request that called AgentSwarm to
// the request that carried its report) against the ramp's own floor — the moment the last member may
// start (5 at once, then one per 700 ms) — and peak RSS against a run whose swarm has 2 members, as
// MiB per extra member: once with instant members, once with every member alive at the same time.
// Usage: node scripts/build.mjs && node bench/swarm.bench.mjs [--members N]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const members = Number(process.argv[process.argv.indexOf('--members') + 1]) || 128;
const outDir = join(root, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
await build({
  entryPoints: [join(root, 'test/helpers/mockModelServer.ts')],
  outfile: join(outDir, 'mockModelServer.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'warning',
});
const { startMockModelServer } = await import(join(outDir, 'mockModelServer.mjs'));
const bin = join(root, 'bin', 'jarvis');

const INITIAL = 5;
const STEP_MS = 700;
const rampFloorMs = (n) => (n <= INITIAL ? 0 : (n - INITIAL) * STEP_MS);

const isMain = (req) => !JSON.stringify(req.body.messages?.[0] ?? '').includes('subagent (coder)');
const hasReport = (req) => JSON.stringify(req.body.messages ?? []).includes('Swarm finished');
// Members answer at once — or, for the memory figure, all at the end of the ramp, so every member is
// alive at the same time. The main agent calls AgentSwarm once, then sums up.
let holdUntil = 0;
const server = await startMockModelServer({
  script: (req) => {
    if (!isMain(req))
      return { text: 'done', usage: { input: 10, output: 1 }, headersDelayMs: Math.max(0, holdUntil - Date.now()) };
    if (hasReport(req)) return { text: 'All members reported.' };
    const n = Number(/members=(\d+)/.exec(JSON.stringify(req.body.messages))[1]);
    if (JSON.stringify(req.body.messages).includes('hold')) holdUntil = Date.now() + rampFloorMs(n) + 1_000;
    const items = Array.from({ length: n }, (_, i) => `item-${i}`);
    return {
      toolCalls: [{ name: 'AgentSwarm', arguments: { prompt_template: 'Handle {{item}} and reply "done".', items } }],
    };
  },
});

function runSwarm(n, hold = false) {
  const dir = mkdtempSync(join(tmpdir(), 'jarvis-swarm-bench-'));
  const home = join(dir, 'home');
  const cwd = join(dir, 'work');
  mkdirSync(home);
  mkdirSync(cwd);
  const diag = join(dir, 'diag.json');
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('JARVIS_')));
  const env = {
    ...base,
    JARVIS_CODE_HOME: home,
    HOME: home,
    JARVIS_MEMORY_EXTRACTION_ENABLED: 'false',
    JARVIS_MODEL_NAME: 'bench',
    JARVIS_MODEL_API_KEY: 'k',
    JARVIS_MODEL_PROVIDER_TYPE: 'openai',
    JARVIS_MODEL_BASE_URL: server.baseUrlFor('openai'),
    JARVIS_DIAGNOSTICS_FILE: diag,
  };
  const before = server.requests.length;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, '-p', `run the swarm members=${n}${hold ? ' hold' : ''}`], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.resume();
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`jarvis exited ${code}: ${err}`));
      const requests = server.requests.slice(before);
      const mains = requests.filter(isMain);
      const report = mains.find(hasReport);
      const usage = JSON.parse(readFileSync(diag, 'utf8'));
      rmSync(dir, { recursive: true, force: true });
      resolvePromise({
        wallMs: report.at - mains[0].at,
        memberRequests: requests.length - mains.length,
        rssMiB: usage.maxRSS / 1024,
      });
    });
  });
}

const small = await runSwarm(2);
const big = await runSwarm(members);
const held = await runSwarm(members, true);
holdUntil = 0;
await server.close();
const floor = rampFloorMs(members);
const overhead = (big.wallMs - floor) / floor;
const perMember = (big.rssMiB - small.rssMiB) / (members - 2);
console.log(
  `swarm of ${members}: ${big.memberRequests} member requests; wall ${(big.wallMs / 1000).toFixed(2)} s vs ramp floor ${(floor / 1000).toFixed(2)} s → ×${(big.wallMs / floor).toFixed(3)} (overhead ${(overhead * 100).toFixed(1)} %, aim ≤ 10 %)`,
);
console.log(
  `peak RSS: ${big.rssMiB.toFixed(1)} MiB with ${members} members vs ${small.rssMiB.toFixed(1)} MiB with 2 → ${perMember.toFixed(3)} MiB per member (aim ≤ 1.5)`,
);
const perLive = (held.rssMiB - small.rssMiB) / (members - 2);
console.log(
  `all ${members} members alive at once (answers held to the end of the ramp): peak RSS ${held.rssMiB.toFixed(1)} MiB → ${perLive.toFixed(3)} MiB per member; wall ${(held.wallMs / 1000).toFixed(2)} s`,
);
