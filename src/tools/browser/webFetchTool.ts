// web_fetch: the browser profile's fetch (docs/browser.md) — FetchURL's pipeline, answered as JSON.
import { z } from 'zod';
import { defineTool } from '../defineTool';
import { fetchReadable } from '../web/readableFetch';
import { WEB_SERVICE } from '../web/webService';
import { jsonError, jsonResult } from './browserService';
import { answerPrompt, SUMMARY_SERVICE } from './pageSummary';
import description from './webFetch.md';

export const webFetchTool = defineTool({
  name: 'web_fetch',
  services: [WEB_SERVICE],
  optionalServices: [SUMMARY_SERVICE],
  description,
  schema: z.object({
    url: z.string().trim().min(1, 'url is required'),
    prompt: z.string().trim().min(1).optional(),
    max_length: z.number().int().positive().optional(),
  }),
  readOnly: true,
  defaultApproval: 'auto',
  subject: (args) => `web_fetch(${args.url})`,
  async execute(args, ctx) {
    try {
      const page = await fetchReadable(args.url, ctx.services.get(WEB_SERVICE), ctx.signal);
      // max_length limits what is read (and so what a summary is made of); a summary is complete.
      const cut = args.max_length !== undefined && page.content.length > args.max_length;
      const read = await answerPrompt(
        ctx.services.find(SUMMARY_SERVICE),
        args.prompt,
        cut ? page.content.slice(0, args.max_length) : page.content,
        cut || page.bodyTruncated,
        ctx.signal,
      );
      const result: Record<string, unknown> = {
        url: args.url,
        content_type: page.contentType,
        content: read.content,
        truncated: read.truncated,
      };
      if (page.finalUrl !== new URL(args.url).href) result.final_url = page.finalUrl;
      return jsonResult(result, `Fetched ${page.finalUrl}`);
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return jsonError((e as Error).message);
    }
  },
});
