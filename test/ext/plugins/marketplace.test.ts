// Marketplace catalogs (docs/plugins.md "Marketplaces"): parsing rules, where sources resolve, loading
// from files, file:// URLs and loopback http, the network-safety refusal, and the official update check.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultMarketplaceSource,
  loadMarketplace,
  MarketplaceError,
  MARKETPLACE_ENV,
  officialUpdates,
  packagedMarketplacePath,
  parseMarketplace,
} from '../../../src/ext/plugins/marketplace';
import { serve, startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer';

const parse = (doc: unknown, location = '/cat/marketplace.json', trusted = true) =>
  parseMarketplace(JSON.stringify(doc), location, { trusted });

describe('marketplace parsing', () => {
  it('reads versions "1" and "2" with every entry field', () => {
    for (const version of ['1', '2']) {
      const m = parse({
        version,
        plugins: [
          {
            id: 'acme',
            source: './acme',
            displayName: 'Acme',
            tier: 'curated',
            version: '1.2.0',
            description: 'Does acme things',
            keywords: ['a', 'b'],
            homepage: 'https://acme.example',
          },
        ],
      });
      expect(m.diagnostics).toEqual([]);
      expect(m.entries).toEqual([
        {
          id: 'acme',
          source: '/cat/acme',
          displayName: 'Acme',
          tier: 'curated',
          version: '1.2.0',
          description: 'Does acme things',
          keywords: ['a', 'b'],
          homepage: 'https://acme.example',
        },
      ]);
    }
  });

  it('needs only id and source: the display name defaults to the id, the tier to third-party', () => {
    const m = parse({ version: '2', plugins: [{ id: 'my-plugin', source: './my-plugin' }] });
    expect(m.entries).toEqual([
      { id: 'my-plugin', source: '/cat/my-plugin', displayName: 'my-plugin', tier: 'third-party' },
    ]);
  });

  it('reports each bad entry specifically and still lists the good ones', () => {
    const m = parse({
      version: '2',
      plugins: [
        { id: 'good', source: './good' },
        'not-an-object',
        { source: './no-id' },
        { id: 'Bad Id', source: './x' },
        { id: 'no-source' },
        { id: 'good', source: './again' },
        { id: 'tiered', source: './t', tier: 'gold' },
        { id: 'versioned', source: './v', version: 'one' },
        { id: 'words', source: './w', keywords: 'a,b', displayName: 42 },
      ],
    });
    expect(m.entries.map((e) => e.id)).toEqual(['good', 'tiered', 'versioned', 'words']);
    expect(m.diagnostics).toEqual([
      'plugins[1]: an entry must be an object with "id" and "source"; skipped.',
      'plugins[2]: "id" is missing or not a string; skipped.',
      'plugins[3] "Bad Id": the id must match [a-z0-9][a-z0-9_-]{0,63} (lower-case letters, digits, "-" and "_"); skipped.',
      'plugins[4] "no-source": "source" is missing or not a string (a local path, a zip URL or a GitHub URL); skipped.',
      'plugins[5] "good": the id is listed twice; the first entry is kept.',
      'plugins[6] "tiered": "tier" must be one of official, curated, third-party (found "gold"); listed as third-party.',
      'plugins[7] "versioned": "version" "one" is not a semantic version (like 1.2.3); ignored, so no update notice for it.',
      'plugins[8] "words": "displayName" must be a non-empty string; ignored.',
      'plugins[8] "words": "keywords" must be an array of strings; ignored.',
    ]);
    expect(m.entries.find((e) => e.id === 'tiered')?.tier).toBe('third-party');
    expect(m.entries.find((e) => e.id === 'versioned')?.version).toBeUndefined();
  });

  it('refuses what is not a catalog at all, saying why', () => {
    const bad = (text: string) => () => parseMarketplace(text, '/c/m.json', { trusted: true });
    expect(bad('{ "version": "2", plugins: [] }')).toThrow(/\/c\/m\.json is not valid JSON/);
    expect(bad('[]')).toThrow(/must be a JSON object with "version" and "plugins"/);
    expect(bad('{"version":"3","plugins":[]}')).toThrow(/has version "3"; this Jarvis reads versions "1" and "2"/);
    expect(bad('{"version":"2"}')).toThrow(/needs a "plugins" array/);
    expect(bad('{"version":"2","plugins":{}}')).toThrow(/needs a "plugins" array \(found object\)/);
    expect(bad('{}')).toThrow(MarketplaceError);
  });

  it('reads a file without "version" as version 1, with a diagnostic', () => {
    const m = parse({ plugins: [{ id: 'a', source: './a' }] });
    expect(m.entries).toHaveLength(1);
    expect(m.diagnostics).toEqual(['"version" is missing; read as version "1".']);
  });

  it('resolves relative sources against the catalog file or URL; absolute paths and URLs stay', () => {
    const entries = (location: string) =>
      parse(
        {
          version: '2',
          plugins: [
            { id: 'a', source: './a' },
            { id: 'b', source: '../up/b' },
            { id: 'c', source: '/abs/c' },
            { id: 'd', source: 'https://github.com/o/r' },
            { id: 'e', source: 'file:///x/e' },
          ],
        },
        location,
      ).entries.map((e) => e.source);
    expect(entries('/srv/cat/marketplace.json')).toEqual([
      '/srv/cat/a',
      '/srv/up/b',
      '/abs/c',
      'https://github.com/o/r',
      '/x/e',
    ]);
    expect(entries('https://plugins.example/cat/marketplace.json')).toEqual([
      'https://plugins.example/cat/a',
      'https://plugins.example/up/b',
      '/abs/c',
      'https://github.com/o/r',
      '/x/e',
    ]);
  });

  it('believes "official" only from the default catalog', () => {
    const doc = {
      version: '2',
      plugins: [
        { id: 'x', source: './x', tier: 'official' },
        { id: 'y', source: './y', tier: 'curated' },
      ],
    };
    expect(parse(doc, '/c/m.json', true).entries.map((e) => e.tier)).toEqual(['official', 'curated']);
    const adHoc = parse(doc, '/c/m.json', false);
    expect(adHoc.entries.map((e) => e.tier)).toEqual(['third-party', 'curated']);
    expect(adHoc.diagnostics).toEqual([
      'plugins[0] "x": only the default marketplace can list official plugins; listed as third-party.',
    ]);
  });
});

describe('official update notices', () => {
  const catalog = (trusted: boolean) =>
    parse(
      {
        version: '2',
        plugins: [
          { id: 'docs', source: './d', tier: 'official', version: '1.4.0', displayName: 'Docs' },
          { id: 'other', source: './o', tier: 'curated', version: '9.0.0' },
        ],
      },
      '/c/m.json',
      trusted,
    );

  it('names an installed official plugin older than the catalog (semver order)', () => {
    expect(officialUpdates([{ id: 'docs', version: '1.3.9' }], catalog(true))).toEqual([
      { id: 'docs', displayName: 'Docs', installed: '1.3.9', available: '1.4.0' },
    ]);
    expect(officialUpdates([{ id: 'docs', version: '1.4.0-beta.1' }], catalog(true))).toHaveLength(1);
    expect(officialUpdates([{ id: 'docs', version: '1.10.0' }], catalog(true))).toEqual([]);
    expect(officialUpdates([{ id: 'docs', version: '1.4.0' }], catalog(true))).toEqual([]);
  });

  it('says nothing for curated plugins, unknown versions, or an ad-hoc catalog', () => {
    expect(officialUpdates([{ id: 'other', version: '1.0.0' }], catalog(true))).toEqual([]);
    expect(officialUpdates([{ id: 'docs' }, { id: 'docs', version: 'dev' }], catalog(true))).toEqual([]);
    expect(officialUpdates([{ id: 'docs', version: '1.0.0' }], catalog(false))).toEqual([]);
  });
});

describe('loading a catalog', () => {
  let server: FixtureServer;
  let dir: string;
  const doc = JSON.stringify({
    version: '2',
    plugins: [{ id: 'remote', source: './plugins/remote.zip', tier: 'curated' }],
  });

  beforeAll(async () => {
    server = await startFixtureServer({
      '/cat/marketplace.json': serve(doc, 'application/json'),
      '/moved': (_req, res) => void res.writeHead(302, { location: '/cat/marketplace.json' }).end(),
      '/broken.json': serve('{ nope', 'application/json'),
      '/gone.json': serve('gone', 'text/plain', 404),
    });
    dir = mkdtempSync(join(tmpdir(), 'market-'));
  });
  afterAll(() => server.close());

  const opts = { env: {}, cwd: '/', allowPrivateNetwork: true };

  it('reads http(s) catalogs and resolves relative sources against the URL that answered', async () => {
    const m = await loadMarketplace(`${server.url}/moved`, opts);
    expect(m.location).toBe(`${server.url}/cat/marketplace.json`);
    expect(m.entries.map((e) => e.source)).toEqual([`${server.url}/cat/plugins/remote.zip`]);
    expect(m.trusted).toBe(false);
  });

  it('refuses loopback addresses unless [web] allow_private_network allows them, without contacting them', async () => {
    const before = server.hits.length;
    await expect(loadMarketplace(`${server.url}/cat/marketplace.json`, { env: {}, cwd: '/' })).rejects.toThrow(
      /Could not fetch the plugin marketplace .*127\.0\.0\.1 is a loopback address/,
    );
    expect(server.hits.length).toBe(before);
  });

  it('reports HTTP errors and broken JSON from a server', async () => {
    await expect(loadMarketplace(`${server.url}/gone.json`, opts)).rejects.toThrow(/the server answered 404/);
    await expect(loadMarketplace(`${server.url}/broken.json`, opts)).rejects.toThrow(/is not valid JSON/);
  });

  it('reads a local path (relative to the folder), a folder holding marketplace.json, and a file:// URL', async () => {
    mkdirSync(join(dir, 'cat'), { recursive: true });
    writeFileSync(
      join(dir, 'cat', 'marketplace.json'),
      JSON.stringify({ version: '1', plugins: [{ id: 'local', source: './local' }] }),
    );
    const byPath = await loadMarketplace('cat/marketplace.json', { env: {}, cwd: dir });
    expect(byPath.entries[0].source).toBe(join(dir, 'cat', 'local'));
    expect((await loadMarketplace(join(dir, 'cat'), { env: {}, cwd: '/' })).entries[0].id).toBe('local');
    expect(
      (await loadMarketplace(pathToFileURL(join(dir, 'cat', 'marketplace.json')).href, { env: {}, cwd: '/' }))
        .entries[0].id,
    ).toBe('local');
    await expect(loadMarketplace(join(dir, 'missing.json'), { env: {}, cwd: '/' })).rejects.toThrow(
      /Could not read the plugin marketplace .*missing\.json: no such file/,
    );
  });

  it('uses JARVIS_CODE_PLUGIN_MARKETPLACE_URL as the default catalog, whose tiers are believed', async () => {
    const env = { [MARKETPLACE_ENV]: `${server.url}/cat/marketplace.json` };
    expect(defaultMarketplaceSource(env)).toBe(env[MARKETPLACE_ENV]);
    const m = await loadMarketplace(undefined, { ...opts, env });
    expect(m.trusted).toBe(true);
    expect(m.entries[0].id).toBe('remote');
  });

  it('defaults to the marketplace file this package ships, which parses cleanly', async () => {
    expect(defaultMarketplaceSource({})).toBe(packagedMarketplacePath());
    const shipped = await loadMarketplace(undefined, { env: {}, cwd: '/' });
    expect(shipped.location).toBe(packagedMarketplacePath());
    expect(shipped.diagnostics).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(packagedMarketplacePath(), '..', '..', 'package.json'), 'utf8')) as {
      files: string[];
    };
    expect(pkg.files).toContain('plugins/');
  });
});
