// guardedFetch's redirect rules against loopback fixtures: caller headers (a search API's token,
// Authorization, cookies, custom headers) go to the target's origin only (issue 39 item 16), and a
// trusted host is trusted alone — the next hop of a redirect is checked again (issue 31 item 14).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pluginNetwork } from '../../../src/ext/plugins/pluginSources';
import { guardedFetch } from '../../../src/platform/web/guardedFetch';
import { serve, startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer';

const CALLER_HEADERS = {
  'X-Subscription-Token': 'BRAVE-TOKEN',
  Authorization: 'Bearer SECRET',
  Cookie: 'session=SECRET',
  'X-Custom': 'CUSTOM',
  Accept: 'application/json',
  'User-Agent': 'jarvis-test',
};

let first: FixtureServer;
let other: FixtureServer;

beforeAll(async () => {
  other = await startFixtureServer({ '/landing': serve('other origin') });
  first = await startFixtureServer({
    '/away': (_req, res) => void res.writeHead(302, { location: `${other.url}/landing` }).end(),
    '/here': (_req, res) => void res.writeHead(307, { location: '/same' }).end(),
    '/same': serve('same origin'),
  });
});
afterAll(async () => {
  await Promise.all([first?.close(), other?.close()]);
});

describe('guardedFetch redirects', () => {
  it('a redirect to another origin carries none of the caller headers that could hold a credential', async () => {
    const r = await guardedFetch(`${first.url}/away`, {
      maxBytes: 1000,
      allowPrivateNetwork: true,
      headers: CALLER_HEADERS,
    });
    expect(r.body.toString()).toBe('other origin');
    const sent = first.hits.at(-1)!.headers;
    expect(sent).toMatchObject({
      'x-subscription-token': 'BRAVE-TOKEN',
      authorization: 'Bearer SECRET',
      cookie: 'session=SECRET',
      'x-custom': 'CUSTOM',
    });
    const forwarded = other.hits.at(-1)!.headers;
    for (const name of ['x-subscription-token', 'authorization', 'cookie', 'x-custom'])
      expect(forwarded[name], name).toBeUndefined();
    expect(forwarded).toMatchObject({ accept: 'application/json', 'user-agent': 'jarvis-test' });
  });

  it('a redirect within the same origin keeps them', async () => {
    const r = await guardedFetch(`${first.url}/here`, {
      maxBytes: 1000,
      allowPrivateNetwork: true,
      headers: CALLER_HEADERS,
    });
    expect(r.body.toString()).toBe('same origin');
    expect(first.hits.at(-1)).toMatchObject({
      path: '/same',
      headers: { 'x-subscription-token': 'BRAVE-TOKEN', authorization: 'Bearer SECRET' },
    });
  });

  it('a trusted host is contacted whatever its address; a redirect from it to another host is checked and refused', async () => {
    const trustedHost = (url: URL) => url.host === new URL(first.url).host;
    const same = await guardedFetch(`${first.url}/same`, { maxBytes: 1000, trustedHost });
    expect(same.body.toString()).toBe('same origin');
    const before = other.hits.length;
    await expect(guardedFetch(`${first.url}/away`, { maxBytes: 1000, trustedHost })).rejects.toThrow(
      /Refused to fetch .*127\.0\.0\.1 is a loopback address/,
    );
    expect(other.hits.length).toBe(before);
    await expect(guardedFetch(`${other.url}/landing`, { maxBytes: 1000, trustedHost })).rejects.toThrow(
      /loopback address/,
    );
    expect(other.hits.length).toBe(before);
  });
});

describe('GitHub hosts trusted for plugin installs', () => {
  // The real codeload host is never named in a fetch here: a regression would send traffic off the machine.
  it('only the hosts set explicitly are trusted: with only JARVIS_CODE_GITHUB_URL, codeload.github.com is not', () => {
    expect([...pluginNetwork({}, false).trustedHosts]).toEqual([]);
    expect([...pluginNetwork({ JARVIS_CODE_GITHUB_URL: 'http://127.0.0.1:4001' }, false).trustedHosts]).toEqual([
      '127.0.0.1:4001',
    ]);
    const both = pluginNetwork(
      { JARVIS_CODE_GITHUB_URL: 'http://127.0.0.1:4001/', JARVIS_CODE_GITHUB_CODELOAD_URL: 'http://127.0.0.1:4002' },
      false,
    );
    expect([...both.trustedHosts].sort()).toEqual(['127.0.0.1:4001', '127.0.0.1:4002']);
    expect(both.trustedHosts.has('codeload.github.com')).toBe(false);
  });
});
