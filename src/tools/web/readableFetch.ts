// The pipeline FetchURL and the browser profile's web_fetch share: fetch under the network rules,
// refuse binary bodies, decode, and turn HTML into the page's main text.
import { guardedFetch, UrlRefusedError } from '../../platform/web/guardedFetch';
import { stripTags } from '../../platform/web/htmlWalker';
import { classifyBody, decodeBody, mimeEssence } from '../../platform/web/responseBody';
import { WEB_USER_AGENT, type WebSettings } from './webService';

export const FETCH_MAX_BYTES = 5 * 1024 * 1024;

export interface ReadablePage {
  /** The URL that answered, after redirects. */
  finalUrl: string;
  /** MIME essence of the response; for a response without one, text/html when HTML extraction ran. */
  contentType: string;
  content: string;
  title?: string;
  /** The body was longer than FETCH_MAX_BYTES and was cut. */
  bodyTruncated: boolean;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return stripTags(text);
  }
}

/** Throws an Error whose message is ready for the model (invalid URL, refusal, HTTP status, binary…). */
export async function fetchReadable(target: string, web: WebSettings, signal: AbortSignal): Promise<ReadablePage> {
  let url: URL;
  try {
    url = new URL(target.trim());
  } catch {
    throw new Error(`Invalid URL: "${target}". Give an absolute http:// or https:// URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`Only http and https URLs are supported, not ${url.protocol}`);
  let response;
  try {
    response = await guardedFetch(url.href, {
      signal,
      timeoutMs: web.timeoutMs,
      maxBytes: FETCH_MAX_BYTES,
      allowPrivateNetwork: web.allowPrivateNetwork,
      resolver: web.resolver,
      proxyFor: web.proxyFor,
      headers: {
        'user-agent': WEB_USER_AGENT,
        accept: 'text/html,application/xhtml+xml,text/markdown,text/plain,application/json;q=0.9,*/*;q=0.8',
      },
    });
  } catch (e) {
    if (e instanceof UrlRefusedError || signal.aborted) throw e;
    throw new Error(`Failed to fetch ${url.href}: ${(e as Error).message}`);
  }
  if (response.status < 200 || response.status > 299) {
    throw new Error(
      `HTTP ${response.status}${response.statusText ? `: ${response.statusText}` : ''} fetching ${response.url}`,
    );
  }
  const header = response.headers.get('content-type');
  const mime = mimeEssence(header);
  const kind = classifyBody(mime, response.body);
  if (kind === 'binary') {
    throw new Error(
      `${response.url} is ${mime ?? 'binary data'} (${response.body.length}${response.truncated ? '+' : ''} bytes), not text; only text content can be fetched.`,
    );
  }
  const text = decodeBody(response.body, header, kind);
  const page: ReadablePage = {
    finalUrl: response.url,
    contentType: mime ?? 'text/html',
    content: text,
    bodyTruncated: response.truncated,
  };
  if (kind === 'html') {
    const { htmlToMarkdown } = await import('../../platform/web/htmlToMarkdown');
    // A library failing is an error the model sees, naming it (docs/web-tools.md), not a silent tag strip.
    const extracted = await htmlToMarkdown(text).catch((e: unknown) => {
      const why = e instanceof Error ? e.message : String(e);
      throw new Error(`Could not turn the HTML of ${response.url} into text: ${why}`, { cause: e });
    });
    page.content = extracted.markdown;
    page.title = extracted.title;
    if (!mime && extracted.method === 'strip') page.contentType = 'text/plain';
  } else if (kind === 'json') {
    page.content = prettyJson(text);
  }
  return page;
}
