// The bridge's gates (docs/plugins-official.md, "Pairing and who may connect"): only the extension's origin
// gets a WebSocket at all; only a client that proves it holds the pairing token gets requests; a connection that
// closes or is replaced mid-call fails that call at once with the reason. The clients here are other local
// processes' view of the port (the attacks themselves: webbridgePairing.attacks.test.ts).
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExtensionBridge, REPLACED_CONNECTION } from '../../../src/platform/webbridge/extensionBridge';
import { WEBBRIDGE_PROTOCOL } from '../../../src/platform/webbridge/pairingProof';
import { ConfigError, loadConfig } from '../../../src/store/config';
import { newWebbridgeToken, webbridgeToken, webbridgeTokenPath } from '../../../src/store/webbridgeToken';
import { EXTENSION_ORIGIN as ORIGIN, freePort, knock } from '../../helpers/webbridgePeers';

const TOKEN = 'a'.repeat(43);
let bridge: ExtensionBridge | undefined;
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
});

async function start(connectTimeoutMs = 2_000): Promise<ExtensionBridge> {
  bridge = new ExtensionBridge({ port: await freePort(), token: TOKEN, connectTimeoutMs, extensionDir: '/ext' });
  await bridge.listen();
  return bridge;
}

const abort = () => new AbortController().signal;

describe('the WebBridge extension bridge', () => {
  it('refuses another origin, a missing origin, an unpaired extension, a wrong token and an old extension', async () => {
    const b = await start();
    const paired = { answer: { token: TOKEN } };
    expect(await knock(b.url, { ...paired, origin: 'http://127.0.0.1:8080' })).toMatchObject({ status: 403 });
    expect(
      await knock(b.url, { ...paired, origin: 'chrome-extension://someotherextensionidxxxxxxxxxx' }),
    ).toMatchObject({ status: 403 });
    expect(await knock(b.url, paired)).toMatchObject({ status: 403 });

    const nonce = 'n'.repeat(43);
    const unpaired = { type: 'hello', protocol: WEBBRIDGE_PROTOCOL, nonce, paired: false };
    expect(await knock(b.url, { origin: ORIGIN, hello: unpaired })).toMatchObject({ closeCode: 4003 });
    await expect(b.call('list_tabs', {}, abort())).rejects.toThrow('installed but not paired');

    expect(await knock(b.url, { origin: ORIGIN, answer: { token: 'b'.repeat(43) } })).toMatchObject({
      closeCode: 4001,
    });
    await expect(b.call('list_tabs', {}, abort())).rejects.toThrow('connected with a wrong pairing token');

    // A version 1 extension sends its token in the hello: never compared, told to update.
    const v1 = await knock(b.url, {
      origin: ORIGIN,
      hello: { type: 'hello', protocol: 'jarvis-webbridge.1', token: TOKEN },
    });
    expect(v1).toMatchObject({ closeCode: 4005, received: [] });
    await expect(b.call('list_tabs', {}, abort())).rejects.toThrow(
      /older version.*Reload it in chrome:\/\/extensions.*\/ext/,
    );

    // Requests before the hello are never answered: the first message must be the hello.
    expect(await knock(b.url, { origin: ORIGIN, hello: { id: 1, method: 'list_tabs' } })).toMatchObject({
      closeCode: 4002,
      received: [],
    });
  });

  it('the paired extension gets the requests; closing mid-call fails the call with the reason', async () => {
    const b = await start();
    const { socket } = await knock(b.url, { origin: ORIGIN, answer: { token: TOKEN } });
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

  it('a call on a connection that a newer one replaces fails at once, saying so; the newer one answers', async () => {
    // The test's own bound is the proof that nothing waits for the 60 s tool timeout.
    const b = await start();
    const first = await knock(b.url, { origin: ORIGIN, answer: { token: TOKEN } });
    const sent = new Promise<void>((resolve) => first.socket!.on('message', () => resolve()));
    const waiting = b.call('evaluate', { tab_id: 1, expression: 'new Promise(() => {})' }, abort());
    const failed = expect(waiting).rejects.toThrow(REPLACED_CONNECTION);
    await sent;
    const second = await knock(b.url, { origin: ORIGIN, answer: { token: TOKEN } });
    await failed;
    second.socket!.on('message', (data) => {
      const m = JSON.parse(String(data)) as { id?: number; method?: string };
      if (m.method === 'list_tabs') second.socket!.send(JSON.stringify({ id: m.id, result: [] }));
    });
    expect(await b.call('list_tabs', {}, abort())).toEqual([]);
    // A late answer on the replaced connection resolves nothing.
    first.socket!.send(JSON.stringify({ id: 1, result: 'late' }));
  }, 5_000);

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
