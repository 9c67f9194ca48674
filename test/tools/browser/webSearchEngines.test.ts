import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_SERVICE, webSearchEngineTool } from '../../../src/tools/browser/webSearchTool';
import type { EngineSettings } from '../../../src/tools/browser/searchEngines';
import { WEB_SERVICE } from '../../../src/tools/web';
import { serve, startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer';
import { makeToolHarness } from '../../helpers/toolHarness';

const ddgResult = (i: number) =>
  `<div class="result"><h2><a class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(`https://site${i}.example/a?x=%25&y=${i}`)}&rut=abc">Result ${i}</a></h2><a class="result__snippet">Snippet ${i}</a></div>`;
const DDG = `<html><body>${Array.from({ length: 12 }, (_, i) => ddgResult(i + 1)).join('')}<div class="result"><span>no link here</span></div></body></html>`;
const BING =
  '<ol><li class="b_algo"><h2><a href="https://b.example/1">Bing one</a></h2><div class="b_caption"><p>bing snippet</p></div></li><li class="b_algo"><h2>no link</h2></li></ol>';
const BAIDU =
  '<div class="result"><h3 class="t"><a href="http://www.baidu.com/link?url=abc">百度 一</a></h3><div class="c-abstract">摘要</div></div><div class="result-op"><h3><a href="http://www.baidu.com/link?url=def">Two</a></h3><span class="c-span-last">second</span></div>';

let engines: FixtureServer;
beforeAll(async () => {
  engines = await startFixtureServer({
    '/ddg/html/': serve(DDG, 'text/html'),
    '/ddg-challenge/': serve(
      '<html><body><form id="challenge-form">anomaly detected</form></body></html>',
      'text/html',
      202,
    ),
    '/bing/search': serve(BING, 'text/html'),
    '/bingapi/v7.0/search': serve(
      JSON.stringify({ webPages: { value: [{ name: 'Api one', url: 'https://api.example/1', snippet: 'from api' }] } }),
      'application/json',
    ),
    '/baidu/s': serve(BAIDU, 'text/html'),
    '/cse/v1': serve(
      JSON.stringify({
        items: [{ title: 'CSE one', link: 'https://g.example/1', snippet: 'g' }, { title: 'no link' }],
      }),
      'application/json',
    ),
    '/broken/': serve('down', 'text/plain', 500),
  });
});
afterAll(() => engines.close());

function search(settings: Partial<EngineSettings>, args: Record<string, unknown>) {
  const h = makeToolHarness();
  h.register(WEB_SERVICE, { allowPrivateNetwork: false });
  h.register(ENGINE_SERVICE, { engine: 'duckduckgo', baseUrls: {}, ...settings });
  return h.run(webSearchEngineTool, args).then((r) => ({ ...r, json: JSON.parse(r.text) as unknown }));
}
const last = () => engines.hits.at(-1)!;

describe('web_search engines', () => {
  it('DuckDuckGo (default): q encoded, UA sent, uddg decoded once, blocks without a link skipped, default 5, cap 10', async () => {
    const five = await search({ baseUrls: { duckduckgo: `${engines.url}/ddg/html/` } }, { query: 'a b&c' });
    expect(last().path).toBe('/ddg/html/?q=a+b%26c');
    expect(last().headers['user-agent']).toMatch(/JarvisCode/);
    expect(five.json).toHaveLength(5);
    expect((five.json as Array<{ url: string }>)[0]).toEqual({
      title: 'Result 1',
      url: 'https://site1.example/a?x=%25&y=1',
      snippet: 'Snippet 1',
    });
    expect(
      (await search({ baseUrls: { duckduckgo: `${engines.url}/ddg/html/` } }, { query: 'x', max_results: 50 })).json,
    ).toHaveLength(10);
    expect(
      (await search({ baseUrls: { duckduckgo: `${engines.url}/ddg/html/` } }, { query: 'x', max_results: 0 })).json,
    ).toHaveLength(1);
  });

  it('a DuckDuckGo bot challenge is an explanatory error, not an empty list', async () => {
    const r = await search({ baseUrls: { duckduckgo: `${engines.url}/ddg-challenge/` } }, { query: 'x' });
    expect((r.json as { error: string }).error).toMatch(/bot challenge.*another engine/);
  });

  it('Bing HTML, Bing API with a key, Baidu (wd, rn), Google CSE (key, cx, num)', async () => {
    expect(
      (await search({ engine: 'bing', baseUrls: { bing: `${engines.url}/bing/search` } }, { query: 'q1' })).json,
    ).toEqual([{ title: 'Bing one', url: 'https://b.example/1', snippet: 'bing snippet' }]);
    expect(
      (
        await search(
          { engine: 'bing', bingApiKey: 'bk', baseUrls: { bing: `${engines.url}/bingapi/v7.0/search` } },
          { query: 'q2', max_results: 3 },
        )
      ).json,
    ).toEqual([{ title: 'Api one', url: 'https://api.example/1', snippet: 'from api' }]);
    expect(last().path).toBe('/bingapi/v7.0/search?q=q2&count=3');
    expect(last().headers['ocp-apim-subscription-key']).toBe('bk');
    expect(
      (await search({ engine: 'baidu', baseUrls: { baidu: `${engines.url}/baidu/s` } }, { query: '天气' })).json,
    ).toEqual([
      { title: '百度 一', url: 'http://www.baidu.com/link?url=abc', snippet: '摘要' },
      { title: 'Two', url: 'http://www.baidu.com/link?url=def', snippet: 'second' },
    ]);
    expect(last().path).toBe(`/baidu/s?wd=${encodeURIComponent('天气')}&rn=5`);
    expect(
      (
        await search(
          {
            engine: 'google_cse',
            googleApiKey: 'gk',
            googleCseId: 'cx1',
            baseUrls: { google_cse: `${engines.url}/cse/v1` },
          },
          { query: 'g' },
        )
      ).json,
    ).toEqual([{ title: 'CSE one', url: 'https://g.example/1', snippet: 'g' }]);
    expect(last().path).toBe('/cse/v1?key=gk&cx=cx1&q=g&num=5');
  });

  it('missing Google credentials and HTTP errors are clear errors', async () => {
    expect(((await search({ engine: 'google_cse' }, { query: 'g' })).json as { error: string }).error).toMatch(
      /google_api_key and google_cse_id/,
    );
    expect(
      ((await search({ baseUrls: { duckduckgo: `${engines.url}/broken/` } }, { query: 'x' })).json as { error: string })
        .error,
    ).toBe('DuckDuckGo search failed: HTTP 500');
  });
});
