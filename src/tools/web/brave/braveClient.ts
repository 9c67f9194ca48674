// The Brave Search API (docs/web-tools.md, "Brave tools"): one GET/POST helper carrying the subscription key,
// and the formatters that turn each endpoint's JSON into short text for the model.
import { asArray, asRecord, asText, at, plain, requestJson, withQuery, type SearchHit } from '../searchHttp';
import type { WebSettings } from '../webService';

export type BraveParams = Record<string, string | number | boolean | string[] | undefined>;

export interface BraveAccess {
  apiKey: string;
  baseUrl: string;
  web: WebSettings;
  signal: AbortSignal;
}

export function braveGet(access: BraveAccess, path: string, params: BraveParams): Promise<unknown> {
  return requestJson(
    {
      service: 'Brave Search',
      url: withQuery(access.baseUrl, path, params),
      headers: { 'x-subscription-token': access.apiKey },
    },
    access.web,
    access.signal,
  );
}

export function bravePost(access: BraveAccess, path: string, body: unknown): Promise<unknown> {
  return requestJson(
    {
      service: 'Brave Search',
      url: withQuery(access.baseUrl, path, {}),
      method: 'POST',
      headers: { 'x-subscription-token': access.apiKey },
      body,
    },
    access.web,
    access.signal,
  );
}

export function toHit(
  item: unknown,
  snippetKey = 'description',
  extra?: (x: Record<string, unknown>) => string | undefined,
): SearchHit | undefined {
  const x = asRecord(item);
  const title = asText(x.title);
  const url = asText(x.url);
  if (!title || !url) return undefined;
  return { title: plain(title)!, url, snippet: plain(asText(x[snippetKey])), extra: extra?.(x) };
}

export const joinParts = (...parts: Array<string | undefined>) => parts.filter(Boolean).join(' · ') || undefined;

/** LLM context: grounding snippets grouped by source. */
export function formatLlmContext(data: unknown): string {
  const sources = asRecord(asRecord(data).sources);
  const blocks = asArray(at(data, 'grounding.generic')).map((g) => {
    const x = asRecord(g);
    const url = asText(x.url) ?? '';
    const title = asText(x.title) ?? asText(asRecord(sources[url]).title) ?? url;
    const snippets = asArray(x.snippets).map((s) => (typeof s === 'string' ? s : JSON.stringify(s)));
    return [`## ${title}`, url, '', ...snippets].join('\n');
  });
  return blocks.length ? blocks.join('\n\n') : 'Brave found no context for this query.';
}

/** Local POIs joined with their descriptions. */
export function formatPlaces(pois: unknown, descriptions: unknown): string {
  const described = new Map(
    asArray(asRecord(descriptions).results).map((d) => [asText(asRecord(d).id), asText(asRecord(d).description)]),
  );
  const lines = asArray(asRecord(pois).results).map((p, i) => {
    const x = asRecord(p);
    const address = asRecord(x.address);
    const rating = asRecord(x.rating);
    const where = [address.streetAddress, address.addressLocality, address.addressRegion, address.postalCode]
      .map(asText)
      .filter(Boolean)
      .join(', ');
    const stars =
      asText(rating.ratingValue) &&
      `rating ${asText(rating.ratingValue)}${asText(rating.reviewCount) ? ` (${asText(rating.reviewCount)} reviews)` : ''}`;
    const hours = asArray(at(x, 'opening_hours.current_day'))
      .map((h) => `${asText(asRecord(h).opens) ?? '?'}–${asText(asRecord(h).closes) ?? '?'}`)
      .join(', ');
    return [
      `${i + 1}. ${asText(x.title) ?? asText(x.name) ?? '(unnamed place)'}${asText(x.id) ? `  [id ${asText(x.id)}]` : ''}`,
      where && `   ${where}`,
      joinParts(asText(x.phone), stars, hours && `today ${hours}`, asText(x.price_range)) &&
        `   ${joinParts(asText(x.phone), stars, hours && `today ${hours}`, asText(x.price_range))}`,
      asText(x.url) && `   ${asText(x.url)}`,
      described.get(asText(x.id)) && `   ${described.get(asText(x.id))}`,
    ]
      .filter(Boolean)
      .join('\n');
  });
  return lines.length
    ? `${lines.join('\n\n')}\n\n(Location ids stay valid for about 8 hours.)`
    : 'Brave found no places for this query.';
}
