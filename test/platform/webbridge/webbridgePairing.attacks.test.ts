// Attacks on WebBridge pairing from another local process posing as the extension (docs/plugins-official.md,
// "Pairing and who may connect"; issue 43's corpus). Each row: {name, setup, attack, check}. The rows that worked
// against version 1 (the extension sent its token in its hello, the server admitted whoever sent it) are first
// run against a model of that protocol, to show the attack is real; then against the bridge, which refuses them.
// The impostor *server* rows, with the real extension in Chromium: test/plugins/webbridgeImpostor.attacks.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { ExtensionBridge } from '../../../src/platform/webbridge/extensionBridge';
import { newNonce, pairingProof, WEBBRIDGE_PROTOCOL } from '../../../src/platform/webbridge/pairingProof';
import { EXTENSION_ORIGIN, freePort, knock, type KnockPlan, type KnockResult } from '../../helpers/webbridgePeers';

const TOKEN = 't'.repeat(43);
const abort = () => new AbortController().signal;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function bridgeOn(port?: number): Promise<ExtensionBridge> {
  const bridge = new ExtensionBridge({
    port: port ?? (await freePort()),
    token: TOKEN,
    connectTimeoutMs: 300,
    extensionDir: '/ext',
  });
  await bridge.listen();
  closers.push(() => bridge.close());
  return bridge;
}

/** Version 1's server, modelled: it admitted the first hello whose token matched. */
async function v1Server(): Promise<{ url: string; admitted: () => number }> {
  const port = await freePort();
  const server = new WebSocketServer({ host: '127.0.0.1', port, path: '/webbridge' });
  await new Promise<void>((r) => server.once('listening', r));
  let admitted = 0;
  server.on('connection', (socket) =>
    socket.once('message', (data) => {
      const hello = JSON.parse(String(data)) as { token?: string };
      if (hello.token === TOKEN) {
        admitted++;
        socket.send(JSON.stringify({ type: 'welcome' }));
      } else socket.close(4001);
    }),
  );
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `ws://127.0.0.1:${port}/webbridge`, admitted: () => admitted };
}

/** What version 1's extension sent on connecting: the token itself (an impostor holding the port recorded it). */
const CAPTURED_V1_HELLO = { type: 'hello', protocol: 'jarvis-webbridge.1', token: TOKEN };

/** A proof the real extension sent on an earlier connection (nonces that are no longer current). */
function recordedProof(port: number): string {
  return pairingProof(TOKEN, 'extension', port, newNonce(), newNonce());
}

interface Row {
  name: string;
  /** Why this is the attack as an attacker would write it. */
  setup: string;
  /** The plan the impostor client follows against a bridge on `port`. */
  attack: (port: number) => KnockPlan;
  /** The v1 model admitting the same move, or why version 1 already refused it (the row guards it now). */
  before: 'admitted by version 1' | string;
  check: (r: KnockResult) => void;
}

const refusedBeforeRequests = (code: number) => (r: KnockResult) => {
  expect(r.closeCode).toBe(code);
  expect(r.socket).toBeUndefined();
  expect(r.received.filter((m) => 'method' in m)).toEqual([]);
};

const rows: Row[] = [
  {
    name: 'replays the version 1 hello an impostor server captured (the token itself)',
    setup: 'an impostor held the port once and recorded what the extension sent',
    attack: () => ({ origin: EXTENSION_ORIGIN, hello: CAPTURED_V1_HELLO }),
    before: 'admitted by version 1',
    check: refusedBeforeRequests(4005),
  },
  {
    name: 'guesses: answers the challenge with a proof made from another token',
    setup: 'a local process forges the extension origin header',
    attack: () => ({ origin: EXTENSION_ORIGIN, answer: { token: 'g'.repeat(43) } }),
    before: 'version 1 compared the token: a guess was refused there too',
    check: refusedBeforeRequests(4001),
  },
  {
    name: "replays a proof recorded from an earlier connection (the extension's)",
    setup: 'the proof of a past pairing, bound to nonces that are no longer current',
    attack: (port) => ({ origin: EXTENSION_ORIGIN, answer: () => ({ type: 'proof', proof: recordedProof(port) }) }),
    before: 'version 1 had no proof; its token was replayable (first row)',
    check: refusedBeforeRequests(4001),
  },
  {
    name: "reflects the server's own proof back as the extension's",
    setup: 'uses the server as an oracle: its proof is an HMAC of the same nonces',
    attack: () => ({ origin: EXTENSION_ORIGIN, answer: (c) => ({ type: 'proof', proof: c.proof }) }),
    before: 'version 1 sent no proof to reflect',
    check: refusedBeforeRequests(4001),
  },
  {
    name: "sends the server's nonce back as its own nonce, then reflects",
    setup: 'a second attempt at the oracle: make both nonces the same',
    attack: () => ({
      origin: EXTENSION_ORIGIN,
      hello: { type: 'hello', protocol: WEBBRIDGE_PROTOCOL, nonce: 'r'.repeat(43) },
      answer: (c) => ({ type: 'proof', proof: c.proof }),
    }),
    before: 'version 1 sent no proof to reflect',
    check: refusedBeforeRequests(4001),
  },
  {
    name: 'answers a pending call before proving anything',
    setup: 'injects a result for request id 1 as its first message',
    attack: () => ({ origin: EXTENSION_ORIGIN, hello: { id: 1, result: [{ id: 1, url: 'https://bank.example' }] } }),
    before: 'version 1 required the hello first too',
    check: refusedBeforeRequests(4002),
  },
  {
    name: 'skips the proof: answers the challenge with a request result',
    setup: 'hopes the server treats any second message as the proof',
    attack: () => ({ origin: EXTENSION_ORIGIN, answer: () => ({ id: 1, result: 'x' }) }),
    before: 'version 1 had no second step',
    check: refusedBeforeRequests(4002),
  },
  {
    name: 'a web page on localhost opens the socket',
    setup: 'JavaScript in a page the browser shows',
    attack: () => ({ origin: 'http://localhost:3000', answer: { token: TOKEN } }),
    before: 'version 1 checked the origin too',
    check: (r) => expect(r.status).toBe(403),
  },
];

describe('an impostor client never gets requests from the WebBridge server', () => {
  it.each(rows)('$name', async (row) => {
    if (row.before === 'admitted by version 1') {
      const v1 = await v1Server();
      const plan = row.attack(Number(new URL(v1.url).port));
      const r = await knock(v1.url, plan);
      expect(r.socket, 'the attack works against version 1').toBeDefined();
      expect(v1.admitted()).toBe(1);
      r.socket!.close();
    }
    const bridge = await bridgeOn();
    const port = Number(new URL(bridge.url).port);
    row.check(await knock(bridge.url, row.attack(port)));
    // Whatever the refusal, no call was ever handed to that connection.
    await expect(bridge.call('list_tabs', {}, abort())).rejects.toThrow(/WebBridge extension/);
  });

  it('a proof made for one port is refused on another (a relay between two listeners)', async () => {
    const bridge = await bridgeOn();
    const other = await freePort();
    const r = await knock(bridge.url, { origin: EXTENSION_ORIGIN, answer: { token: TOKEN, port: other } });
    refusedBeforeRequests(4001)(r);
  });

  it('the same client with the token is admitted (the legitimate form of the rows above)', async () => {
    const bridge = await bridgeOn();
    const r = await knock(bridge.url, { origin: EXTENSION_ORIGIN, answer: { token: TOKEN } });
    expect(r.socket).toBeInstanceOf(WebSocket);
    // The token never crossed the wire, in either direction.
    expect(JSON.stringify(r.received)).not.toContain(TOKEN);
    r.socket!.close();
  });
});
