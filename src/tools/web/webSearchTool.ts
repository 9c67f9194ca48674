// WebSearch: a query → ranked hits from the configured backend (docs/web-tools.md, "Search backends").
import { z } from 'zod';
import { defineTool } from '../defineTool';
import { BACKEND_NAMES, searchWeb } from './searchBackends';
import { formatHits } from './searchHttp';
import description from './webSearch.md';
import { WEB_SERVICE } from './webService';

export const WEB_SEARCH_DEFAULT_LIMIT = 5;
export const WEB_SEARCH_MAX_LIMIT = 20;

export const webSearchTool = defineTool({
  name: 'WebSearch',
  services: [WEB_SERVICE],
  deferred: true,
  description,
  constants: { DEFAULT_LIMIT: WEB_SEARCH_DEFAULT_LIMIT, MAX_LIMIT: WEB_SEARCH_MAX_LIMIT },
  schema: z.object({
    query: z.string().trim().min(1, 'query must not be empty'),
    limit: z.number().int().min(1).max(WEB_SEARCH_MAX_LIMIT).optional(),
  }),
  readOnly: true,
  defaultApproval: 'auto',
  subject: (args) => `WebSearch(${args.query})`,
  async execute(args, ctx) {
    const web = ctx.services.get(WEB_SERVICE);
    const backend = web.search;
    if (!backend)
      return { content: 'No search backend is configured (see active_search_provider in config.toml).', isError: true };
    try {
      const hits = await searchWeb(backend, args.query, args.limit ?? WEB_SEARCH_DEFAULT_LIMIT, web, ctx.signal);
      return {
        content: formatHits(hits, `No results for "${args.query}".`),
        summary: `${hits.length} results from ${BACKEND_NAMES[backend.provider]}`,
      };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return { content: (e as Error).message, isError: true };
    }
  },
});
