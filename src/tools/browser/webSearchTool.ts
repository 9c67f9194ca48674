// web_search: the browser profile's search (docs/browser.md) — the configured engine, a bare array.
import { z } from 'zod';
import { defineTool, serviceKey } from '../defineTool';
import { WEB_SERVICE } from '../web/webService';
import { jsonError, jsonResult } from './browserService';
import { searchEngine, type EngineSettings } from './searchEngines';
import description from './webSearch.md';

export const ENGINE_SERVICE = serviceKey<EngineSettings>()('web-search-engine');
const DEFAULT_MAX = 5;
const CAP = 10;

export const webSearchEngineTool = defineTool({
  name: 'web_search',
  services: [ENGINE_SERVICE, WEB_SERVICE],
  description,
  constants: { DEFAULT_MAX, CAP },
  schema: z.object({ query: z.string().trim().min(1, 'query is required'), max_results: z.number().optional() }),
  readOnly: true,
  defaultApproval: 'auto',
  subject: (args) => `web_search(${args.query})`,
  async execute(args, ctx) {
    const max = Math.max(1, Math.min(CAP, Math.floor(args.max_results ?? DEFAULT_MAX)));
    try {
      const hits = await searchEngine(
        ctx.services.get(ENGINE_SERVICE),
        args.query,
        max,
        ctx.services.get(WEB_SERVICE),
        ctx.signal,
      );
      return jsonResult(hits, `${hits.length} results`);
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return jsonError((e as Error).message);
    }
  },
});
