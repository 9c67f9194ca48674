import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxyAgent } from 'undici';
import { fetchUrlTool, FETCH_MAX_BYTES } from '../../../src/tools/web/fetchUrlTool';
import { WEB_SERVICE, type WebSettings } from '../../../src/tools/web';
import { startFixtureServer, serve, type FixtureServer } from '../../helpers/fixtureServer';
import { startForwardProxy, type ForwardProxy } from '../../helpers/forwardProxy';
import { makeToolHarness } from '../../helpers/toolHarness';

const ARTICLE = `<!doctype html><html><head><title>Gardening notes</title><script>var tracking = 1;</script><style>.x{}</style></head><body>
<nav><a href="/">Home</a> NAVIGATION-LINKS</nav><header>SITE-HEADER</header>
<main><article><h1>Growing tomatoes</h1>
<p>Tomatoes need warm soil, six to eight hours of sun and steady watering. Mulch keeps the soil moist and the roots cool through the summer months.</p>
<h2>Steps</h2><ul><li>Harden off the seedlings</li><li>Plant deep, up to the first leaves</li></ul>
<p>Read the <a href="https://example.org/guide">full guide</a> for pruning, and run <code>water --daily</code> in dry weeks.</p>
<pre>water: 2 litres
feed: weekly</pre></article></main>
<aside>ADVERTISEMENT</aside><footer>SITE-FOOTER</footer></body></html>`;

const NO_MAIN = `<html><head><title>t</title></head><body><div><h2>Plain body page</h2><div>Some text in a div that is long enough to count as the content of this page.</div></div><footer>FOOT</footer></body></html>`;

let site: FixtureServer;
let secret: FixtureServer;

beforeAll(async () => {
  secret = await startFixtureServer({ '/secret': serve('internal admin data', 'text/plain') });
  site = await startFixtureServer({
    '/article.html': serve(ARTICLE, 'text/html; charset=utf-8'),
    '/no-main.html': serve(NO_MAIN, 'text/html'),
    '/tiny.html': serve('<html><body><b>hi</b> there</body></html>', 'text/html'),
    '/no-ctype': serve(ARTICLE),
    '/data.json': serve('{"a":1,"b":[true,null]}', 'application/json'),
    '/bad.json': serve('<p>not json</p>', 'application/json'),
    '/plain.txt': serve('line one\n  indented <b>kept</b>\n', 'text/plain'),
    '/readme.md': serve('# Title\n\n- item\n', 'text/markdown'),
    '/image.png': serve(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), 'image/png'),
    '/sneaky.txt': serve(Buffer.from([0x41, 0, 0x42, 0]), 'text/plain'),
    '/gbk.html': serve(
      Buffer.concat([
        Buffer.from('<html><head><meta charset="gbk"></head><body><p>'),
        Buffer.from([0xc4, 0xe3, 0xba, 0xc3]),
        Buffer.from('</p></body></html>'),
      ]),
      'text/html',
    ),
    '/redirect': (_req, res) => void res.writeHead(302, { location: '/final' }).end(),
    '/final': serve('arrived', 'text/plain'),
    '/loop': (_req, res) => void res.writeHead(302, { location: '/loop' }).end(),
    '/404': serve('gone', 'text/plain', 404),
    '/slow': () => undefined, // never answers
    '/huge.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(FETCH_MAX_BYTES + 1000));
    },
    '/to-loopback': (_req, res) => void res.writeHead(302, { location: `${secret.url}/secret` }).end(),
  });
});
afterAll(async () => {
  await site.close();
  await secret.close();
});

function setup(web: Partial<WebSettings> = {}) {
  const h = makeToolHarness();
  h.register(WEB_SERVICE, { allowPrivateNetwork: true, ...web });
  return { h, fetch: (url: string) => h.run(fetchUrlTool, { url }) };
}

describe('FetchURL content rules', () => {
  const { fetch } = setup();

  it('HTML → the main text as Markdown, without scripts, styles, navigation, header, footer or ads', async () => {
    const r = await fetch(`${site.url}/article.html`);
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('Title: Gardening notes');
    expect(r.text).toMatch(/Growing tomatoes/);
    expect(r.text).toMatch(/^## Steps$/m);
    expect(r.text).toMatch(/^- Harden off the seedlings$/m);
    expect(r.text).toContain('[full guide](https://example.org/guide)');
    expect(r.text).toContain('`water --daily`');
    expect(r.text).toContain('```\nwater: 2 litres\nfeed: weekly\n```');
    for (const junk of ['NAVIGATION-LINKS', 'SITE-HEADER', 'SITE-FOOTER', 'ADVERTISEMENT', 'tracking', '.x{}'])
      expect(r.text).not.toContain(junk);
  });

  it('a page without main/article falls back to the body walk', async () => {
    const r = await fetch(`${site.url}/no-main.html`);
    expect(r.text).toContain('Plain body page');
    expect(r.text).toContain('Some text in a div');
  });

  it('a page with almost no text falls back to tag stripping', async () => {
    const r = await fetch(`${site.url}/tiny.html`);
    expect(r.text).toBe('hi there');
  });

  it('a missing Content-Type is treated as HTML', async () => {
    const r = await fetch(`${site.url}/no-ctype`);
    expect(r.text).toMatch(/^## Steps$/m);
    expect(r.text).not.toContain('<p>');
  });

  it('JSON is pretty-printed; invalid JSON is read as text', async () => {
    expect((await fetch(`${site.url}/data.json`)).text).toBe('{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}');
    expect((await fetch(`${site.url}/bad.json`)).text).toBe('not json');
  });

  it('plain text and Markdown pass through unchanged', async () => {
    expect((await fetch(`${site.url}/plain.txt`)).text).toBe('line one\n  indented <b>kept</b>\n');
    expect((await fetch(`${site.url}/readme.md`)).text).toBe('# Title\n\n- item\n');
  });

  it('binary content is refused with a message naming the content type, also when a text type hides NUL bytes', async () => {
    const png = await fetch(`${site.url}/image.png`);
    expect(png.isError).toBe(true);
    expect(png.text).toMatch(/is image\/png .*not text/);
    const sneaky = await fetch(`${site.url}/sneaky.txt`);
    expect(sneaky.isError).toBe(true);
    expect(sneaky.text).toContain('text/plain');
  });

  it('honours a non-UTF-8 charset declared in the page', async () => {
    expect((await fetch(`${site.url}/gbk.html`)).text).toContain('你好');
  });

  it('follows redirects and says where it ended up', async () => {
    const r = await fetch(`${site.url}/redirect`);
    expect(r.text).toContain(`URL: ${site.url}/final (redirected from ${site.url}/redirect)`);
    expect(r.text).toContain('arrived');
    expect((await fetch(`${site.url}/plain.txt`)).text).not.toContain('redirected');
  });

  it('stops after 10 redirects', async () => {
    const before = site.hits.filter((h) => h.path === '/loop').length;
    const r = await fetch(`${site.url}/loop`);
    expect(r.isError).toBe(true);
    expect(r.text).toContain('more than 10 times');
    expect(site.hits.filter((h) => h.path === '/loop').length - before).toBe(11);
  });

  it('a non-2xx status is an error naming the status', async () => {
    const r = await fetch(`${site.url}/404`);
    expect(r.isError).toBe(true);
    expect(r.text).toContain('HTTP 404: Not Found');
  });

  it('a body over the size cap is cut with a note', async () => {
    const r = await fetch(`${site.url}/huge.txt`);
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('Only the first 5 MiB of the response were read');
  });

  it('invalid URLs and other schemes are refused before any request', async () => {
    expect((await fetch('not a url')).text).toContain('Invalid URL');
    expect((await fetch('file:///etc/passwd')).text).toContain('Only http and https');
    expect((await fetch('ftp://example.org/x')).text).toContain('Only http and https');
  });

  it('sends the agent User-Agent', async () => {
    await fetch(`${site.url}/plain.txt`);
    expect(site.hits.at(-1)?.headers['user-agent']).toMatch(/compatible; JarvisCode\/.* Agent/);
  });
});

describe('FetchURL timeout', () => {
  it('gives up after the timeout with a clear error', async () => {
    const { fetch } = setup({ timeoutMs: 200 });
    const r = await fetch(`${site.url}/slow`);
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Timed out after 0.2 s');
  });
});

describe('FetchURL network safety (allow_private_network off)', () => {
  const resolved: string[] = [];
  const fakeDns =
    (table: Record<string, string[]>) =>
    async (host: string): Promise<LookupAddress[]> => {
      resolved.push(host);
      const found = table[host];
      if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
  const { fetch } = setup({
    allowPrivateNetwork: false,
    resolver: fakeDns({
      'loopback.example.com': ['127.0.0.1'],
      'mixed.example.com': ['93.184.216.34', '10.0.0.5'],
      'v6.example.com': ['::1'],
    }),
  });

  it.each([
    ['loopback', 'http://127.0.0.1:PORT/secret'],
    ['loopback, other address of 127/8', 'http://127.1.2.3:PORT/secret'],
    ['localhost name', 'http://localhost:PORT/secret'],
    ['10/8', 'http://10.0.0.1/'],
    ['172.16/12', 'http://172.20.1.1/'],
    ['192.168/16', 'http://192.168.0.1/'],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', 'http://[::1]:PORT/secret'],
    ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]:PORT/secret'],
    ['decimal IP', 'http://2130706433:PORT/secret'],
    ['octal IP', 'http://0177.0.0.1:PORT/secret'],
    ['hex IP', 'http://0x7f.0.0.1:PORT/secret'],
    ['0.0.0.0', 'http://0.0.0.0:PORT/secret'],
    ['a public-looking name that resolves to loopback', 'http://loopback.example.com:PORT/secret'],
    ['a name with one private address among public ones', 'http://mixed.example.com/'],
    ['a name resolving to ::1', 'http://v6.example.com:PORT/secret'],
  ])('%s is refused without contact', async (_label, template) => {
    const hitsBefore = secret.hits.length;
    const r = await fetch(template.replace('PORT', String(secret.port)));
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Refused to fetch .* address\. Web tools only contact public internet addresses/);
    expect(r.text).toContain('allow_private_network');
    expect(secret.hits.length).toBe(hitsBefore);
  });

  it('a redirect to loopback is refused at that hop, without contacting it', async () => {
    // The first hop goes through a (user-configured) forward proxy to the fixture site, which redirects
    // to the loopback-only secret server.
    let proxy: ForwardProxy | undefined;
    try {
      proxy = await startForwardProxy(site.url);
      const agent = new ProxyAgent({ uri: proxy.url, proxyTunnel: false });
      const { fetch: viaProxy } = setup({
        allowPrivateNetwork: false,
        resolver: fakeDns({ 'public.example.com': ['93.184.216.34'] }),
        proxyFor: async (url) => (url.includes('public.example.com') ? agent : undefined),
      });
      const hitsBefore = secret.hits.length;
      const r = await viaProxy('http://public.example.com/to-loopback');
      expect(proxy.requests.map((q) => q.url)).toEqual(['http://public.example.com/to-loopback']);
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`Refused to fetch ${secret.url}/secret: 127.0.0.1 is a loopback address`);
      expect(secret.hits.length).toBe(hitsBefore);
      await agent.close();
    } finally {
      await proxy?.close();
    }
  });

  it('a name whose second DNS answer turns to loopback (rebinding) is refused at connect time', async () => {
    let calls = 0;
    const rebinding = async (): Promise<LookupAddress[]> => [
      { address: calls++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 },
    ];
    const { fetch: rebound } = setup({ allowPrivateNetwork: false, resolver: rebinding });
    const hitsBefore = secret.hits.length;
    const r = await rebound(`http://rebind.example.com:${secret.port}/secret`);
    expect(calls).toBe(2);
    expect(r.isError).toBe(true);
    expect(r.text).toContain('loopback address');
    expect(secret.hits.length).toBe(hitsBefore);
  });

  it('an unresolvable name is a clear error', async () => {
    const r = await fetch('http://nowhere.invalid/');
    expect(r.text).toContain('Could not resolve nowhere.invalid: ENOTFOUND');
  });
});
