// The bridge's gates (docs/plugins-official.md, "Pairing and who may connect"): only the extension's origin
// gets a WebSocket at all; only a hello with the pairing token gets requests; a connection that closes
// mid-call fails that call with the reason. The clients here are other local processes' view of the port.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ExtensionBridge, WEBBRIDGE_EXTENSION_ID } from '../../../src/platform/webbridge/extensionBridge';
import { ConfigError, loadConfig } from '../../../src/store/config';
import { newWebbridgeToken, webbridgeToken, webbridgeTokenPath } from '../../../src/store/webbridgeToken';

const ORIGIN = `chrome-extension://${WEBBRIDGE_EXTENSION_ID}`;
const TOKEN = 'a'.repeat(43);
let bridge: ExtensionBridge | undefined;
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

async function start(connectTimeoutMs = 2_000): Promise<ExtensionBridge> {
  bridge = new ExtensionBridge({ port: await freePort(), token: TOKEN, connectTimeoutMs, extensionDir: '/ext' });
  await bridge.listen();
  return bridge;
}

/** Connects as a client with this origin; resolves how the server answered. */
function knock(url: string, origin: string | undefined, hello?: unknown) {
  return new Promise<{ status?: number; closeCode?: number; reason?: string; socket?: WebSocket }>((resolve) => {
    const socket = new WebSocket(url, origin ? { origin } : {});
    socket.on('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode });
      socket.terminate();
    });
    socket.on('error', () => undefined);
    socket.on('open', () => hello !== undefined && socket.send(JSON.stringify(hello)));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type?: string };
      if (message.type === 'welcome') resolve({ socket });
    });
    socket.on('close', (code, reason) => resolve({ closeCode: code, reason: reason.toString() }));
  });
}

const abort = () => new AbortController().signal;

describe('the WebBridge extension bridge', () => {
  it('refuses another origin, a missing origin, a missing token and a wrong token', async () => {
    const b = await start();
    expect(await knock(b.url, 'http://127.0.0.1:8080', { type: 'hello', token: TOKEN })).toEqual({ status: 403 });
    expect(
      await knock(b.url, 'chrome-extension://someotherextensionidxxxxxxxxxx', { type: 'hello', token: TOKEN }),
    ).toEqual({ status: 403 });
    expect(await knock(b.url, undefined, { type: 'hello', token: TOKEN })).toEqual({ status: 403 });

    expect(await knock(b.url, ORIGIN, { type: 'hello', token: null })).toMatchObject({ closeCode: 4003 });
    await expect(b.call('list_tabs', {}, abort())).rejects.toThrow('installed but not paired');

    expect(await knock(b.url, ORIGIN, { type: 'hello', token: 'b'.repeat(43) })).toMatchObject({ closeCode: 4001 });
    await expect(b.call('list_tabs', {}, abort())).rejects.toThrow('connected with a wrong pairing token');

    // Requests before the hello are never answered: the first message must be the hello.
    expect(await knock(b.url, ORIGIN, { id: 1, method: 'list_tabs' })).toMatchObject({ closeCode: 4002 });
  });

  it('the paired extension gets the requests; closing mid-call fails the call with the reason', async () => {
    const b = await start();
    const { socket } = await knock(b.url, ORIGIN, { type: 'hello', token: TOKEN });
    socket!.on('message', (data) => {
      const m = JSON.parse(String(data)) as { id?: number; method?: string };
      if (m.method === 'list_tabs') socket!.send(JSON.stringify({ id: m.id, result: [{ id: 7 }] }));
      if (m.method === 'evaluate') socket!.close();
    });
    expect(await b.call('list_tabs', {}, abort())).toEqual([{ id: 7 }]);
    await expect(b.call('evaluate', { tab_id: 7 }, abort())).rejects.toThrow(
      'The browser closed the WebBridge connection',
    );
  });

  it('no extension within the bound: says it is not installed, where it is and how to pair', async () => {
    const b = await start(200);
    const said = b.call('list_tabs', {}, abort());
    await expect(said).rejects.toThrow(/No Jarvis WebBridge extension connected to ws:\/\/127\.0\.0\.1:\d+\/webbridge/);
    await expect(said).rejects.toThrow(/within 0\.2 s.*Load unpacked.*\/ext/);
  });

  it('a port already taken is reported on each call, naming the setting to change', async () => {
    const first = await start();
    const second = new ExtensionBridge({
      port: Number(new URL(first.url).port),
      token: TOKEN,
      connectTimeoutMs: 100,
      extensionDir: '/ext',
    });
    await second.listen();
    await expect(second.call('list_tabs', {}, abort())).rejects.toThrow(/is taken.*\[webbridge\] port/);
    await second.close();
  });

  it('the pairing token: 256 random bits, 0600, kept across calls, replaced only on request', () => {
    const home = mkdtempSync(join(tmpdir(), 'jarvis-webbridge-token-'));
    const token = webbridgeToken(home);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(webbridgeTokenPath(home)).mode & 0o777).toBe(0o600);
    expect(webbridgeToken(home)).toBe(token);
    const renewed = newWebbridgeToken(home);
    expect(renewed).not.toBe(token);
    expect(webbridgeToken(home)).toBe(renewed);
    expect(webbridgeToken(mkdtempSync(join(tmpdir(), 'jarvis-webbridge-token-')))).not.toBe(renewed);
    // A damaged file is reported, never silently replaced (an extension paired with it would be locked out).
    writeFileSync(webbridgeTokenPath(home), 'not a token\n');
    expect(() => webbridgeToken(home)).toThrow(/is damaged; run `jarvis webbridge-pair --new`/);
    expect(readFileSync(webbridgeTokenPath(home), 'utf8')).toBe('not a token\n');
  });

  it('[webbridge] port out of range: config.toml is refused naming the key and the range', () => {
    const home = mkdtempSync(join(tmpdir(), 'jarvis-webbridge-config-'));
    writeFileSync(join(home, 'config.toml'), '[webbridge]\nport = 70000\n');
    expect(() => loadConfig(home)).toThrow(ConfigError);
    expect(() => loadConfig(home)).toThrow(/webbridge\.port.*an integer from 1 to 65535/s);
    writeFileSync(join(home, 'config.toml'), '');
    expect(loadConfig(home).config.webbridge).toEqual({ port: 47_841, connect_timeout_s: 10 });
  });
});
