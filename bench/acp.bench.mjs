// ACP benchmark: what an editor waits for when it starts Jarvis and sends the first prompt. Spawns
// `jarvis acp`, drives it with the ACP SDK's client side and times initialize → session/new → the first
// agent_message_chunk against the loopback mock model (which answers at once), next to `node -e 0`
// measured in the same run.
// Usage: node scripts/build.mjs && node bench/acp.bench.mjs [--runs N]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { bin, jarvisEnv, loadMockModelServer } from './jarvisChild.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 9;
const startMockModelServer = await loadMockModelServer();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;
const now = () => Number(process.hrtime.bigint()) / 1e6;

const dir = mkdtempSync(join(tmpdir(), 'jarvis-acp-bench-'));
const ws = { home: join(dir, 'home'), cwd: join(dir, 'work') };
mkdirSync(ws.home, { recursive: true });
mkdirSync(ws.cwd, { recursive: true });
const { cwd } = ws;
const server = await startMockModelServer();
const env = jarvisEnv(ws, server);

/** One editor start: times to the initialize answer, the session/new answer and the first chunk. */
async function once() {
  server.push({ text: 'ok' });
  let firstChunk;
  const gotChunk = new Promise((resolveChunk) => (firstChunk = resolveChunk));
  const t0 = now();
  const child = spawn(process.execPath, [bin, 'acp'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
  const app = client({ name: 'bench' }).onNotification('session/update', ({ params }) => {
    if (params.update.sessionUpdate === 'agent_message_chunk') firstChunk(now());
  });
  const connection = app.connect(ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  await connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  const initialized = now();
  const { sessionId } = await connection.agent.request('session/new', { cwd, mcpServers: [] });
  const created = now();
  const prompted = connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
  const chunkAt = await gotChunk;
  await prompted;
  const exited = new Promise((r) => child.once('exit', r));
  connection.close();
  child.stdin.end();
  await exited;
  return { init: initialized - t0, session: created - initialized, chunk: chunkAt - created, total: chunkAt - t0 };
}

const nodeBaseline = median(
  Array.from({ length: runs }, () => {
    const t = now();
    spawnSync(process.execPath, ['-e', '0']);
    return now() - t;
  }),
);
await once(); // warm the file cache
const samples = [];
for (let i = 0; i < runs; i++) samples.push(await once());
await server.close();
rmSync(dir, { recursive: true, force: true });

const m = (key) => median(samples.map((s) => s[key]));
console.log(
  [
    `runs: ${runs} (medians)`,
    `node -e 0:                                   ${ms(nodeBaseline)}`,
    `spawn → initialize answered:                 ${ms(m('init'))}  (${(m('init') / nodeBaseline).toFixed(2)}× node -e 0)`,
    `initialize → session/new answered:           ${ms(m('session'))}`,
    `session/new → first agent_message_chunk:     ${ms(m('chunk'))}`,
    `spawn → first agent_message_chunk (total):   ${ms(m('total'))}  (${(m('total') / nodeBaseline).toFixed(2)}× node -e 0)`,
  ].join('\n'),
);
