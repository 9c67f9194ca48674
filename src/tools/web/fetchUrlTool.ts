// FetchURL: one URL → its readable content. The network rules (public addresses only, every redirect
// hop checked, timeout, size cap) live in platform/web/guardedFetch; this file turns the body into
// what a model should read.
import { z } from 'zod';
import { guardedFetch, UrlRefusedError } from '../../platform/web/guardedFetch';
import { classifyBody, decodeBody, mimeEssence } from '../../platform/web/responseBody';
import { stripTags } from '../../platform/web/htmlWalker';
import { defineTool, type ToolResult } from '../defineTool';
import description from './fetchUrl.md';
import { WEB_SERVICE, WEB_USER_AGENT } from './webService';

export const FETCH_MAX_BYTES = 5 * 1024 * 1024;

function error(content: string): ToolResult {
  return { content, isError: true };
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return stripTags(text);
  }
}

export const fetchUrlTool = defineTool({
  name: 'FetchURL',
  description,
  // Limits (redirects, timeout, size) are in docs/web.md, not in the description: the first request must stay small.
  schema: z.object({ url: z.string() }),
  readOnly: true,
  defaultApproval: 'auto',
  subject: (args) => `FetchURL(${args.url})`,
  async execute(args, ctx) {
    let url: URL;
    try {
      url = new URL(args.url.trim());
    } catch {
      return error(`Invalid URL: "${args.url}". Give an absolute http:// or https:// URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return error(`Only http and https URLs are supported, not ${url.protocol}`);
    const web = ctx.services.get(WEB_SERVICE);
    let response;
    try {
      response = await guardedFetch(url.href, {
        signal: ctx.signal,
        timeoutMs: web.timeoutMs,
        maxBytes: FETCH_MAX_BYTES,
        allowPrivateNetwork: web.allowPrivateNetwork,
        resolver: web.resolver,
        proxyFor: web.proxyFor,
        headers: { 'user-agent': WEB_USER_AGENT, accept: 'text/html,application/xhtml+xml,text/markdown,text/plain,application/json;q=0.9,*/*;q=0.8' },
      });
    } catch (e) {
      if (e instanceof UrlRefusedError) return error(e.message);
      if (ctx.signal.aborted) throw e;
      return error(`Failed to fetch ${url.href}: ${(e as Error).message}`);
    }
    if (response.status < 200 || response.status > 299) {
      return error(`HTTP ${response.status}${response.statusText ? `: ${response.statusText}` : ''} fetching ${response.url}`);
    }
    const contentType = response.headers.get('content-type');
    const mime = mimeEssence(contentType);
    const kind = classifyBody(mime, response.body);
    if (kind === 'binary') {
      return error(`${response.url} is ${mime ?? 'binary data'} (${response.body.length}${response.truncated ? '+' : ''} bytes), not text; FetchURL only returns text content.`);
    }
    const text = decodeBody(response.body, contentType, kind);
    let content: string;
    let title: string | undefined;
    if (kind === 'html') {
      const { htmlToMarkdown } = await import('../../platform/web/htmlToMarkdown');
      const page = await htmlToMarkdown(text);
      content = page.markdown;
      title = page.title;
    } else {
      content = kind === 'json' ? prettyJson(text) : text;
    }
    const header: string[] = [];
    if (title) header.push(`Title: ${title}`);
    if (response.url !== url.href) header.push(`URL: ${response.url} (redirected from ${url.href})`);
    const notes: string[] = [];
    if (response.truncated) notes.push(`[Only the first ${FETCH_MAX_BYTES / 1024 / 1024} MiB of the response were read; the rest of the page is missing.]`);
    if (!content.trim()) notes.push('[The page has no readable text.]');
    const body = [header.join('\n'), content, notes.join('\n')].filter(Boolean).join('\n\n');
    return { content: body, summary: `Fetched ${response.url} (${mime ?? 'no content type'}, ${content.length} characters)` };
  },
});
