// All MCP servers of one session (docs/mcp.md). They start in parallel in the background when the
// session starts; the first model request waits for them (each up to its own startup timeout), so the
// added start-up time is the slowest server's, not their sum. A server that fails is reported once and
// the session goes on without it. Tools are offered as `mcp__<server>__<tool>`, filtered by the
// server's `enabledTools` / `disabledTools`.
import picomatch from 'picomatch';
import type { McpServerConfig } from '../../store/mcpConfig';
import { McpCallError, McpServerConnection, type McpConnectionOptions, type McpServerState, type McpToolInfo } from './mcpConnection';
import { mapMcpResult, type MappedResult } from './mcpContent';
import { uniqueMcpToolName } from './mcpToolNames';

/** A tool ready to offer: its model-facing name and where it lives. */
export interface McpOfferedTool extends McpToolInfo {
  server: string;
  qualifiedName: string;
}

/** One line of `/mcp` and `jarvis mcp list`. */
export interface McpServerStatus {
  name: string;
  scope: McpServerConfig['scope'];
  transport: McpServerConfig['transport'];
  target: string;
  state: McpServerState | 'removed';
  error?: string;
  startMs?: number;
  /** Offered tool names (after the filters). */
  tools: string[];
}

export interface McpManagerOptions {
  clientInfo: { name: string; version: string };
  /** The OAuth provider for one http/sse server (absent: no OAuth). */
  authProviderFor?(server: McpServerConfig): McpConnectionOptions['authProvider'];
  env?: NodeJS.ProcessEnv;
}

export class McpManager {
  private readonly connections = new Map<string, McpServerConnection>();
  private readonly removed = new Map<string, McpServerConfig>();
  private readonly listeners = new Set<() => void>();
  private readonly failureListeners = new Set<(server: string, error: string) => void>();
  private started?: Promise<void>;

  constructor(
    servers: readonly McpServerConfig[],
    private readonly opts: McpManagerOptions,
  ) {
    for (const config of servers) this.create(config);
  }

  /**
   * Adds a server during the session (a project server once the workspace is trusted; a server just
   * logged in to), replacing a running one of the same name. Started at once if the others were.
   */
  async add(config: McpServerConfig): Promise<void> {
    await this.connections.get(config.name)?.close();
    this.removed.delete(config.name);
    const connection = this.create(config);
    if (this.started) {
      const started = this.startOne(connection);
      this.started = Promise.all([this.started, started]).then(() => {});
    }
    this.changed();
  }

  private create(config: McpServerConfig): McpServerConnection {
    const connection = new McpServerConnection(config, {
      clientInfo: this.opts.clientInfo,
      env: this.opts.env,
      authProvider: config.transport === 'stdio' ? undefined : this.opts.authProviderFor?.(config),
      onToolsChanged: () => this.changed(),
    });
    this.connections.set(config.name, connection);
    return connection;
  }

  get size(): number {
    return this.connections.size;
  }

  /** Starts every enabled server in parallel; resolves when each is ready or has failed. Idempotent. */
  start(): Promise<void> {
    this.started ??= Promise.all([...this.connections.values()].map((c) => this.startOne(c))).then(() => {});
    return this.started;
  }

  private async startOne(c: McpServerConnection): Promise<void> {
    await c.start();
    if (c.state === 'failed') for (const l of this.failureListeners) l(c.config.name, c.error ?? 'failed');
  }

  /** The configuration of a server in this session. */
  configOf(server: string): McpServerConfig | undefined {
    return this.connections.get(server)?.config;
  }

  /** Resolves once the initial start of every server has settled (immediately if none was started). */
  ready(): Promise<void> {
    return this.started ?? Promise.resolve();
  }

  /** Called after any change of the offered tools. */
  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called when a server fails to start (print mode writes it to stderr, the TUI shows a notice). */
  onStartFailure(listener: (server: string, error: string) => void): () => void {
    this.failureListeners.add(listener);
    return () => this.failureListeners.delete(listener);
  }

  /** Every tool offered now, per server, in configuration order. */
  tools(): Map<string, McpOfferedTool[]> {
    const out = new Map<string, McpOfferedTool[]>();
    for (const [name, c] of this.connections) out.set(name, this.offeredOf(c));
    return out;
  }

  private offeredOf(c: McpServerConnection): McpOfferedTool[] {
    if (c.state !== 'ready' && c.state !== 'disconnected') return [];
    const { enabledTools, disabledTools, name: server } = c.config;
    const allowed = enabledTools ? picomatch(enabledTools) : () => true;
    const denied = disabledTools?.length ? picomatch(disabledTools) : () => false;
    const taken = new Set<string>();
    return c.tools.filter((t) => allowed(t.name) && !denied(t.name)).map((t) => ({ ...t, server, qualifiedName: uniqueMcpToolName(server, t.name, taken) }));
  }

  /** Calls `tool` on `server` and maps the result for the model. Throws McpCallError. */
  async call(server: string, tool: string, args: Record<string, unknown>, opts: { signal?: AbortSignal } = {}): Promise<MappedResult> {
    const c = this.connections.get(server);
    if (!c) {
      throw new McpCallError(this.removed.has(server) ? `MCP server "${server}" was removed from this session.` : `There is no MCP server "${server}".`);
    }
    return mapMcpResult(await c.callTool(tool, args, opts));
  }

  status(): McpServerStatus[] {
    const row = (config: McpServerConfig) => ({
      name: config.name,
      scope: config.scope,
      transport: config.transport,
      target: config.transport === 'stdio' ? [config.command, ...config.args].join(' ') : config.url!,
    });
    const rows: McpServerStatus[] = [...this.connections.values()].map((c) => ({
      ...row(c.config),
      state: c.state,
      error: c.error,
      startMs: c.startMs,
      tools: this.offeredOf(c).map((t) => t.qualifiedName),
    }));
    for (const config of this.removed.values()) rows.push({ ...row(config), state: 'removed', tools: [] });
    return rows;
  }

  /** The stdio server's process id (for /mcp and for tests that need to kill it). */
  pidOf(server: string): number | undefined {
    return this.connections.get(server)?.pid;
  }

  /** Stops one server for the rest of the session; its tools are withdrawn, calls say it was removed. */
  async remove(server: string): Promise<void> {
    const c = this.connections.get(server);
    if (!c) return;
    this.connections.delete(server);
    this.removed.set(server, c.config);
    await c.close();
    this.changed();
  }

  async close(): Promise<void> {
    const all = [...this.connections.values()];
    await Promise.all(all.map((c) => c.close()));
  }

  private changed(): void {
    for (const l of this.listeners) {
      try {
        l();
      } catch {
        // one listener's failure must not stop the others
      }
    }
  }
}
