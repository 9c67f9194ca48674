import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools } from '../../../src/tools/registry';
import { braveTools } from '../../../src/tools/web/brave/braveTools';
import { webSearchTool } from '../../../src/tools/web/webSearchTool';
import { WEB_SERVICE, webSettingsFromConfig, type WebSettings } from '../../../src/tools/web';
import { parseConfigText } from '../../../src/store/config';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer';
import { makeToolHarness } from '../../helpers/toolHarness';

const json =
  (body: unknown, status = 200) =>
  (_req: unknown, res: import('node:http').ServerResponse) =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

let brave: FixtureServer;
let langsearch: FixtureServer;
let moonshot: FixtureServer;

beforeAll(async () => {
  brave = await startFixtureServer({
    '/res/v1/web/search': (req, res, url) => {
      if (req.headers['x-subscription-token'] !== 'brave-key')
        return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad token"}');
      if (url.searchParams.get('result_filter') === 'locations')
        return json({ locations: { results: [{ id: 'loc1' }, { id: 'loc2' }] } })(req, res);
      if (url.searchParams.get('enable_rich_callback') === '1') {
        return json(
          url.searchParams.get('q') === 'weather paris'
            ? { rich: { hint: { vertical: 'weather', callback_key: 'cb123' } } }
            : {},
        )(req, res);
      }
      if (url.searchParams.get('q') === 'slow down') return void res.writeHead(429).end('{"error":"rate"}');
      json({
        web: {
          results: [
            {
              title: 'Node <strong>streams</strong>',
              url: 'https://nodejs.org/api/stream.html',
              description: 'Stream API &amp; docs',
              age: '2 days ago',
            },
            { title: 'no url' },
          ],
        },
      })(req, res);
    },
    '/res/v1/news/search': json({
      results: [
        {
          title: 'Release day',
          url: 'https://news.example/r',
          description: 'A release',
          age: '1 hour ago',
          meta_url: { hostname: 'news.example' },
        },
      ],
    }),
    '/res/v1/images/search': json({
      results: [
        {
          title: 'A cat',
          url: 'https://pics.example/cat',
          source: 'pics.example',
          properties: { url: 'https://pics.example/cat.jpg' },
          thumbnail: { src: 'https://t.example/c.jpg' },
        },
      ],
    }),
    '/res/v1/videos/search': json({
      results: [
        {
          title: 'Talk',
          url: 'https://v.example/talk',
          description: 'A talk',
          age: '1 year ago',
          video: { duration: '41:02', creator: 'JSConf' },
        },
      ],
    }),
    '/res/v1/llm/context': json({
      grounding: {
        generic: [{ url: 'https://a.example', title: 'A page', snippets: ['First extracted chunk.', 'Second chunk.'] }],
      },
      sources: {},
    }),
    '/res/v1/chat/completions': json({
      choices: [{ message: { role: 'assistant', content: 'Paris is the capital of France. [1]' } }],
    }),
    '/res/v1/suggest/search': json({ results: [{ query: 'typescript generics' }, { query: 'typescript enum' }] }),
    '/res/v1/spellcheck/search': json({ results: [{ query: 'javascript' }] }),
    '/res/v1/local/pois': json({
      results: [
        {
          id: 'loc1',
          title: 'Café Uno',
          address: { streetAddress: '1 Main St', addressLocality: 'Springfield' },
          phone: '+1 555',
          rating: { ratingValue: 4.5, reviewCount: 12 },
        },
        { id: 'loc2', title: 'Café Dos' },
      ],
    }),
    '/res/v1/local/descriptions': json({ results: [{ id: 'loc1', description: 'Cosy place with pastries.' }] }),
    '/res/v1/web/rich': json({ type: 'rich', results: [{ type: 'weather', temperature: 18 }] }),
  });
  langsearch = await startFixtureServer({
    '/v1/web-search': json({
      code: 200,
      data: {
        webPages: {
          value: [{ name: 'LS result', url: 'https://ls.example', snippet: 'short', summary: 'a longer summary' }],
        },
      },
    }),
  });
  moonshot = await startFixtureServer({
    '/search': json({
      search_results: [
        { title: 'MS result', url: 'https://ms.example', snippet: 'moon', site_name: 'ms.example', date: '2026-01-01' },
      ],
    }),
  });
});
afterAll(async () => {
  await Promise.all([brave.close(), langsearch.close(), moonshot.close()]);
});

function config(toml: string) {
  return parseConfigText(toml, '/tmp/config.toml').config;
}
function settingsFor(toml: string, moonshotBase?: string): WebSettings {
  return webSettingsFromConfig(
    config(toml),
    moonshotBase ? { baseUrl: moonshotBase, apiKey: 'ms-key', customHeaders: { 'X-Team': 'a' } } : undefined,
    {},
  );
}
const names = (web: WebSettings) => builtinTools({ web }).map((t) => t.name);
function runner(web: WebSettings) {
  const h = makeToolHarness();
  h.register(WEB_SERVICE, web);
  return h;
}

describe('which web tools are offered', () => {
  it('no backend configured: FetchURL only, no WebSearch, no Brave tools', () => {
    const n = names(settingsFor(''));
    expect(n).toContain('FetchURL');
    expect(n).not.toContain('WebSearch');
    expect(n.filter((x) => x.startsWith('Brave'))).toEqual([]);
  });

  it('active_search_provider = "brave" with a key: WebSearch and the ten Brave tools', () => {
    const n = names(settingsFor('active_search_provider = "brave"\n[web.brave]\napi_key = "k"\n'));
    expect(n).toContain('WebSearch');
    expect(n.filter((x) => x.startsWith('Brave')).sort()).toEqual([
      'BraveAnswers',
      'BraveImageSearch',
      'BraveLLMContext',
      'BraveLocalSearch',
      'BraveNewsSearch',
      'BraveRichResults',
      'BraveSpellcheck',
      'BraveSuggest',
      'BraveVideoSearch',
      'BraveWebSearch',
    ]);
  });

  it('brave chosen without a key: no WebSearch and no Brave tools', () => {
    const n = names(settingsFor('active_search_provider = "brave"\n'));
    expect(n).not.toContain('WebSearch');
    expect(n.some((x) => x.startsWith('Brave'))).toBe(false);
  });

  it('a Brave key without active_search_provider serves WebSearch (legacy precedence) but offers no Brave tools', () => {
    const web = settingsFor('[web.brave]\napi_key = "k"\n');
    expect(web.search?.provider).toBe('brave');
    expect(names(web)).toContain('WebSearch');
    expect(names(web).some((x) => x.startsWith('Brave'))).toBe(false);
  });

  it('legacy precedence: Moonshot service, then Brave, then LangSearch; an explicit choice wins', () => {
    const both = '[web.brave]\napi_key = "b"\n[web.langsearch]\napi_key = "l"\n';
    expect(settingsFor(both, 'http://127.0.0.1:1/search').search?.provider).toBe('moonshot');
    expect(settingsFor(both).search?.provider).toBe('brave');
    expect(settingsFor('[web.langsearch]\napi_key = "l"\n').search?.provider).toBe('langsearch');
    expect(settingsFor(`active_search_provider = "langsearch"\n${both}`).search?.provider).toBe('langsearch');
    expect(settingsFor('active_search_provider = "moonshot"\n').search).toBeUndefined();
  });

  it('default base URLs are the public APIs; base_url overrides them', () => {
    expect(settingsFor('[web.brave]\napi_key = "k"\n').search?.baseUrl).toBe('https://api.search.brave.com/res/v1');
    expect(settingsFor('[web.langsearch]\napi_key = "k"\n').search?.baseUrl).toBe('https://api.langsearch.com/v1');
    expect(settingsFor('[web.brave]\napi_key = "k"\nbase_url = "http://127.0.0.1:9/x"\n').search?.baseUrl).toBe(
      'http://127.0.0.1:9/x',
    );
  });

  it('a bad [web] value is a config error naming the key', () => {
    expect(() => config('[web]\nallow_private_network = "yes"\n')).toThrow(
      /web\.allow_private_network: expected true or false/,
    );
    expect(() => config('[web.brave]\nkey = "x"\n')).toThrow(/web\.brave/);
  });
});

describe('WebSearch backends', () => {
  it('Brave: GET /web/search with the subscription token and count; snippets cleaned; items without a URL skipped', async () => {
    const h = runner(
      settingsFor(
        `active_search_provider = "brave"\n[web.brave]\napi_key = "brave-key"\nbase_url = "${brave.url}/res/v1"\n`,
      ),
    );
    const r = await h.run(webSearchTool, { query: 'node streams', limit: 3 });
    expect(r.isError).toBeFalsy();
    expect(r.text).toBe('1. Node streams\n   https://nodejs.org/api/stream.html\n   Stream API & docs\n   2 days ago');
    const hit = brave.hits.at(-1)!;
    expect(hit.path).toBe('/res/v1/web/search?q=node+streams&count=3');
    expect(hit.headers['x-subscription-token']).toBe('brave-key');
  });

  it('LangSearch: POST /web-search with a bearer key; the summary is the snippet', async () => {
    const h = runner(
      settingsFor(
        `active_search_provider = "langsearch"\n[web.langsearch]\napi_key = "ls-key"\nbase_url = "${langsearch.url}/v1"\n`,
      ),
    );
    const r = await h.run(webSearchTool, { query: 'rust' });
    expect(r.text).toBe('1. LS result\n   https://ls.example\n   a longer summary');
    const hit = langsearch.hits.at(-1)!;
    expect(hit.method).toBe('POST');
    expect(hit.headers.authorization).toBe('Bearer ls-key');
    expect(JSON.parse(hit.body)).toMatchObject({ query: 'rust', count: 5 });
  });

  it('Moonshot: POST to the configured service with its key and custom headers', async () => {
    const h = runner(settingsFor('active_search_provider = "moonshot"\n', `${moonshot.url}/search`));
    const r = await h.run(webSearchTool, { query: 'kimi' });
    expect(r.text).toBe('1. MS result\n   https://ms.example\n   moon\n   ms.example · 2026-01-01');
    const hit = moonshot.hits.at(-1)!;
    expect(hit.headers.authorization).toBe('Bearer ms-key');
    expect(hit.headers['x-team']).toBe('a');
    expect(JSON.parse(hit.body)).toMatchObject({ text_query: 'kimi', limit: 5 });
  });

  it('a wrong key, a rate limit and an unreachable service are clear errors', async () => {
    const wrong = runner(settingsFor(`[web.brave]\napi_key = "nope"\nbase_url = "${brave.url}/res/v1"\n`));
    expect((await wrong.run(webSearchTool, { query: 'x' })).text).toMatch(
      /^Brave Search refused the API key \(HTTP 401\).*Check the key in config.toml/,
    );
    const ok = runner(settingsFor(`[web.brave]\napi_key = "brave-key"\nbase_url = "${brave.url}/res/v1"\n`));
    expect((await ok.run(webSearchTool, { query: 'slow down' })).text).toMatch(/rate limit reached \(HTTP 429\)/);
    const down = runner(settingsFor('[web.brave]\napi_key = "k"\nbase_url = "http://127.0.0.1:1/res/v1"\n'));
    const r = await down.run(webSearchTool, { query: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Brave Search request failed/);
  });

  it('an empty query is refused before any request', async () => {
    const h = runner(settingsFor(`[web.brave]\napi_key = "brave-key"\nbase_url = "${brave.url}/res/v1"\n`));
    const before = brave.hits.length;
    const r = await h.run(webSearchTool, { query: '  ' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('query must not be empty');
    expect(brave.hits.length).toBe(before);
  });
});

describe('the Brave tools', () => {
  const tool = (name: string) => braveTools.find((t) => t.name === name)!;
  const h = () =>
    runner(
      settingsFor(
        `active_search_provider = "brave"\n[web.brave]\napi_key = "brave-key"\nbase_url = "${brave.url}/res/v1"\n`,
      ),
    );
  const last = () => brave.hits.at(-1)!;

  it.each([
    [
      'BraveWebSearch',
      { query: 'node', count: 2, country: 'DE', freshness: 'pw' },
      '/res/v1/web/search?q=node&count=2&country=DE&freshness=pw',
      'https://nodejs.org/api/stream.html',
    ],
    [
      'BraveNewsSearch',
      { query: 'release' },
      '/res/v1/news/search?q=release&count=10',
      '1. Release day\n   https://news.example/r\n   A release\n   news.example · 1 hour ago',
    ],
    [
      'BraveImageSearch',
      { query: 'cat' },
      '/res/v1/images/search?q=cat&count=20&safesearch=strict',
      'image: https://pics.example/cat.jpg',
    ],
    ['BraveVideoSearch', { query: 'talk' }, '/res/v1/videos/search?q=talk&count=10', '41:02 · JSConf · 1 year ago'],
    [
      'BraveLLMContext',
      { query: 'ctx' },
      '/res/v1/llm/context?q=ctx&maximum_number_of_tokens=8192',
      '## A page\nhttps://a.example\n\nFirst extracted chunk.\nSecond chunk.',
    ],
    [
      'BraveSuggest',
      { query: 'typescr' },
      '/res/v1/suggest/search?q=typescr&count=5',
      '- typescript generics\n- typescript enum',
    ],
    ['BraveSpellcheck', { query: 'javscript' }, '/res/v1/spellcheck/search?q=javscript', 'Did you mean: javascript'],
  ])('%s maps to its endpoint', async (name, args, path, expected) => {
    const r = await h().run(tool(name), args);
    expect(r.isError).toBeFalsy();
    expect(last().path).toBe(path);
    expect(last().headers['x-subscription-token']).toBe('brave-key');
    expect(r.text).toContain(expected);
  });

  it('BraveAnswers posts an OpenAI-style chat request and returns the answer', async () => {
    const r = await h().run(tool('BraveAnswers'), { query: 'capital of France?' });
    expect(r.text).toBe('Paris is the capital of France. [1]');
    expect(last().method).toBe('POST');
    expect(JSON.parse(last().body)).toMatchObject({
      model: 'brave',
      messages: [{ role: 'user', content: 'capital of France?' }],
    });
  });

  it('BraveLocalSearch finds location ids, then fetches places and descriptions', async () => {
    const before = brave.hits.length;
    const r = await h().run(tool('BraveLocalSearch'), { query: 'cafe' });
    const paths = brave.hits
      .slice(before)
      .map((x) => x.path)
      .sort();
    expect(paths).toEqual([
      '/res/v1/local/descriptions?ids=loc1&ids=loc2',
      '/res/v1/local/pois?ids=loc1&ids=loc2',
      '/res/v1/web/search?q=cafe&result_filter=locations&count=5',
    ]);
    expect(r.text).toContain(
      '1. Café Uno  [id loc1]\n   1 Main St, Springfield\n   +1 555 · rating 4.5 (12 reviews)\n   Cosy place with pastries.',
    );
    expect(r.text).toContain('2. Café Dos');
    expect(r.text).toContain('about 8 hours');
  });

  it('BraveRichResults follows the callback key; a query without a rich answer says so', async () => {
    const r = await h().run(tool('BraveRichResults'), { query: 'weather paris' });
    expect(last().path).toBe('/res/v1/web/rich?callback_key=cb123');
    expect(r.text).toContain('Rich result (weather)');
    expect(r.text).toContain('"temperature": 18');
    expect((await h().run(tool('BraveRichResults'), { query: 'plain' })).text).toBe(
      'Brave has no rich result for "plain".',
    );
  });

  it('bad arguments are refused before any request', async () => {
    const before = brave.hits.length;
    expect((await h().run(tool('BraveWebSearch'), { query: 'x', count: 99 })).isError).toBe(true);
    expect((await h().run(tool('BraveNewsSearch'), { query: 'x', freshness: 'yesterday' })).text).toContain(
      'freshness is pd, pw, pm, py',
    );
    expect((await h().run(tool('BraveSuggest'), { query: 'x', country: 'USA' })).text).toContain('2-letter');
    expect(brave.hits.length).toBe(before);
  });
});
