// Start-up that waits for nothing (issue 33, docs/mcp.md "Lazy start"): `jarvis -p` from spawn to its
// first model request against the loopback mock model, for
//   - `node -e 0` (the floor), measured in the same run;
//   - plugins and MCP servers disabled (the bundled Jarvis Documents plugin disabled, no mcp.json);
//   - the default configuration (the bundled plugin enabled; its tool listing cached by a first run);
//   - ten configured MCP servers (server-everything over stdio, plugins disabled; listings cached), lazy;
// then the exit time after the answer with memory extraction on, for a prompt with nothing to remember
// and one with a fact; and, with a server that never answers its handshake, when the prompt is in the
// journal (against the first request with no server) and how long Ctrl-C takes to end the run.
// Runs are interleaved so drifting machine load touches every configuration alike; medians and ranges.
// Usage: node scripts/build.mjs && node bench/startup.bench.mjs [--runs N]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, jarvisEnv, loadMockModelServer, root } from './jarvisChild.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 7;
const startMockModelServer = await loadMockModelServer();
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const range = (xs) => `${sorted(xs)[0].toFixed(0)}–${sorted(xs).at(-1).toFixed(0)}`;
const show = (xs) => `${median(xs).toFixed(0)} ms (range ${range(xs)})`;

const isExtraction = (req) => JSON.stringify(req.body?.messages?.[0] ?? '').includes('You keep the long-term memory');
const answer = (req) => (isExtraction(req) ? { text: '{"memories": []}' } : { text: 'ok' });
const server = await startMockModelServer({ script: answer });

function workspace(name) {
  const dir = mkdtempSync(join(tmpdir(), `jarvis-bench-startup-${name}-`));
  const ws = { dir, home: join(dir, 'home'), cwd: join(dir, 'work') };
  mkdirSync(ws.home, { recursive: true });
  mkdirSync(ws.cwd, { recursive: true });
  return ws;
}

function jarvis(ws, args, extra = {}) {
  const env = jarvisEnv(ws, server, extra);
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: ws.cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`jarvis ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r;
}

/** One `jarvis -p`: ms from spawn to its first model request, and from that answer to its exit. */
function run(ws, prompt = 'hi', extra = {}) {
  return new Promise((resolvePromise, reject) => {
    const before = server.requests.length;
    const spawnedAt = Date.now();
    const env = jarvisEnv(ws, server, extra);
    const stdio = ['ignore', 'ignore', 'pipe'];
    const child = spawn(process.execPath, [bin, '-p', prompt], { cwd: ws.cwd, env, stdio });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      const exitedAt = Date.now();
      if (code !== 0 || server.requests.length <= before) return reject(new Error(`jarvis -p exited ${code}: ${err}`));
      const first = server.requests[before].at;
      resolvePromise({ first: first - spawnedAt, exit: exitedAt - first, stderr: err });
    });
  });
}

/** The bundled plugin is installed by the first start-up; then it can be disabled. */
async function withoutPlugins(ws) {
  await run(ws);
  jarvis(ws, ['plugin', 'disable', 'jarvis-documents']);
}
const none = workspace('none');
await withoutPlugins(none);
const defaults = workspace('default');
const ten = workspace('ten');
await withoutPlugins(ten);
const everythingServer = { command: process.execPath, args: [everything, 'stdio'] };
const tenServers = Array.from({ length: 10 }, (_, i) => [`s${i + 1}`, everythingServer]);
writeFileSync(join(ten.home, 'mcp.json'), JSON.stringify({ mcpServers: Object.fromEntries(tenServers) }));
// First runs fill the listing caches (and the file cache); they are not counted.
for (const ws of [none, defaults, ten]) await run(ws);
const documentsServer = `${defaults.home}/plugins/managed/jarvis-documents/bin/server.mjs`;
const documentsRunning = () => spawnSync('pgrep', ['-f', documentsServer]).status === 0;

const samples = { node: [], none: [], defaults: [], ten: [], exitNothing: [], exitFact: [] };
const memoryOn = { JARVIS_MEMORY_EXTRACTION_ENABLED: 'true' };
const memory = workspace('memory');
await withoutPlugins(memory);
for (let i = 0; i < runs; i++) {
  const t = Date.now();
  spawnSync(process.execPath, ['-e', '0']);
  samples.node.push(Date.now() - t);
  samples.none.push((await run(none)).first);
  samples.defaults.push((await run(defaults)).first);
  samples.ten.push((await run(ten)).first);
  samples.exitNothing.push((await run(memory, 'hi', memoryOn)).exit);
  samples.exitFact.push((await run(memory, `We deploy with make ship-${i}, never on Fridays.`, memoryOn)).exit);
}

/** A never-answering server: ms from spawn to the prompt in the journal, and from Ctrl-C to the exit. */
async function silent() {
  const ws = workspace('silent');
  await withoutPlugins(ws);
  const silentServer = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
  writeFileSync(join(ws.home, 'mcp.json'), JSON.stringify({ mcpServers: { silent: silentServer } }));
  const sessions = join(ws.home, 'sessions');
  const wireOf = (key, id) => join(sessions, key, id, 'agents', 'main', 'wire.jsonl');
  const wires = () =>
    existsSync(sessions)
      ? readdirSync(sessions).flatMap((key) => readdirSync(join(sessions, key)).map((id) => wireOf(key, id)))
      : [];
  const earlier = new Set(wires());
  const started = (w) => existsSync(w) && readFileSync(w, 'utf8').includes('"type":"turn_start"');
  const journalled = () => wires().some((w) => !earlier.has(w) && started(w));
  return await new Promise((resolvePromise, reject) => {
    const spawnedAt = Date.now();
    const env = jarvisEnv(ws, server);
    const stdio = ['ignore', 'ignore', 'pipe'];
    const child = spawn(process.execPath, [bin, '-p', 'hello'], { cwd: ws.cwd, env, stdio });
    let sigintAt = 0;
    let journalMs = 0;
    const poll = setInterval(() => {
      if (sigintAt || !journalled()) return;
      journalMs = Date.now() - spawnedAt;
      sigintAt = Date.now();
      child.kill('SIGINT');
    }, 5);
    const bound = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearInterval(poll);
      clearTimeout(bound);
      rmSync(ws.dir, { recursive: true, force: true });
      if (code !== 130) return reject(new Error(`jarvis -p with a silent server exited ${code}, not 130`));
      resolvePromise({ journal: journalMs, ctrlC: Date.now() - sigintAt });
    });
  });
}
const silentRuns = [];
for (let i = 0; i < Math.min(runs, 5); i++) silentRuns.push(await silent());
await server.close();
for (const ws of [none, defaults, ten, memory]) rmSync(ws.dir, { recursive: true, force: true });

const base = median(samples.none);
console.log(`Start-up to the first model request (median of ${runs}, interleaved)`);
console.log(`  node -e 0:                                   ${show(samples.node)}`);
const ratio = (xs, of) => (median(xs) / of).toFixed(2);
const floor = median(samples.node);
console.log(`  jarvis -p, plugins and MCP servers disabled: ${show(samples.none)}`);
console.log(`    ${ratio(samples.none, floor)}× node -e 0`);
console.log(`  jarvis -p, default configuration:            ${show(samples.defaults)}`);
console.log(`    ${ratio(samples.defaults, base)}× the disabled time (bound 1.15×)`);
console.log(`  jarvis -p, 10 lazy MCP servers:              ${show(samples.ten)}`);
console.log(`    ${ratio(samples.ten, base)}× the time with none (bound 1.10×)`);
console.log(`  documents server left running after the default runs: ${documentsRunning() ? 'yes' : 'no'}`);
console.log(`Exit after the answer, memory extraction on`);
console.log(`  nothing to remember ("hi"):                  ${show(samples.exitNothing)}`);
console.log(`  something to remember (a fact):              ${show(samples.exitFact)}`);
const journal = silentRuns.map((r) => r.journal);
const ctrlC = silentRuns.map((r) => r.ctrlC);
console.log(`A server that never answers its handshake (${silentRuns.length} runs)`);
console.log(`  prompt in the journal after spawn:           ${show(journal)}`);
console.log(`    (with no server, the first request comes ${base.toFixed(0)} ms after spawn)`);
console.log(`  Ctrl-C to exit:                              ${show(ctrlC)}`);
