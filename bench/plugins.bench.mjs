// What installed plugins cost at start-up: `jarvis -p` until its first model request with no plugins,
// and with five enabled plugins (skills, commands, an agent, prompt text, a hook; no MCP servers, whose
// own start-up is measured in mcpStartup.bench.mjs), against `node -e 0` measured in the same run.
// Usage: node scripts/build.mjs && node bench/plugins.bench.mjs [--runs N]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, jarvisEnv as env, loadMockModelServer, outDir, runJarvisChild as runChild } from './jarvisChild.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 9;
const startMockModelServer = await loadMockModelServer();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1)} ms`;

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'jarvis-bench-plugins-'));
  const ws = { dir, home: join(dir, 'home'), cwd: join(dir, 'work') };
  mkdirSync(ws.home, { recursive: true });
  mkdirSync(ws.cwd, { recursive: true });
  return ws;
}

function plugin(dir, i) {
  const put = (path, text) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  put(
    'jarvis.plugin.json',
    JSON.stringify({
      name: `bench-${i}`,
      version: '1.0.0',
      skills: './skills/',
      commands: './commands/',
      systemPrompt: `Plugin ${i} rule.`,
      hooks: [{ event: 'SessionEnd', command: 'true' }],
    }),
  );
  for (let s = 0; s < 3; s++)
    put(`skills/s${i}-${s}/SKILL.md`, `---\nname: s${i}-${s}\ndescription: skill ${s} of plugin ${i}\n---\nBody.\n`);
  for (let c = 0; c < 3; c++) put(`commands/c${c}.md`, `Command ${c}: $ARGUMENTS\n`);
  put('agents/helper.md', `---\nname: helper-${i}\ndescription: helps\n---\nHelp.\n`);
}

const server = await startMockModelServer();
/** Time from spawning `jarvis -p hi` to its first model request. */
async function firstRequestMs(ws) {
  server.push({ text: 'ok' });
  const before = server.requests.length;
  const { t0 } = await runChild(['-p', 'hi'], { cwd: ws.cwd, env: env(ws, server) });
  const spawnedAt = Date.now() - Number(process.hrtime.bigint() - t0) / 1e6;
  return server.requests[before].at - spawnedAt;
}
function nodeMs() {
  const t = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const bare = workspace();
const loaded = workspace();
for (let i = 0; i < 5; i++) {
  const dir = join(loaded.dir, `src-${i}`);
  plugin(dir, i);
  const r = spawnSync(process.execPath, [bin, 'plugin', 'install', dir], {
    env: env(loaded, server),
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`install failed: ${r.stderr}`);
}
// Interleaved, so that load on the machine falls on every case alike; the first round warms caches.
const samples = { node: [], none: [], five: [] };
for (let i = 0; i <= runs; i++) {
  const round = { node: nodeMs(), none: await firstRequestMs(bare), five: await firstRequestMs(loaded) };
  if (i > 0) for (const k of Object.keys(samples)) samples[k].push(round[k]);
}
await server.close();
for (const ws of [bare, loaded]) rmSync(ws.dir, { recursive: true, force: true });
const nodeBaseline = median(samples.node);
const none = median(samples.none);
const five = median(samples.five);

const lines = [
  `runs: ${runs} (medians)`,
  `node -e 0:                                    ${ms(nodeBaseline)}`,
  `jarvis -p → first request, no plugins:         ${ms(none)}  (${(none / nodeBaseline).toFixed(2)}× node -e 0)`,
  `jarvis -p → first request, 5 enabled plugins:  ${ms(five)}  (${(five / nodeBaseline).toFixed(2)}× node -e 0; ${(five / none).toFixed(2)}× no plugins)`,
];
console.log(lines.join('\n'));
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'plugins.txt'), `${lines.join('\n')}\n`);
