// MCP start-up benchmark: `jarvis -p` until its first model request against the loopback mock model,
//   (a) with no MCP server, one and three stdio servers (@modelcontextprotocol/server-everything), and
//       one server's own start-up measured directly with the SDK client (spawn → initialize → list);
//   (b) with servers whose start-up is mostly waiting (the same server behind a delay, like a server
//       that fetches something first): the slowest alone (3.5 s) against three of 1.5, 2.5 and 3.5 s.
// Servers start in parallel, so three should add what the slowest adds, not the sum. (a) is bound by
// CPU on a small machine (three Node processes booting at once); (b) shows the overlap itself.
// Usage: node scripts/build.mjs && node bench/mcpStartup.bench.mjs [--runs N]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 7;
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
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');

const bin = join(root, 'bin', 'jarvis');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;

/** A workspace whose mcp.json has one server per entry of `delays` (ms before it starts serving). */
function workspace(delays) {
  const dir = mkdtempSync(join(tmpdir(), 'jarvis-mcp-bench-'));
  const home = join(dir, 'home');
  const cwd = join(dir, 'work');
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const entry = (delay) =>
    delay
      ? {
          command: process.execPath,
          args: [
            '-e',
            `setTimeout(() => { process.argv.push('stdio'); import(${JSON.stringify(everything)}); }, ${delay})`,
          ],
        }
      : { command: process.execPath, args: [everything, 'stdio'] };
  const mcpServers = Object.fromEntries(delays.map((d, i) => [`s${i + 1}`, entry(d)]));
  if (delays.length) writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers }));
  return { dir, home, cwd };
}

function env(ws, server) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('JARVIS_')));
  return {
    ...base,
    JARVIS_CODE_HOME: ws.home,
    JARVIS_MEMORY_EXTRACTION_ENABLED: 'false',
    JARVIS_MODEL_NAME: 'bench',
    JARVIS_MODEL_API_KEY: 'k',
    JARVIS_MODEL_PROVIDER_TYPE: 'openai',
    JARVIS_MODEL_BASE_URL: server.baseUrlFor('openai'),
  };
}

/** Milliseconds from spawning `jarvis -p` to the mock model receiving its first request. */
function toFirstRequest(ws, server) {
  return new Promise((resolvePromise, reject) => {
    server.push({ text: 'ok' });
    const before = server.requests.length;
    const spawnedAt = Date.now();
    const child = spawn(process.execPath, [bin, '-p', 'hi'], {
      cwd: ws.cwd,
      env: env(ws, server),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      if (code !== 0 || server.requests.length <= before) reject(new Error(`jarvis -p exited ${code}: ${err}`));
      else resolvePromise(server.requests[before].at - spawnedAt);
    });
  });
}

/** One server's own start-up, measured directly: spawn, initialize, tools/list. */
async function ownStartup() {
  const t0 = Date.now();
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }),
  );
  await client.listTools();
  const took = Date.now() - t0;
  await client.close();
  return took;
}

const server = await startMockModelServer();
const spaces = {
  none: workspace([]),
  one: workspace([0]),
  three: workspace([0, 0, 0]),
  slowest: workspace([3500]),
  slow3: workspace([1500, 2500, 3500]),
};
const nodeBaseline = median(
  Array.from({ length: runs }, () => {
    const t = Date.now();
    spawnSync(process.execPath, ['-e', '0']);
    return Date.now() - t;
  }),
);
const samples = { none: [], one: [], three: [], own: [], slowest: [], slow3: [] };
await toFirstRequest(spaces.none, server); // warm the file cache
// Interleaved, so that drifting machine load touches every configuration alike.
for (let i = 0; i < runs; i++) {
  samples.none.push(await toFirstRequest(spaces.none, server));
  samples.one.push(await toFirstRequest(spaces.one, server));
  samples.three.push(await toFirstRequest(spaces.three, server));
  samples.own.push(await ownStartup());
  samples.slowest.push(await toFirstRequest(spaces.slowest, server));
  samples.slow3.push(await toFirstRequest(spaces.slow3, server));
}
await server.close();
for (const ws of Object.values(spaces)) rmSync(ws.dir, { recursive: true, force: true });

const none = median(samples.none);
const one = median(samples.one);
const three = median(samples.three);
const own = median(samples.own);
const slowest = median(samples.slowest);
const slow3 = median(samples.slow3);
console.log(`MCP start-up (median of ${runs}; node -e 0 = ${ms(nodeBaseline)})`);
console.log(
  `  jarvis -p to first model request, no MCP server:      ${ms(none)}  (${(none / nodeBaseline).toFixed(1)}× node -e 0)`,
);
console.log(`  … with 1 stdio server:                                ${ms(one)}  (+${ms(one - none)})`);
console.log(`  … with 3 stdio servers:                               ${ms(three)}  (+${ms(three - none)})`);
console.log(`  one server's own start-up (spawn → initialize → list): ${ms(own)}`);
console.log(
  `  added by 3 servers / added by 1 server: ${((three - none) / (one - none)).toFixed(2)}  (1.0 = fully parallel, 3.0 = one after another)`,
);
console.log(`  added by 3 servers / one server's own start-up: ${((three - none) / own).toFixed(2)}`);
console.log(`Servers that mostly wait before serving:`);
console.log(`  … the slowest alone (3.5 s delay):                     ${ms(slowest)}  (+${ms(slowest - none)})`);
console.log(`  … three (1.5 s, 2.5 s, 3.5 s delays):                  ${ms(slow3)}  (+${ms(slow3 - none)})`);
console.log(
  `  added by the three / added by the slowest alone: ${((slow3 - none) / (slowest - none)).toFixed(2)}  (1.0 = the slowest's own start-up; ${(7500 / 3500).toFixed(1)} = their sum)`,
);
