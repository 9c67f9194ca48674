// ToolSearch: adds deferred tools' full schemas to the model's tool list for the rest of the session.
// Its description carries the catalog (name and one line per deferred tool), so the tool is built per
// catalog; the engine keeps one instance per distinct catalog so its bytes stay identical between steps.
import { z } from 'zod';
import { defineTool, type Tool } from '../defineTool';
import description from './toolSearch.md';
import { catalogLines } from './catalogListing';
import { searchCatalog, TOOL_LOADER, type DeferredToolEntry } from './toolLoader';

export const TOOL_SEARCH_NAME = 'ToolSearch';
/** A query loads at most this many tools, best matches first. */
export const TOOL_SEARCH_MAX_QUERY_MATCHES = 5;

const schema = z
  .object({
    names: z.array(z.string().min(1)).min(1).optional(),
    query: z.string().trim().min(1).optional(),
  })
  .refine((a) => a.names !== undefined || a.query !== undefined, {
    error: 'give `names` (exact tool names) or a keyword `query`',
  });

/** `listingBytes`: the room of the plugins' MCP server lines (src/tools/listingBudget.ts). */
export function toolSearchTool(catalog: readonly DeferredToolEntry[], listingBytes?: number): Tool {
  const lines = catalogLines(catalog, listingBytes).join('\n');
  return defineTool({
    name: TOOL_SEARCH_NAME,
    services: [TOOL_LOADER],
    description: `${description.trim()}\n\nDeferred tools:\n${lines}`,
    schema,
    readOnly: true,
    defaultApproval: 'auto',
    async execute(args, ctx) {
      const loader = ctx.services.get(TOOL_LOADER);
      const current = loader.catalog();
      const names =
        args.names ??
        searchCatalog(current, args.query!)
          .slice(0, TOOL_SEARCH_MAX_QUERY_MATCHES)
          .map((e) => e.name);
      if (!names.length) {
        return {
          content: `No deferred tool matches "${args.query}". Deferred tools: ${current.map((e) => e.name).join(', ') || 'none'}.`,
          isError: true,
        };
      }
      const outcome = loader.load(names);
      const parts: string[] = [];
      if (outcome.loaded.length)
        parts.push(
          `Loaded ${outcome.loaded.join(', ')}: their full schemas are in your tool list from the next step; call them directly.`,
        );
      if (outcome.available.length) parts.push(`Already available: ${outcome.available.join(', ')}.`);
      if (outcome.unknown.length)
        parts.push(
          `No such tool: ${outcome.unknown.join(', ')}. Deferred tools: ${current.map((e) => e.name).join(', ') || 'none'}.`,
        );
      return {
        content: parts.join('\n'),
        isError: !outcome.loaded.length && !outcome.available.length,
        summary: outcome.loaded.length ? `Loaded ${outcome.loaded.join(', ')}` : 'Loaded nothing',
      };
    },
  });
}
