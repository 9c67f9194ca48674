// ListMcpResources: what the session's MCP servers offer as resources (docs/mcp.md "Prompts and resources").
import { z } from 'zod';
import { defineTool } from '../defineTool';
import { MCP_RESOURCES } from './mcpResourceService';
import description from './listMcpResources.md';

export const MAX_LISTED = 100;

export const listMcpResourcesTool = defineTool({
  name: 'ListMcpResources',
  services: [MCP_RESOURCES],
  deferred: true,
  description,
  constants: { MAX_LISTED },
  schema: z.object({ server: z.string().optional(), offset: z.number().int().min(0).default(0) }),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    const listed = await ctx.services.get(MCP_RESOURCES).list(args.server, ctx.signal);
    if ('error' in listed) return { content: listed.error, isError: true };
    const { resources, problems } = listed;
    const notes = problems.map((p) => `(${p})`);
    if (!resources.length) {
      const where = args.server ? `The MCP server "${args.server}" offers` : 'No MCP server of this session offers';
      return { content: [`${where} no resources.`, ...notes].join('\n'), summary: '0 resources' };
    }
    const page = resources.slice(args.offset, args.offset + MAX_LISTED);
    const lines = page.map((r) => {
      const kind = [r.template ? 'template' : '', r.mimeType ?? ''].filter(Boolean).join(', ');
      return `- ${r.server}: ${r.uri} — ${r.name}${kind ? ` (${kind})` : ''}${r.description ? `: ${r.description}` : ''}`;
    });
    const next = args.offset + page.length;
    const more = next < resources.length ? [`(${resources.length - next} more: call again with offset ${next})`] : [];
    return {
      content: [`${resources.length} resources:`, ...lines, ...more, ...notes].join('\n'),
      summary: `${resources.length} resources`,
    };
  },
});
