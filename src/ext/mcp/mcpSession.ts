// Starts a front end's MCP servers (docs/mcp.md): one manager per process (per connection in ACP),
// created as early as possible so the servers start while the user types (UI) or while the session
// opens (print mode). Lazy servers with a cached listing are not started at all. Nothing of the MCP SDK
// loads when no server has to start.
import type { McpServerConfig } from '../../store/mcpConfig';
import { McpListingCache } from './mcpListingCache';
import { McpManager } from './mcpManager';
import { sessionAuthProvider } from './mcpOAuth';

export interface McpStartOptions {
  home: string;
  /** The identity slug, announced to servers as the client name. */
  clientName: string;
  version: string;
  /** A server failed to start: stderr in print mode, a notice in the UI. */
  onFailure(server: string, error: string): void;
  /** A listing-cache problem (damaged file, unwritable folder). */
  onWarning(text: string): void;
  /** The session's deferral rule for MCP tools (`mcpToolDeferral`); absent: every server starts. */
  deferred?(toolName: string, mcpToolCount: number): boolean;
  /** The environment the servers start from (the SDK query's own `env`); default process.env. */
  env?: Readonly<NodeJS.ProcessEnv>;
  /** The session's folder: where stdio servers without a `cwd` start; default process.cwd(). */
  cwd?: string;
}

/** Undefined when there is nothing to start (unless `always`: the UI may add project servers later). */
export function startMcpServers(
  servers: readonly McpServerConfig[],
  opts: McpStartOptions & { always?: boolean },
): McpManager | undefined {
  if (!servers.length && !opts.always) return undefined;
  const manager = new McpManager(servers, {
    clientInfo: { name: opts.clientName, version: opts.version },
    authProviderFor: (s) => sessionAuthProvider(opts.home, s, opts.clientName),
    cache: new McpListingCache(opts.home, opts.version, opts.cwd),
    deferred: opts.deferred,
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  manager.onStartFailure(opts.onFailure);
  manager.onWarning(opts.onWarning);
  void manager.start();
  return manager;
}

/** The line a front end shows when a server fails to start. */
export function mcpFailureText(server: string, error: string): string {
  return `MCP server "${server}" is not available (${error}); the session goes on without it.`;
}
