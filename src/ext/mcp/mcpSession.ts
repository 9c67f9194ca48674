// Starts a front end's MCP servers (docs/mcp.md): one manager per process, created as early as possible
// so the servers start while the user types (UI) or while the session opens (print mode). Nothing of
// the MCP SDK loads when no server is configured.
import type { McpServerConfig } from '../../store/mcpConfig';
import { McpManager } from './mcpManager';
import { sessionAuthProvider } from './mcpOAuth';

export interface McpStartOptions {
  home: string;
  /** The identity slug, announced to servers as the client name. */
  clientName: string;
  version: string;
  /** A server failed to start: stderr in print mode, a notice in the UI. */
  onFailure(server: string, error: string): void;
}

/** Undefined when there is nothing to start (unless `always`: the UI may add project servers later). */
export function startMcpServers(servers: readonly McpServerConfig[], opts: McpStartOptions & { always?: boolean }): McpManager | undefined {
  if (!servers.length && !opts.always) return undefined;
  const manager = new McpManager(servers, {
    clientInfo: { name: opts.clientName, version: opts.version },
    authProviderFor: (s) => sessionAuthProvider(opts.home, s, opts.clientName),
  });
  manager.onStartFailure(opts.onFailure);
  void manager.start();
  return manager;
}

/** The line a front end shows when a server fails to start. */
export function mcpFailureText(server: string, error: string): string {
  return `MCP server "${server}" is not available (${error}); the session goes on without it.`;
}
