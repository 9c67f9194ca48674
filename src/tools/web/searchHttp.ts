// JSON requests to a configured search service (Brave, LangSearch, Moonshot). The endpoint is the
// user's own configuration, so the private-address checks of FetchURL do not apply; the timeout, the
// size cap and the proxy do. Errors name the service, the status and the start of its answer.
import { guardedFetch } from '../../platform/web/guardedFetch';
import { WEB_USER_AGENT, type WebSettings } from './webService';

const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
const SEARCH_TIMEOUT_MS = 30_000;

export interface JsonRequest {
  service: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
}

/** Appends query parameters, skipping undefined values; arrays repeat the key. */
export function withQuery(
  base: string,
  path: string,
  params: Record<string, string | number | boolean | string[] | undefined>,
): string {
  const url = new URL(base.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(v));
  }
  return url.href;
}

export async function requestJson(req: JsonRequest, web: WebSettings, signal: AbortSignal): Promise<unknown> {
  let response;
  try {
    response = await guardedFetch(req.url, {
      signal,
      method: req.method ?? 'GET',
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      timeoutMs: web.timeoutMs ?? SEARCH_TIMEOUT_MS,
      maxBytes: MAX_RESPONSE_BYTES,
      allowPrivateNetwork: true,
      proxyFor: web.proxyFor,
      headers: {
        'user-agent': WEB_USER_AGENT,
        accept: 'application/json',
        ...(req.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...req.headers,
      },
    });
  } catch (e) {
    if (signal.aborted) throw e;
    throw new Error(`${req.service} request failed: ${(e as Error).message}`);
  }
  const text = response.body.toString('utf8');
  if (response.status === 401 || response.status === 403) {
    throw new Error(
      `${req.service} refused the API key (HTTP ${response.status}): ${text.slice(0, 200)}. Check the key in config.toml.`,
    );
  }
  if (response.status === 429)
    throw new Error(
      `${req.service} rate limit reached (HTTP 429): ${text.slice(0, 200)}. Wait a moment and try again.`,
    );
  if (response.status < 200 || response.status > 299)
    throw new Error(`${req.service} search failed: HTTP ${response.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${req.service} answered with something that is not JSON: ${text.slice(0, 200)}`);
  }
}

/** Narrowing helpers for loosely typed JSON answers. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
export function asText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim()
    ? value.trim()
    : typeof value === 'number'
      ? String(value)
      : undefined;
}
/** Follows a dotted path through nested records. */
export function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => asRecord(v)[key], value);
}

export interface SearchHit {
  title: string;
  url: string;
  snippet?: string;
  extra?: string;
}

export function formatHits(hits: SearchHit[], empty: string): string {
  if (!hits.length) return empty;
  return hits
    .map((h, i) =>
      [
        `${i + 1}. ${h.title}`,
        `   ${h.url}`,
        h.snippet && `   ${h.snippet.replace(/\s+/g, ' ')}`,
        h.extra && `   ${h.extra}`,
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n\n');
}

/** Strips the <strong> highlighting some services put in snippets. */
export function plain(text: string | undefined): string | undefined {
  return text
    ?.replace(/<\/?[a-z][^>]*>/gi, '')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}
