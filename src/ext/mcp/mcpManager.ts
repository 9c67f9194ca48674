// All MCP servers of one front end (docs/mcp.md). A lazy server whose tools would all be deferred and
// whose listing is cached does not start: its cached tools are offered and it starts on its first call
// or when ToolSearch loads one of its tools (`warm`). The others start in parallel in the background;
// the first model request waits for them (each up to its own startup timeout), so the added start-up
// time is the slowest server's, not their sum. A server that fails is reported once and the session
// goes on without it. Tools are offered as `mcp__<server>__<tool>`, filtered by the server's
// `enabledTools` / `disabledTools`.
import picomatch from 'picomatch';
import type { McpServerConfig } from '../../store/mcpConfig';
import {
  McpCallError,
  McpServerConnection,
  type McpConnectionOptions,
  type McpServerState,
  type McpToolInfo,
} from './mcpConnection';
import { mapMcpResult, type MappedResult } from './mcpContent';
import type { McpListingCache } from './mcpListingCache';
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
  /** The session's environment (McpConnectionOptions.env); default process.env. */
  env?: Readonly<NodeJS.ProcessEnv>;
  /** The session's folder (McpConnectionOptions.cwd); default process.cwd(). */
  cwd?: string;
  /** Cached listings; without one every server starts at once. */
  cache?: McpListingCache;
  /**
   * Whether the model would get `toolName` deferred (behind ToolSearch) when `mcpToolCount` MCP tools
   * are offered; only a server whose tools are all deferred may stay unstarted.
   */
  deferred?(toolName: string, mcpToolCount: number): boolean;
}

export class McpManager {
  private readonly connections = new Map<string, McpServerConnection>();
  private readonly removed = new Map<string, McpServerConfig>();
  private readonly listeners = new Set<() => void>();
  private readonly failureListeners = new Set<(server: string, error: string) => void>();
  private readonly warningListeners = new Set<(text: string) => void>();
  /** Warnings given before anyone listened (cache problems at start). */
  private readonly pendingWarnings: string[] = [];
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
      cwd: this.opts.cwd,
      authProvider: config.transport === 'stdio' ? undefined : this.opts.authProviderFor?.(config),
      onToolsChanged: () => this.changed(),
      onListed: (tools, serverVersion) => {
        const problem = this.opts.cache?.write(config, { tools, serverVersion });
        if (problem) this.warn(problem);
      },
    });
    this.connections.set(config.name, connection);
    return connection;
  }

  get size(): number {
    return this.connections.size;
  }

  /**
   * Starts every enabled server that cannot stay lazy, in parallel; resolves when each of those is
   * ready or has failed. Idempotent.
   */
  start(): Promise<void> {
    if (this.started) return this.started;
    const lazy = this.lazyListings();
    const eager: McpServerConnection[] = [];
    for (const c of this.connections.values()) {
      const tools = lazy.get(c.config.name);
      if (tools) c.startLazily(tools);
      else eager.push(c);
    }
    this.started = Promise.all(eager.map((c) => this.startOne(c))).then(() => {});
    if (lazy.size) this.changed();
    return this.started;
  }

  /**
   * The cached listings of the servers that may stay unstarted: `startup` is not "eager", a listing is
   * cached, and every tool it offers would be deferred (counting the MCP tools the caches know of).
   */
  private lazyListings(): Map<string, McpToolInfo[]> {
    const out = new Map<string, McpToolInfo[]>();
    const { cache, deferred } = this.opts;
    if (!cache || !deferred) return out;
    const candidates: Array<{ c: McpServerConnection; tools: McpToolInfo[]; offered: string[] }> = [];
    let known = 0;
    for (const c of this.connections.values()) {
      if (!c.config.enabled || c.config.startup === 'eager') continue;
      const read = cache.read(c.config);
      if ('warning' in read) this.warn(read.warning);
      if (!('listing' in read)) continue;
      const offered = this.offeredNames(c.config, read.listing.tools);
      known += offered.length;
      candidates.push({ c, tools: read.listing.tools, offered });
    }
    for (const { c, tools, offered } of candidates) {
      if (offered.every((name) => deferred(name, known))) out.set(c.config.name, tools);
    }
    return out;
  }

  /** Starts a lazy server in the background (ToolSearch loaded one of its tools); no-op otherwise. */
  warm(server: string): void {
    const c = this.connections.get(server);
    if (c?.state === 'lazy') void this.startOne(c);
  }

  /** The enabled servers still starting now (a front end shows what the first request waits for). */
  startingServers(): string[] {
    const starting = [...this.connections.values()].filter((c) => c.state === 'starting' && c.config.enabled);
    return starting.map((c) => c.config.name);
  }

  /** Called with problems that are not a server's failure (a damaged or unwritable listing cache). */
  onWarning(listener: (text: string) => void): () => void {
    this.warningListeners.add(listener);
    for (const text of this.pendingWarnings.splice(0)) listener(text);
    return () => this.warningListeners.delete(listener);
  }

  private warn(text: string): void {
    if (!this.warningListeners.size) this.pendingWarnings.push(text);
    for (const l of this.warningListeners) l(text);
  }

  private async startOne(c: McpServerConnection): Promise<void> {
    await c.start();
    if (c.state === 'failed') for (const l of this.failureListeners) l(c.config.name, c.error ?? 'failed');
  }

  /** The enabled servers' connections, in configuration order (their prompts and resources: mcpPrompts.ts). */
  connectionsInUse(): McpServerConnection[] {
    return [...this.connections.values()].filter((c) => c.config.enabled);
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
    if (c.state !== 'ready' && c.state !== 'disconnected' && c.state !== 'lazy') return [];
    return this.offer(c.config, c.tools);
  }

  private offer(config: McpServerConfig, tools: readonly McpToolInfo[]): McpOfferedTool[] {
    const { enabledTools, disabledTools, name: server } = config;
    const allowed = enabledTools ? picomatch(enabledTools) : () => true;
    const denied = disabledTools?.length ? picomatch(disabledTools) : () => false;
    const taken = new Set<string>();
    return tools
      .filter((t) => allowed(t.name) && !denied(t.name))
      .map((t) => ({ ...t, server, qualifiedName: uniqueMcpToolName(server, t.name, taken) }));
  }

  private offeredNames(config: McpServerConfig, tools: readonly McpToolInfo[]): string[] {
    return this.offer(config, tools).map((t) => t.qualifiedName);
  }

  /** Calls `tool` on `server` and maps the result for the model. Throws McpCallError. */
  async call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    opts: { signal?: AbortSignal } = {},
  ): Promise<MappedResult> {
    const c = this.connections.get(server);
    if (!c) {
      throw new McpCallError(
        this.removed.has(server)
          ? `MCP server "${server}" was removed from this session.`
          : `There is no MCP server "${server}".`,
      );
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

  /** Stops every server's process group at once (a forced exit). */
  killNow(): void {
    for (const c of this.connections.values()) c.killNow();
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
