// web_search's engines (docs/browser.md, "web_search"): DuckDuckGo's HTML page (default, no key), Bing
// (Web Search API with a key, else its HTML page), Baidu's HTML page, Google Custom Search (key + cx).
// Each base URL is configurable; the parsers are pure functions over the returned text.
import { guardedFetch } from '../../platform/web/guardedFetch';
import { WEB_USER_AGENT, type WebSettings } from '../web/webService';

export const SEARCH_ENGINES = ['duckduckgo', 'bing', 'baidu', 'google_cse'] as const;
export type SearchEngine = (typeof SEARCH_ENGINES)[number];

export interface EngineSettings {
  engine: SearchEngine;
  /** Per-engine base URL overrides. */
  baseUrls: Partial<Record<SearchEngine, string>>;
  bingApiKey?: string;
  googleApiKey?: string;
  googleCseId?: string;
}

export const DEFAULT_ENGINE_URLS: Record<SearchEngine, string> = {
  duckduckgo: 'https://html.duckduckgo.com/html/',
  bing: 'https://www.bing.com/search',
  baidu: 'https://www.baidu.com/s',
  google_cse: 'https://www.googleapis.com/customsearch/v1',
};
const BING_API_URL = 'https://api.bing.microsoft.com/v7.0/search';

export interface EngineHit {
  title: string;
  url: string;
  snippet: string;
}

const ENGINE_NAMES: Record<SearchEngine, string> = {
  duckduckgo: 'DuckDuckGo',
  bing: 'Bing',
  baidu: 'Baidu',
  google_cse: 'Google Custom Search',
};
const SEARCH_TIMEOUT_MS = 15_000;

type Doc = { querySelectorAll(s: string): ArrayLike<El> };
type El = { querySelector(s: string): El | null; getAttribute(n: string): string | null; textContent: string | null };

async function documentOf(html: string): Promise<Doc> {
  const { parseHTML } = await import('linkedom');
  return parseHTML(html).document as unknown as Doc;
}

const clean = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

function collect(
  doc: Doc,
  blocks: string,
  link: (b: El) => El | null,
  snippet: (b: El) => El | null,
  resolve: (href: string) => string,
): EngineHit[] {
  const hits: EngineHit[] = [];
  for (const block of Array.from(doc.querySelectorAll(blocks))) {
    const a = link(block);
    const href = a?.getAttribute('href');
    const title = clean(a?.textContent);
    if (!a || !href || !title) continue;
    hits.push({ title, url: resolve(href), snippet: clean(snippet(block)?.textContent) });
  }
  return hits;
}

/** DuckDuckGo links are redirects (`//duckduckgo.com/l/?uddg=<target>`): the target is decoded once. */
export async function parseDuckDuckGo(html: string): Promise<EngineHit[]> {
  return collect(
    await documentOf(html),
    '.result',
    (b) => b.querySelector('.result__a'),
    (b) => b.querySelector('.result__snippet'),
    (href) => {
      const url = new URL(href, 'https://duckduckgo.com');
      return url.searchParams.get('uddg') ?? url.href;
    },
  );
}

export async function parseBing(html: string): Promise<EngineHit[]> {
  return collect(
    await documentOf(html),
    '.b_algo',
    (b) => b.querySelector('h2 > a'),
    (b) => b.querySelector('.b_caption p') ?? b.querySelector('p'),
    (h) => h,
  );
}

/** Baidu result links stay Baidu redirect links (they are not resolvable without following them). */
export async function parseBaidu(html: string): Promise<EngineHit[]> {
  return collect(
    await documentOf(html),
    '.result, .result-op',
    (b) => b.querySelector('.t > a') ?? b.querySelector('h3 > a'),
    (b) => b.querySelector('.c-abstract') ?? b.querySelector('.c-span-last'),
    (h) => h,
  );
}

function jsonItems(
  text: string,
  list: (data: Record<string, unknown>) => unknown,
  map: (item: Record<string, unknown>) => EngineHit | undefined,
): EngineHit[] {
  const data = JSON.parse(text) as Record<string, unknown>;
  const items = list(data);
  return (Array.isArray(items) ? items : [])
    .map((i) => map(i as Record<string, unknown>))
    .filter((h): h is EngineHit => h !== undefined);
}

const hitOf = (title: unknown, url: unknown, snippet: unknown): EngineHit | undefined =>
  typeof title === 'string' && title && typeof url === 'string' && url
    ? { title, url, snippet: typeof snippet === 'string' ? snippet : '' }
    : undefined;

export async function searchEngine(
  settings: EngineSettings,
  query: string,
  max: number,
  web: WebSettings,
  signal: AbortSignal,
): Promise<EngineHit[]> {
  const engine = settings.engine;
  const name = ENGINE_NAMES[engine];
  const headers: Record<string, string> = { 'user-agent': WEB_USER_AGENT };
  let url: URL;
  if (engine === 'google_cse') {
    if (!settings.googleApiKey || !settings.googleCseId)
      throw new Error('Google Custom Search needs [web_search] google_api_key and google_cse_id in config.toml.');
    url = new URL(settings.baseUrls.google_cse ?? DEFAULT_ENGINE_URLS.google_cse);
    url.search = new URLSearchParams({
      key: settings.googleApiKey,
      cx: settings.googleCseId,
      q: query,
      num: String(max),
    }).toString();
  } else if (engine === 'bing' && settings.bingApiKey) {
    url = new URL(settings.baseUrls.bing ?? BING_API_URL);
    url.search = new URLSearchParams({ q: query, count: String(max) }).toString();
    headers['ocp-apim-subscription-key'] = settings.bingApiKey;
  } else {
    url = new URL(settings.baseUrls[engine] ?? DEFAULT_ENGINE_URLS[engine]);
    url.search = new URLSearchParams(engine === 'baidu' ? { wd: query, rn: String(max) } : { q: query }).toString();
  }
  const response = await guardedFetch(url.href, {
    signal,
    timeoutMs: web.timeoutMs ?? SEARCH_TIMEOUT_MS,
    maxBytes: 4 * 1024 * 1024,
    allowPrivateNetwork: true,
    proxyFor: web.proxyFor,
    headers,
  });
  const text = response.body.toString('utf8');
  if (response.status < 200 || response.status > 299)
    throw new Error(
      `${name} search failed: HTTP ${response.status}${engine === 'google_cse' ? `: ${text.slice(0, 200)}` : ''}`,
    );
  let hits: EngineHit[];
  if (engine === 'google_cse')
    hits = jsonItems(
      text,
      (d) => d.items,
      (i) => hitOf(i.title, i.link, i.snippet),
    );
  else if (engine === 'bing' && settings.bingApiKey)
    hits = jsonItems(
      text,
      (d) => (d.webPages as Record<string, unknown> | undefined)?.value,
      (i) => hitOf(i.name, i.url, i.snippet),
    );
  else hits = await (engine === 'duckduckgo' ? parseDuckDuckGo : engine === 'bing' ? parseBing : parseBaidu)(text);
  if (!hits.length && engine === 'duckduckgo' && (response.status === 202 || /anomaly|challenge|captcha/i.test(text))) {
    throw new Error(
      'DuckDuckGo answered with a bot challenge instead of results; try again later, rephrase, or set [web_search] engine to another engine.',
    );
  }
  return hits.slice(0, max);
}
