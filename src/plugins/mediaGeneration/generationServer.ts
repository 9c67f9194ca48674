// The shared start of the generation plugins' MCP servers (stdio): look the endpoint up, and either
// register the tools or — not configured — offer none and say on stderr (the MCP server log) how to
// configure it. Every tool answers text; a failure is a tool error whose message says what to do.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { lookUpEndpoint, type GenerationEndpoint, type GenerationKind } from './generationEndpoint';

export type ToolAnswer = { content: { type: 'text'; text: string }[]; isError?: boolean };

/** Runs `work` with the endpoint, turning any thrown error (or a broken config) into a tool error. */
export function answer<A>(
  endpoint: () => GenerationEndpoint | string,
  work: (endpoint: GenerationEndpoint, args: A) => Promise<string>,
): (args: A) => Promise<ToolAnswer> {
  return async (args) => {
    const found = endpoint();
    if (typeof found === 'string') return { content: [{ type: 'text', text: found }], isError: true };
    try {
      return { content: [{ type: 'text', text: await work(found, args) }] };
    } catch (e) {
      return { content: [{ type: 'text', text: (e as Error).message }], isError: true };
    }
  };
}

export async function serveGeneration(
  kind: GenerationKind,
  version: string,
  register: (server: McpServer, endpoint: () => GenerationEndpoint | string) => void,
): Promise<void> {
  const lookup = lookUpEndpoint(kind);
  const server = new McpServer({ name: kind, version });
  if (lookup.state === 'absent') process.stderr.write(`${lookup.why}\n`);
  else register(server, () => (lookup.state === 'ready' ? lookup.endpoint : lookup.why));
  await server.connect(new StdioServerTransport());
}
