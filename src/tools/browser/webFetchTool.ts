// web_fetch: the browser profile's fetch (docs/browser.md) — FetchURL's pipeline, answered as JSON.
import { z } from 'zod';
import { defineTool } from '../defineTool';
import { fetchReadable } from '../web/readableFetch';
import { WEB_SERVICE } from '../web/webService';
import { jsonError, jsonResult } from './browserService';
import description from './webFetch.md';

export const webFetchTool = defineTool({
  name: 'web_fetch',
  description,
  schema: z.object({ url: z.string().trim().min(1, 'url is required'), max_length: z.number().int().positive().optional() }),
  readOnly: true,
  defaultApproval: 'auto',
  subject: (args) => `web_fetch(${args.url})`,
  async execute(args, ctx) {
    try {
      const page = await fetchReadable(args.url, ctx.services.get(WEB_SERVICE), ctx.signal);
      const cut = args.max_length !== undefined && page.content.length > args.max_length;
      const content = cut ? page.content.slice(0, args.max_length) : page.content;
      const result: Record<string, unknown> = { url: args.url, content_type: page.contentType, content, truncated: cut || page.bodyTruncated };
      if (page.finalUrl !== new URL(args.url).href) result.final_url = page.finalUrl;
      return jsonResult(result, `Fetched ${page.finalUrl}`);
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return jsonError((e as Error).message);
    }
  },
});
