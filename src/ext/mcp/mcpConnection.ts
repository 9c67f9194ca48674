// One MCP server's connection (docs/mcp.md): started with a deadline, its tools listed (every page),
// re-listed when the server says its list changed, and reconnected once on the next call after the
// connection dropped. A lazy server offers a cached listing and starts on its first call (or when its
// tools are loaded). The official SDK is imported here, on first use, never on the start path.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { resolve } from 'node:path';
import { describeMcpTarget, type McpServerConfig } from '../../store/mcpConfig';
import type { McpCallResult } from './mcpContent';
import type { StdioGroupTransport } from './stdioGroupTransport';
import { toolInfoOf } from './mcpListingCache';

/** `lazy`: not started; its tools come from the cached listing until it starts. */
export type McpServerState = 'disabled' | 'lazy' | 'starting' | 'ready' | 'failed' | 'disconnected' | 'closed';

/** A tool as the server describes it. */
export interface McpToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The server marks it as changing nothing (`readOnlyHint`). */
  readOnly: boolean;
  /**
   * Computer use (docs/computer-use.md): the tool looks at the desktop (`observe`) or acts on it (`input`), as the
   * server says in the tool's `_meta["jarvis/desktop"]`. Such calls need the session's authorization first.
   */
  desktop?: 'observe' | 'input';
}

export interface McpConnectionOptions {
  clientInfo: { name: string; version: string };
  /** Called after the tool list changed (first listing, list_changed, reconnect). */
  onToolsChanged(): void;
  /** Called with every listing the server gave (to cache it), with its `name version`. */
  onListed?(tools: McpToolInfo[], serverVersion: string | undefined): void;
  /** OAuth for http/sse servers that need it (credentials stored per server). */
  authProvider?: OAuthClientProvider;
  /**
   * The session's environment (default process.env): where the bearer token variable is read from, and what a stdio
   * server inherits its few default variables from (PATH, HOME, USER…: the MCP SDK's list) besides its config's `env`.
   */
  env?: Readonly<NodeJS.ProcessEnv>;
  /**
   * The session's folder (default process.cwd()): where a stdio server without a `cwd` starts, and what a relative
   * `cwd` is resolved against, so two sessions of one process (SDK queries, `jarvis serve`, ACP) each start theirs
   * in their own folder.
   */
  cwd?: string;
}

/** A failed call, with a message for the model and the user. */
export class McpCallError extends Error {}

const STDERR_TAIL_CHARS = 2_000;

// The SDK's client and types load once; each transport's module only when a server uses it (the HTTP
// transports bring an EventSource client a stdio-only setup never needs).
type Sdk = Awaited<ReturnType<typeof loadSdk>>;
let sdk: Promise<Sdk> | undefined;

async function loadSdk() {
  const [client, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return { ...client, ...types };
}

const transports = {
  stdio: () =>
    Promise.all([
      import('@modelcontextprotocol/sdk/shared/stdio.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('./stdioGroupTransport'),
    ]),
  http: () => import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  sse: () => import('@modelcontextprotocol/sdk/client/sse.js'),
};

export class McpServerConnection {
  state: McpServerState;
  /** Why it is failed or disconnected. */
  error?: string;
  tools: McpToolInfo[] = [];
  /** The stdio server's process id while it runs. */
  pid?: number;
  /** How long the last successful start took. */
  startMs?: number;
  private client?: Client;
  /** The stdio transport of the current or starting connection (to stop its process group). */
  private transport?: StdioGroupTransport;
  private stderrTail = '';
  private starting?: Promise<void>;
  private relistAfterStart = false;
  /** A re-listing after list_changed, in flight. */
  private relisting?: Promise<void>;

  constructor(
    readonly config: McpServerConfig,
    private readonly opts: McpConnectionOptions,
  ) {
    this.state = config.enabled ? 'starting' : 'disabled';
  }

  /** Offers `tools` (a cached listing) without starting the server; it starts on its first call. */
  startLazily(tools: McpToolInfo[]): void {
    if (!this.config.enabled || this.state !== 'starting' || this.starting) return;
    this.state = 'lazy';
    this.tools = tools;
  }

  /** Connects and lists the tools, within the startup timeout. Never rejects: failures set `state`. */
  start(): Promise<void> {
    if (!this.config.enabled || this.state === 'closed') return Promise.resolve();
    this.starting ??= this.connect().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async connect(): Promise<void> {
    this.state = 'starting';
    this.error = undefined;
    this.stderrTail = '';
    const began = Date.now();
    const { startupTimeoutMs } = this.config;
    let timer: NodeJS.Timeout | undefined;
    let client: Client | undefined;
    // Set when the deadline passed (or the start failed) before the attempt got to start the server:
    // it then never starts one that nobody would own.
    let abandoned = false;
    const attempt = (async () => {
      const [s, transport] = await Promise.all([(sdk ??= loadSdk()), this.createTransport()]);
      if (abandoned) throw new StartupTimeout();
      if (this.currentState() === 'closed') throw new ClosedWhileStarting();
      client = new s.Client(this.opts.clientInfo, { capabilities: {} });
      client.setNotificationHandler(s.ToolListChangedNotificationSchema, () => {
        const run = this.relist().finally(() => {
          if (this.relisting === run) this.relisting = undefined;
        });
        this.relisting = run;
      });
      await client.connect(transport);
      return client;
    })();
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StartupTimeout()), startupTimeoutMs);
    });
    try {
      const connected = await Promise.race([attempt, deadline]);
      // Closed while it was starting (a front end that stopped early): stop the server it started.
      if ((this.state as McpServerState) === 'closed') {
        await connected.close().catch(() => {});
        return;
      }
      this.client = connected;
      connected.onclose = () => this.dropped(connected);
      this.relistAfterStart = false;
      const tools = await Promise.race([this.listAll(connected), deadline]);
      if (this.currentState() === 'closed') return;
      if (this.client !== connected) {
        // The connection closed while its tools were being listed: that is no ready server.
        throw new Error(`the connection closed while its tools were being listed (${this.error ?? 'no reason given'})`);
      }
      this.tools = tools;
      this.state = 'ready';
      this.startMs = Date.now() - began;
      this.opts.onListed?.(this.tools, serverVersionOf(connected));
      if (this.relistAfterStart) void this.relist();
    } catch (e) {
      abandoned = true;
      // An attempt that still connects after the deadline is closed as soon as it does.
      attempt.then(
        (late) => (this.client === late ? undefined : late.close().catch(() => {})),
        () => {},
      );
      await client?.close().catch(() => {});
      await this.transport?.close();
      this.client = undefined;
      this.transport = undefined;
      this.pid = undefined;
      // Closed while starting: it stays closed, whatever the failed start says.
      if (this.currentState() === 'closed') return;
      this.state = 'failed';
      this.tools = [];
      this.error =
        e instanceof StartupTimeout
          ? `did not answer within ${startupTimeoutMs} ms and was stopped (raise "startupTimeoutMs" in ${this.config.scope === 'project' ? 'the project' : 'your'} mcp.json if it needs longer)`
          : this.describeStartError(e);
    } finally {
      clearTimeout(timer);
    }
    this.opts.onToolsChanged();
  }

  private async createTransport(): Promise<Transport> {
    const c = this.config;
    if (c.transport === 'stdio') {
      const [[helpers, sdkStdio, { StdioGroupTransport }], { pinLaunch }] = await Promise.all([
        transports.stdio(),
        import('./launchPin'),
      ]);
      const env = { ...inheritedEnv(sdkStdio.DEFAULT_INHERITED_ENV_VARS, this.opts.env ?? process.env), ...c.env };
      const onStderr = (text: string) => {
        this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
      };
      // A project server runs only the bytes the user approved (docs/mcp.md, "Workspace trust").
      const cwd = resolve(this.opts.cwd ?? process.cwd(), c.cwd ?? '.');
      const pinned = pinLaunch(c, env, cwd);
      const transport = new StdioGroupTransport(
        { command: pinned.command, args: pinned.args, env, cwd, cleanup: pinned.cleanup },
        helpers,
        onStderr,
      );
      this.transport = transport;
      const start = transport.start.bind(transport);
      transport.start = async () => {
        await start();
        this.pid = transport.pid;
      };
      return transport;
    }
    const headers: Record<string, string> = { ...c.headers };
    if (c.bearerTokenEnvVar) {
      const token = (this.opts.env ?? process.env)[c.bearerTokenEnvVar];
      if (!token) throw new Error(`environment variable ${c.bearerTokenEnvVar} (bearerTokenEnvVar) is not set`);
      headers.Authorization = `Bearer ${token}`;
    }
    const options = { requestInit: { headers }, authProvider: this.opts.authProvider };
    if (c.transport === 'sse') return new (await transports.sse()).SSEClientTransport(new URL(c.url!), options);
    return new (await transports.http()).StreamableHTTPClientTransport(new URL(c.url!), options);
  }

  private async listAll(client: Client): Promise<McpToolInfo[]> {
    if (!client.getServerCapabilities()?.tools) return [];
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      for (const t of page.tools) tools.push(toolInfoOf(t));
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  private async relist(): Promise<void> {
    const client = this.client;
    if (this.state === 'starting') {
      // Announced while the first listing may already be under way: list again once it is done.
      this.relistAfterStart = true;
      return;
    }
    if (!client || this.state !== 'ready') return;
    try {
      this.tools = await this.listAll(client);
      this.opts.onListed?.(this.tools, serverVersionOf(client));
      this.opts.onToolsChanged();
    } catch {
      // The list stays as it was; a dropped connection is handled by onclose.
    }
  }

  private dropped(client: Client): void {
    if (this.client !== client || this.state === 'closed') return;
    this.client = undefined;
    this.pid = undefined;
    this.state = 'disconnected';
    const tail = lastLines(this.stderrTail);
    this.error = `the connection closed${tail ? ` (server stderr: ${tail})` : ''}; it is reconnected on the next call`;
  }

  /** Calls a tool; reconnects first (once) when the connection had dropped. Throws McpCallError. */
  async callTool(name: string, args: Record<string, unknown>, opts: { signal?: AbortSignal }): Promise<McpCallResult> {
    const label = `MCP server "${this.config.name}"`;
    const client = await this.connected(`the call to ${name}`);
    const { ErrorCode, McpError } = await (sdk ??= loadSdk());
    try {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        signal: opts.signal,
        timeout: this.config.toolTimeoutMs,
      })) as McpCallResult;
      // A call that changed the tool list (the server said so before answering) returns once the new
      // list is known, so the model's next step is offered it.
      await this.relisting;
      return result;
    } catch (e) {
      if (opts.signal?.aborted) throw new McpCallError(`The call to ${name} on ${label} was cancelled.`);
      if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
        throw new McpCallError(
          `${label} did not answer the call to ${name} within ${this.config.toolTimeoutMs} ms ("toolTimeoutMs").`,
        );
      }
      if ((e instanceof McpError && e.code === ErrorCode.ConnectionClosed) || this.currentState() === 'disconnected') {
        if (this.client === client) this.dropped(client);
        throw new McpCallError(
          `${label} closed the connection during the call to ${name}: ${this.error ?? (e as Error).message}.`,
        );
      }
      throw new McpCallError(`${label} failed the call to ${name}: ${(e as Error).message}`);
    }
  }

  /**
   * Runs `request` on the connected client (prompts, resources: ext/mcp/mcpPrompts.ts), starting a lazy server or
   * reconnecting a dropped one first, within the tool timeout. Throws McpCallError naming `what`.
   */
  async request<T>(what: string, request: (client: Client, timeout: number) => Promise<T>): Promise<T> {
    const client = await this.connected(what);
    try {
      return await request(client, this.config.toolTimeoutMs);
    } catch (e) {
      throw new McpCallError(`MCP server "${this.config.name}" failed ${what}: ${(e as Error).message}`);
    }
  }

  /** What the server offers besides tools (`prompts`, `resources`), once it has started. */
  capabilities(): { prompts: boolean; resources: boolean } {
    const caps = this.client?.getServerCapabilities();
    return { prompts: Boolean(caps?.prompts), resources: Boolean(caps?.resources) };
  }

  /** The client of a ready connection: a lazy server is started, a dropped one reconnected (once). */
  private async connected(what: string): Promise<Client> {
    const label = `MCP server "${this.config.name}"`;
    if (this.state === 'closed') throw new McpCallError(`${label} was removed from this session.`);
    if (this.state === 'disabled') throw new McpCallError(`${label} is disabled ("enabled": false in mcp.json).`);
    if (this.state === 'lazy') {
      await this.start();
      if (this.currentState() !== 'ready') {
        throw new McpCallError(`${label} could not be started for ${what}: ${this.error ?? 'it was stopped'}.`);
      }
    }
    if (this.starting) await this.starting;
    if (this.state === 'disconnected' || this.state === 'failed') {
      const before = this.error;
      await this.start();
      if (this.currentState() !== 'ready')
        throw new McpCallError(
          `${label} is not connected (${before ?? 'not started'}); reconnecting failed: ${this.error}.`,
        );
    }
    return this.client!;
  }

  /** Read through a call so the compiler does not narrow a state that awaits may have changed. */
  private currentState(): McpServerState {
    return this.state;
  }

  async close(): Promise<void> {
    this.state = 'closed';
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    this.pid = undefined;
    await client?.close().catch(() => {});
    // A server still starting (one that never answers its handshake) is stopped here, not after its
    // start-up timeout; connect() then sees the closed state.
    await transport?.close();
  }

  /** Stops the server's process group at once (a forced exit: nothing async runs after this). */
  killNow(): void {
    this.state = 'closed';
    this.transport?.killNow();
  }

  private describeStartError(e: unknown): string {
    const err = e as NodeJS.ErrnoException;
    const c = this.config;
    if (err?.name === 'McpLaunchChanged') return err.message;
    if (err?.code === 'ENOENT' && c.transport === 'stdio')
      return `could not start: command "${c.command}" was not found (${describeMcpTarget(c)})`;
    if (
      err?.name === 'UnauthorizedError' ||
      (err as { code?: unknown })?.code === 401 ||
      /\b401\b|unauthori[sz]ed/i.test(err?.message ?? '')
    ) {
      return `the server needs authorization: run \`jarvis mcp login ${c.name}\` (or /mcp-config login ${c.name})`;
    }
    const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
    const message = cause?.code ? `${err.message} (${cause.code})` : (err?.message ?? String(e));
    const tail = lastLines(this.stderrTail);
    return `could not start: ${message}${tail ? ` — server stderr: ${tail}` : ''}`;
  }
}

class StartupTimeout extends Error {}
class ClosedWhileStarting extends Error {}

function serverVersionOf(client: Client): string | undefined {
  const info = client.getServerVersion();
  return info ? `${info.name} ${info.version}` : undefined;
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ').slice(-500);
}

/**
 * The variables a stdio server inherits from `env` (the MCP SDK's getDefaultEnvironment does the same from
 * process.env only): those of `names` that are set, except a shell function's text.
 */
function inheritedEnv(names: readonly string[], env: Readonly<NodeJS.ProcessEnv>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && !value.startsWith('()')) kept[name] = value;
  }
  return kept;
}
