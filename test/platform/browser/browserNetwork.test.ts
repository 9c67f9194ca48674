// The managed browser reaches no local address from a page (docs/browser.md "Network safety"): an
// iframe, a WebSocket, a form post, an image, fetch, a meta refresh and a `location.href` jump to a
// local address (127.0.0.2 here, which the rules refuse as loopback) make no connection at all — the
// target is a TCP server that counts every connection it accepts. The page itself is on 127.0.0.1,
// the one origin this session allows, the way a public page would be. One Chromium for the file.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserSession } from '../../../src/platform/browser/browserSession';
import { checkUrl } from '../../../src/platform/web/guardedFetch';
import { serve, startFixtureServer, type FixtureServer, type RouteHandler } from '../../helpers/fixtureServer';
import { requireSystemPart } from '../../helpers/requireAll';

const hasChromium = requireSystemPart('chromium', 'the managed browser is a real Chromium');

/** A TCP server on 127.0.0.2 that counts accepted connections and closes each at once. */
async function countingServer(): Promise<{ server: Server; port: number; accepts: () => number }> {
  let accepts = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    accepts++;
    sockets.add(socket);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the counting server has no port');
  return { server, port: address.port, accepts: () => accepts };
}

let site: FixtureServer;
let local: Awaited<ReturnType<typeof countingServer>>;
let session: BrowserSession;
const refused: string[] = [];

const page = (body: string, head = '') =>
  `<!doctype html><html><head>${head}<title>t</title></head><body>${body}</body></html>`;

beforeAll(async () => {
  local = await countingServer();
  const target = `http://127.0.0.2:${local.port}`;
  const html = (body: string, head = ''): RouteHandler => serve(page(body, head), 'text/html');
  site = await startFixtureServer({
    '/all.html': html(
      `<iframe src="${target}/iframe"></iframe>
       <img src="${target}/img">
       <form id="f" method="post" action="${target}/form"><input name="a" value="b"></form>
       <script>
         try { new WebSocket('ws://127.0.0.2:${local.port}/ws'); } catch (e) {}
         fetch('${target}/fetch', { mode: 'no-cors' }).catch(() => {});
         addEventListener('load', () => document.getElementById('f').submit());
       </script>`,
    ),
    '/meta.html': html('meta refresh', `<meta http-equiv="refresh" content="0;url=${target}/meta">`),
    '/jump.html': html(`<script>location.href = '${target}/jump';</script>`),
  });
  const allowed = new URL(site.url).host;
  // The address rules of FetchURL, with the fixture's origin standing in for a public page.
  session = new BrowserSession({
    checkRequest: async (url) => {
      if (!/^https?:/.test(url)) return undefined;
      if (new URL(url).host === allowed) return undefined;
      try {
        // No DNS in tests: a name that is not the fixture's is refused without a query.
        await checkUrl(new URL(url), { resolver: async () => [] });
        return undefined;
      } catch (e) {
        refused.push(url);
        return (e as Error).message;
      }
    },
  });
  // Started here, in the file's temporary folder, and shared by the tests.
  await session.context();
});

afterAll(async () => {
  await session?.close();
  await site?.close();
  await new Promise<void>((resolve) => (local ? local.server.close(() => resolve()) : resolve()));
});

/** Waits (bounded) until the refusals include every one of `paths`; the order of attempts is the browser's. */
async function refusedAll(paths: string[], what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  const seen = () => paths.every((p) => refused.some((u) => new URL(u).pathname === p));
  while (!seen()) {
    if (Date.now() > deadline)
      throw new Error(`${what}: refusals seen ${JSON.stringify(refused)}, expected ${paths.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(hasChromium)('the managed browser and local addresses', { timeout: 90_000 }, () => {
  it('iframe, image, fetch, WebSocket and form post to a local address: refused, 0 connections', async () => {
    const { page: tab } = await session.newTab();
    await tab.goto(`${site.url}/all.html`).catch(() => undefined);
    // The WebSocket goes through the proxy as a tunnel to 127.0.0.2:<port>: its path is not seen, only the host.
    await refusedAll(['/iframe', '/img', '/fetch', '/form'], 'subresources');
    const wsDeadline = Date.now() + 20_000;
    while (
      !refused.some((u) => u.startsWith(`http://127.0.0.2:${local.port}/`) && new URL(u).pathname === '/') &&
      Date.now() < wsDeadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(
      refused.some((u) => u === `http://127.0.0.2:${local.port}/` || u.startsWith(`ws://127.0.0.2:${local.port}/ws`)),
    ).toBe(true);
    expect(site.hits.some((h) => h.path === '/all.html')).toBe(true);
    expect(local.accepts()).toBe(0);
    await tab.close();
  });

  it('a meta refresh and a location.href jump to a local address: refused, 0 connections', async () => {
    const tabs = [];
    for (const path of ['/meta.html', '/jump.html']) {
      const { page: tab } = await session.newTab();
      await tab.goto(`${site.url}${path}`).catch(() => undefined);
      tabs.push(tab);
    }
    await refusedAll(['/meta', '/jump'], 'navigations');
    expect(local.accepts()).toBe(0);
    for (const tab of tabs) await tab.close();
  });

  it('the proxy itself refuses what request interception does not see (a raw tunnel from the page context)', async () => {
    // A WebSocket to another port of the local address, made after the page loaded.
    const { page: tab } = await session.newTab();
    await tab.goto(`${site.url}/meta.html`).catch(() => undefined);
    await tab
      .evaluate(
        `new Promise((resolve) => { const ws = new WebSocket('ws://127.0.0.2:${local.port}/late'); ws.onerror = ws.onclose = () => resolve(null); })`,
      )
      .catch(() => undefined);
    expect(local.accepts()).toBe(0);
    await tab.close();
  });
});
