// WebSearch's backends: each turns (query, limit) into ranked hits through its own API.
import { asArray, asRecord, asText, at, plain, requestJson, withQuery, type SearchHit } from './searchHttp';
import type { SearchBackendConfig, WebSettings } from './webService';

function hit(title: unknown, url: unknown, snippet: unknown, extra?: unknown): SearchHit | undefined {
  const t = asText(title);
  const u = asText(url);
  return t && u ? { title: plain(t)!, url: u, snippet: plain(asText(snippet)), extra: asText(extra) } : undefined;
}

const present = (h: SearchHit | undefined): h is SearchHit => h !== undefined;

async function brave(
  backend: SearchBackendConfig,
  query: string,
  limit: number,
  web: WebSettings,
  signal: AbortSignal,
): Promise<SearchHit[]> {
  const data = await requestJson(
    {
      service: 'Brave Search',
      url: withQuery(backend.baseUrl, '/web/search', { q: query, count: limit }),
      headers: { 'x-subscription-token': backend.apiKey ?? '' },
    },
    web,
    signal,
  );
  return asArray(at(data, 'web.results'))
    .map((r) => hit(asRecord(r).title, asRecord(r).url, asRecord(r).description, asRecord(r).age))
    .filter(present);
}

async function langsearch(
  backend: SearchBackendConfig,
  query: string,
  limit: number,
  web: WebSettings,
  signal: AbortSignal,
): Promise<SearchHit[]> {
  const data = await requestJson(
    {
      service: 'LangSearch',
      url: `${backend.baseUrl.replace(/\/+$/, '')}/web-search`,
      method: 'POST',
      headers: { authorization: `Bearer ${backend.apiKey ?? ''}` },
      body: { query, count: limit, summary: true, freshness: 'noLimit' },
    },
    web,
    signal,
  );
  const code = asRecord(data).code;
  if (typeof code === 'number' && code !== 200)
    throw new Error(`LangSearch search failed: ${asText(asRecord(data).msg) ?? `code ${code}`}`);
  return asArray(at(data, 'data.webPages.value'))
    .map((r) => {
      const x = asRecord(r);
      return hit(x.name, x.url, x.summary ?? x.snippet, x.datePublished);
    })
    .filter(present);
}

async function moonshot(
  backend: SearchBackendConfig,
  query: string,
  limit: number,
  web: WebSettings,
  signal: AbortSignal,
): Promise<SearchHit[]> {
  const data = await requestJson(
    {
      service: 'Moonshot search',
      url: backend.baseUrl,
      method: 'POST',
      headers: { ...backend.headers, ...(backend.apiKey ? { authorization: `Bearer ${backend.apiKey}` } : {}) },
      body: { text_query: query, limit, enable_page_crawling: false, timeout_seconds: 30 },
    },
    web,
    signal,
  );
  return asArray(asRecord(data).search_results)
    .map((r) => {
      const x = asRecord(r);
      return hit(
        x.title,
        x.url,
        x.snippet,
        [asText(x.site_name), asText(x.date)].filter(Boolean).join(' · ') || undefined,
      );
    })
    .filter(present);
}

const BACKENDS = { brave, langsearch, moonshot };

export const BACKEND_NAMES: Record<SearchBackendConfig['provider'], string> = {
  brave: 'Brave Search',
  langsearch: 'LangSearch',
  moonshot: 'Moonshot search',
};

export async function searchWeb(
  backend: SearchBackendConfig,
  query: string,
  limit: number,
  web: WebSettings,
  signal: AbortSignal,
): Promise<SearchHit[]> {
  return (await BACKENDS[backend.provider](backend, query, limit, web, signal)).slice(0, limit);
}
