// FetchURL: one URL → its readable content (docs/web-tools.md). The fetching and extraction are shared with
// the browser profile's web_fetch (readableFetch.ts); this file only shapes the text for the model.
import { z } from 'zod';
import { defineTool } from '../defineTool';
import description from './fetchUrl.md';
import { FETCH_MAX_BYTES, fetchReadable } from './readableFetch';
import { WEB_SERVICE } from './webService';

export { FETCH_MAX_BYTES };

export const fetchUrlTool = defineTool({
  name: 'FetchURL',
  services: [WEB_SERVICE],
  deferred: true,
  description,
  // Limits (redirects, timeout, size) are in docs/web-tools.md, not in the description: the first request must stay small.
  schema: z.object({ url: z.string() }),
  readOnly: true,
  defaultApproval: 'auto',
  subject: (args) => `FetchURL(${args.url})`,
  async execute(args, ctx) {
    let page;
    try {
      page = await fetchReadable(args.url, ctx.services.get(WEB_SERVICE), ctx.signal);
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return { content: (e as Error).message, isError: true };
    }
    const asked = args.url.trim();
    const header: string[] = [];
    if (page.title) header.push(`Title: ${page.title}`);
    if (page.finalUrl !== new URL(asked).href) header.push(`URL: ${page.finalUrl} (redirected from ${asked})`);
    const notes: string[] = [];
    if (page.bodyTruncated)
      notes.push(
        `[Only the first ${FETCH_MAX_BYTES / 1024 / 1024} MiB of the response were read; the rest of the page is missing.]`,
      );
    if (!page.content.trim()) notes.push('[The page has no readable text.]');
    const body = [header.join('\n'), page.content, notes.join('\n')].filter(Boolean).join('\n\n');
    return {
      content: body,
      summary: `Fetched ${page.finalUrl} (${page.contentType}, ${page.content.length} characters)`,
    };
  },
});
