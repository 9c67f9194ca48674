#!/usr/bin/env node
// The front of a bundled plugin's MCP server (scripts/build.mjs, buildPlugin with `listing`): it answers
// the handshake and tools/list itself, from bin/listing.json — recorded at build time from the very
// server behind it — and loads that server (bin/server.mjs.gz, inflated and imported as a data: module)
// only when another request arrives. A session waits for its MCP servers before the first model request,
// so a session that never calls these tools never pays for loading their libraries
// (docs/plugins-official.md). The real server gets the client's own initialize request replayed first.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const listing = JSON.parse(readFileSync(new URL('./listing.json', import.meta.url), 'utf8'));
const REPLAYED_ID = '__jarvis_launcher_initialize__';
const reply = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);

let initialize;
/** The real server's input once it is loading; undefined until then. */
let toServer;

/** Messages the front answers alone while the real server is not loaded. */
function answeredHere(message) {
  switch (message.method) {
    case 'initialize': {
      initialize = message;
      const asked = message.params?.protocolVersion;
      const protocolVersion = listing.protocolVersions.includes(asked) ? asked : listing.protocolVersions[0];
      reply(message.id, {
        protocolVersion,
        capabilities: listing.capabilities,
        serverInfo: listing.serverInfo,
        ...(listing.instructions ? { instructions: listing.instructions } : {}),
      });
      return true;
    }
    case 'notifications/initialized':
      return true;
    case 'tools/list':
      reply(message.id, { tools: listing.tools });
      return true;
    case 'ping':
      reply(message.id, {});
      return true;
    default:
      return false;
  }
}

function startRealServer() {
  const input = new PassThrough();
  const output = new PassThrough();
  createInterface({ input: output, crlfDelay: Infinity }).on('line', (line) => {
    // The answer to the replayed handshake was already given by the front.
    if (line.includes(REPLAYED_ID) && JSON.parse(line).id === REPLAYED_ID) return;
    process.stdout.write(`${line}\n`);
  });
  if (initialize) {
    input.write(`${JSON.stringify({ ...initialize, id: REPLAYED_ID })}\n`);
    input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }
  globalThis.__jarvisPluginStdio = { stdin: input, stdout: output };
  process.env.JARVIS_PLUGIN_BIN_DIR = dirname(fileURLToPath(import.meta.url));
  const code = gunzipSync(readFileSync(new URL('./server.mjs.gz', import.meta.url)));
  import(`data:text/javascript;base64,${code.toString('base64')}`).catch((e) => {
    process.stderr.write(`The plugin's server failed to load: ${e?.stack ?? e}\n`);
    process.exit(1);
  });
  return input;
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  if (toServer) return void toServer.write(`${line}\n`);
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    message = undefined;
  }
  if (message && answeredHere(message)) return;
  toServer = startRealServer();
  toServer.write(`${line}\n`);
});
lines.on('close', () => {
  if (toServer) toServer.end();
  else process.exit(0);
});
