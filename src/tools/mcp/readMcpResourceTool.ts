// ReadMcpResource: one resource of an MCP server, by URI (docs/mcp.md "Prompts and resources"). It asks in manual
// mode like an MCP tool (the server decides what a URI reaches); rules match `ReadMcpResource(<server>:<uri>)`.
import { z } from 'zod';
import type { ContentPart } from '../../llm/types';
import { defineTool } from '../defineTool';
import { MCP_RESOURCES } from './mcpResourceService';
import description from './readMcpResource.md';

export const MAX_TEXT_CHARS = 100_000;

export const readMcpResourceTool = defineTool({
  name: 'ReadMcpResource',
  services: [MCP_RESOURCES],
  deferred: true,
  description,
  constants: { MAX_TEXT_CHARS },
  schema: z.object({ server: z.string().min(1), uri: z.string().min(1) }),
  readOnly: true,
  defaultApproval: 'ask',
  maxOutputChars: MAX_TEXT_CHARS + 1_000,
  subject: (args) => `ReadMcpResource(${args.server}:${args.uri})`,
  async execute(args, ctx) {
    const contents = await ctx.services.get(MCP_RESOURCES).read(args.server, args.uri, ctx.signal);
    if ('error' in contents) return { content: contents.error, isError: true };
    if (!contents.length) return { content: `${args.uri} has no content.`, summary: 'empty' };
    const parts: ContentPart[] = [];
    for (const c of contents) {
      if (c.text !== undefined) {
        const cut = c.text.length > MAX_TEXT_CHARS;
        const text = cut ? `${c.text.slice(0, MAX_TEXT_CHARS)}\n[cut: ${c.text.length} characters in all]` : c.text;
        parts.push({
          type: 'text',
          text: `<resource uri="${c.uri}"${c.mimeType ? ` type="${c.mimeType}"` : ''}>\n${text}\n</resource>`,
        });
      } else if (c.blob !== undefined && c.mimeType?.startsWith('image/')) {
        parts.push({ type: 'image', mediaType: c.mimeType, data: c.blob });
      } else {
        const bytes = Math.floor(((c.blob?.length ?? 0) * 3) / 4);
        parts.push({
          type: 'text',
          text: `${c.uri}: binary content (${c.mimeType ?? 'no type given'}, about ${bytes} bytes), not shown.`,
        });
      }
    }
    return { content: parts, summary: `${args.server}: ${args.uri}` };
  },
});
