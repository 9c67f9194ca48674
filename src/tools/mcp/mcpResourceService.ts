// The MCP servers' resources as the resource tools reach them (docs/mcp.md "Prompts and resources"): the engine lends
// this when the session has MCP servers (engine/extensions/mcpResources.ts over ext/mcp).
import { serviceKey } from '../defineTool';

export interface McpResourceEntry {
  server: string;
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
  /** A URI template (`file:///{path}`): read with its placeholders filled. */
  template?: boolean;
}

export interface McpResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  /** A binary resource's base64 bytes. */
  blob?: string;
}

export interface McpResourceAccess {
  /** The servers of the session that offer resources (started ones; a lazy server starts when named). */
  /** An unknown server or a failed request is a message (`error`) for the model, not a throw. */
  list(
    server: string | undefined,
    signal: AbortSignal,
  ): Promise<{ resources: McpResourceEntry[]; problems: string[] } | { error: string }>;
  read(server: string, uri: string, signal: AbortSignal): Promise<McpResourceContent[] | { error: string }>;
}

export const MCP_RESOURCES = serviceKey<McpResourceAccess>()('mcp-resources');
