// First-request size benchmark (docs/tools.md, "Context cost"): runs the built `jarvis -p` against the
// loopback mock model and measures what every step of every session pays for — the system prompt and
// each tool schema the model is offered — then loads every deferred tool with ToolSearch and measures
// those schemas too. Optional: `--mcp-everything` configures the real server-everything MCP server (from
// node_modules) in mcp.json to see the effect of a server with many tools. Prints a Markdown table and
// writes it to bench/results/requestSize.md (requestSize-mcp.md with the server). `--tower` runs with
// Tower mode's experimental flag (docs/tower.md), whose tools are all deferred (requestSize-tower.md).
// Usage: node scripts/build.mjs && node bench/requestSize.bench.mjs [--mcp-everything | --tower]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
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
const withMcp = process.argv.includes('--mcp-everything');
const withTower = process.argv.includes('--tower');
const everythingBin = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const dir = mkdtempSync(join(tmpdir(), 'jarvis-request-bench-'));
const home = join(dir, 'home');
const cwd = join(dir, 'work');
mkdirSync(home, { recursive: true });
mkdirSync(cwd, { recursive: true });
if (withMcp)
  writeFileSync(
    join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingBin, 'stdio'] } } }),
  );
const server = await startMockModelServer();
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('JARVIS_'))),
  JARVIS_CODE_HOME: home,
  HOME: home,
  JARVIS_MEMORY_EXTRACTION_ENABLED: 'false',
  JARVIS_MODEL_NAME: 'bench',
  JARVIS_MODEL_API_KEY: 'k',
  JARVIS_MODEL_PROVIDER_TYPE: 'openai',
  JARVIS_MODEL_BASE_URL: server.baseUrlFor('openai'),
  ...(withTower ? { JARVIS_CODE_EXPERIMENTAL_TOWER: '1' } : {}),
};
const run = (args) =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'jarvis'), ...args], {
      cwd,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolvePromise() : reject(new Error(`jarvis exited ${code}: ${err}`))));
  });

const bytes = (value) => Buffer.byteLength(JSON.stringify(value));
const nameOf = (tool) => tool.function?.name ?? tool.name;

// 1. The first request: nothing loaded yet.
server.push({ text: 'ok' });
await run(['-p', 'hi']);
const first = server.requests[0].body;
const offered = first.tools ?? [];
const search = offered.find((t) => nameOf(t) === 'ToolSearch');
const catalog = search ? (search.function?.description ?? search.description) : '';
// `- Name: summary` lines, and an MCP server's `- mcp__server__{a, b}` line (docs/tools.md, "Deferred tools").
const deferredNames = [
  ...[...catalog.matchAll(/^- ([^:{\s]+):/gm)].map((m) => m[1]),
  ...[...catalog.matchAll(/^- (mcp__\S+?)\{([^}]*)\}$/gm)].flatMap((m) => m[2].split(', ').map((t) => m[1] + t)),
];

// 2. Load every deferred tool; the request after the load carries their schemas.
let loadedTools = [];
if (deferredNames.length) {
  server.push({ toolCalls: [{ name: 'ToolSearch', arguments: { names: deferredNames } }] }, { text: 'loaded' });
  const before = server.requests.length;
  await run(['-p', 'load everything']);
  const after = server.requests[before + 1].body.tools;
  const core = new Set(offered.map(nameOf));
  loadedTools = after.filter((t) => !core.has(nameOf(t)));
}
await server.close();
rmSync(dir, { recursive: true, force: true });

const systemBytes = bytes(first.messages.filter((m) => m.role === 'system'));
const toolBytes = offered.reduce((n, t) => n + bytes(t), 0);
const total = bytes(first);
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const rows = [
  '| Tool | Offered | Bytes |',
  '| --- | --- | ---: |',
  ...offered.map((t) => `| ${nameOf(t)} | always | ${bytes(t)} |`),
  ...loadedTools.map((t) => `| ${nameOf(t)} | deferred | ${bytes(t)} |`),
];
const lines = [
  `first request: ${total} bytes = ${kib(total)} (aim ≤ 16 KiB${withMcp ? ' with MCP: ≤ 18 KiB' : ''})`,
  `  system prompt ${systemBytes} bytes; ${offered.length} tool schemas ${toolBytes} bytes (${Math.round((toolBytes / total) * 100)}%); ${deferredNames.length} deferred tools, ${loadedTools.reduce((n, t) => n + bytes(t), 0)} bytes when all are loaded`,
  '',
  ...rows,
];
console.log(lines.join('\n'));
writeFileSync(
  join(outDir, withMcp ? 'requestSize-mcp.md' : withTower ? 'requestSize-tower.md' : 'requestSize.md'),
  `${lines.join('\n')}\n`,
);
