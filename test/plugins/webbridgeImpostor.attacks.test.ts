// A program holding the WebBridge port (docs/plugins-official.md, "Pairing and who may connect"; issue 43's corpus):
// the real extension, built and loaded unpacked in headless=new Chromium with a profile signed in to a loopback
// site, is paired with the right token but the port is held by an impostor. Each row: {name, setup, attack, check}.
// Each attack is first run against a model of version 1's extension (it sent its token on connecting and ran any
// request it was sent) to show it worked; then against the real extension, which never sends the token, never
// runs a request before the server proved itself, and says in its popup that the port's holder did not prove it.
import { resolve, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ExtensionBridge, WEBBRIDGE_EXTENSION_ID } from '../../src/platform/webbridge/extensionBridge';
import { newNonce, pairingProof } from '../../src/platform/webbridge/pairingProof';
import { startExtensionChromium, type ExtensionChromium } from '../helpers/extensionChromium';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer';
import { requireSystemPart } from '../helpers/requireAll';
import { EXTENSION_ORIGIN, freePort, startImpostorServer, type ImpostorServer } from '../helpers/webbridgePeers';

const hasChromium = requireSystemPart('chromium', 'the WebBridge extension runs in a real Chromium');
const EXTENSION = join(resolve(__dirname, '../../dist/plugins/jarvis-webbridge'), 'extension');
const TOKEN = 'k'.repeat(43);

let chrome: ExtensionChromium;
let site: FixtureServer;

beforeAll(async () => {
  if (!hasChromium) return;
  site = await startFixtureServer({
    '/account': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const signedIn = (req.headers.cookie ?? '').includes('session=ana-7f3c');
      res.end(`<html><body><h1>${signedIn ? 'Balance for Ana: 1,234.56' : 'Please sign in'}</h1></body></html>`);
    },
  });
  chrome = await startExtensionChromium(EXTENSION);
  await chrome.browser.contexts()[0].addCookies([{ name: 'session', value: 'ana-7f3c', url: site.url }]);
}, 120_000);
afterAll(async () => {
  await chrome?.close();
  await site?.close();
});

const send = (socket: WebSocket, message: unknown) => socket.send(JSON.stringify(message));
const account = () => `${site.url}/account`;
/** What an attacker asks of the browser: open the signed-in page and read it. */
const stealRequests = () => [
  { id: 1, method: 'open_tab', params: { url: account() } },
  { id: 2, method: 'evaluate', params: { tab_id: 1, expression: 'document.body.innerText' } },
];

interface Row {
  name: string;
  setup: string;
  /** What version 1's extension ran for the same impostor (besides handing it the token). */
  v1Ran: string[];
  /** The impostor's script: called with each message the extension sends. */
  attack: (socket: WebSocket, message: string, port: number) => void;
  check: (impostor: ImpostorServer) => Promise<void>;
}

/** Version 1's extension, modelled: sends the token on connecting and runs (here: records) every request. */
function v1Extension(port: number): { ran: string[]; close(): void } {
  const ran: string[] = [];
  const socket = new WebSocket(`ws://127.0.0.1:${port}/webbridge`, { origin: EXTENSION_ORIGIN });
  socket.on('open', () => send(socket, { type: 'hello', protocol: 'jarvis-webbridge.1', token: TOKEN }));
  socket.on('message', (data) => {
    const m = JSON.parse(String(data)) as { id?: number; method?: string };
    if (typeof m.id === 'number' && m.method) ran.push(m.method);
  });
  return { ran, close: () => socket.close() };
}

async function until(done: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The extension refused the impostor, sent no token and no result, and the signed-in page was never opened. */
async function nothingLeaked(impostor: ImpostorServer): Promise<void> {
  expect(await chrome.waitForStatus(WEBBRIDGE_EXTENSION_ID, 'refused')).toContain('did not prove');
  await until(() => impostor.closes.includes(4004), 'the extension to refuse the impostor');
  expect(impostor.heard.join('\n')).not.toContain(TOKEN);
  for (const text of impostor.heard) {
    const m = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(m).sort()).toEqual(['nonce', 'protocol', 'type']);
  }
  expect(site.hits.filter((h) => h.path === '/account')).toEqual([]);
  expect((await chrome.targets()).some((t) => t.url === account())).toBe(false);
}

const rows: Row[] = [
  {
    name: 'holds the port and waits for what the extension sends',
    setup: 'a local program bound the port before any Jarvis session',
    v1Ran: [],
    attack: () => undefined,
    check: nothingLeaked,
  },
  {
    name: 'answers with a forged challenge, then asks for the signed-in page',
    setup: 'it cannot compute the proof without the token, so it sends random bytes',
    v1Ran: ['open_tab', 'evaluate'],
    attack: (socket, message) => {
      if (!message.includes('"hello"')) return;
      send(socket, { type: 'challenge', nonce: newNonce(), proof: newNonce() });
      for (const r of stealRequests()) send(socket, r);
    },
    check: nothingLeaked,
  },
  {
    name: 'skips the handshake: sends its requests right after the hello',
    setup: 'version 1 ran whatever the server on the port asked',
    v1Ran: ['open_tab', 'evaluate'],
    attack: (socket, message) => message.includes('"hello"') && stealRequests().forEach((r) => send(socket, r)),
    check: nothingLeaked,
  },
  {
    name: 'replays a challenge recorded from a real Jarvis session',
    setup: 'a real challenge and proof, made for an earlier hello of the extension',
    v1Ran: ['open_tab', 'evaluate'],
    attack: (socket, message, port) => {
      if (!message.includes('"hello"')) return;
      const serverNonce = newNonce();
      send(socket, {
        type: 'challenge',
        nonce: serverNonce,
        proof: pairingProof(TOKEN, 'server', port, newNonce(), serverNonce),
      });
      for (const r of stealRequests()) send(socket, r);
    },
    check: nothingLeaked,
  },
  {
    name: 'relays the handshake to a real Jarvis server on another port',
    setup: 'the real server (same token) listens on another port; the impostor forwards both ways',
    v1Ran: [],
    attack: (() => {
      const upstreams = new Map<WebSocket, Promise<WebSocket>>();
      return (socket: WebSocket, message: string) => {
        if (!upstreams.has(socket))
          upstreams.set(
            socket,
            (async () => {
              const real = new ExtensionBridge({
                port: await freePort(),
                token: TOKEN,
                connectTimeoutMs: 100,
                extensionDir: '/',
              });
              await real.listen();
              const up = new WebSocket(real.url, { origin: EXTENSION_ORIGIN });
              up.on('message', (data) => socket.send(String(data)));
              socket.on('close', () => (up.close(), void real.close()));
              await new Promise((r) => up.once('open', r));
              return up;
            })(),
          );
        void upstreams.get(socket)!.then((up) => up.send(message));
      };
    })(),
    check: nothingLeaked,
  },
];

describe.runIf(hasChromium)('an impostor holding the WebBridge port gets nothing', { timeout: 90_000 }, () => {
  it.each(rows)('$name', async (row) => {
    const before = await startImpostorServer((socket, message) => row.attack(socket, message, before.port));
    // Version 1: the token and the browser were the port holder's.
    const v1 = v1Extension(before.port);
    await until(() => before.heard.join('\n').includes(TOKEN) && v1.ran.length >= row.v1Ran.length, 'version 1');
    expect(v1.ran).toEqual(row.v1Ran);
    v1.close();
    await before.close();

    const impostor = await startImpostorServer((socket, message) => row.attack(socket, message, impostor.port));
    try {
      expect(await chrome.pair(WEBBRIDGE_EXTENSION_ID, impostor.port, TOKEN)).toBe('');
      await row.check(impostor);
    } finally {
      await impostor.close();
    }
  });
});
