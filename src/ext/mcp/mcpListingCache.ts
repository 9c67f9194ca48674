// Cached tool listings of MCP servers (docs/mcp.md, "Lazy start"): what a server listed the last time it
// ran, so that a lazy server's tools can be offered without starting it. One file per server identity
// under $JARVIS_CODE_HOME/cache/mcp-tools/ (folder 0700, files 0600), named by a hash of what decides the
// listing: the Jarvis version, the transport, command, arguments, working folder, environment, URL and
// headers, and the size and modification time of the program and of every argument that is a file (a
// reinstalled or rebuilt server is a new version). A file that cannot be read or parsed is a warning and
// counts as no listing, so the server starts and the listing is fetched again. A bundled plugin's server
// that has no cached listing yet uses the one that shipped with the package (`shippedListing`), so a fresh
// home starts none of them before the first request.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { McpServerConfig } from '../../store/mcpConfig';
import type { McpToolInfo } from './mcpConnection';

const FORMAT = 1;

export interface CachedListing {
  tools: McpToolInfo[];
  /** The server's own name and version when it was listed. */
  serverVersion?: string;
}

export type CacheRead = { listing: CachedListing } | { missing: true } | { warning: string };

/** The size and modification time of a path argument, or nothing when it names no file. */
function fileStamp(path: string, cwd: string): string | undefined {
  if (!path || path.startsWith('-')) return undefined;
  try {
    const s = statSync(isAbsolute(path) ? path : resolve(cwd, path));
    return s.isFile() ? `${s.size}:${Math.trunc(s.mtimeMs)}` : undefined;
  } catch {
    return undefined; // not a path (a package name, a flag value): only its text counts
  }
}

function isToolInfo(t: unknown): t is McpToolInfo {
  const x = t as Partial<McpToolInfo> | null;
  return (
    !!x &&
    typeof x.name === 'string' &&
    typeof x.description === 'string' &&
    typeof x.readOnly === 'boolean' &&
    typeof x.inputSchema === 'object' &&
    x.inputSchema !== null &&
    !Array.isArray(x.inputSchema) &&
    (x.desktop === undefined || x.desktop === 'observe' || x.desktop === 'input')
  );
}

/** A tool of an MCP `tools/list` answer, as Jarvis keeps it. */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  annotations?: { title?: string; readOnlyHint?: boolean };
  _meta?: Record<string, unknown>;
}

/** The key of a tool's `_meta` that marks a computer-use tool (docs/computer-use.md). */
export const DESKTOP_META_KEY = 'jarvis/desktop';

export function toolInfoOf(t: ListedTool): McpToolInfo {
  return {
    name: t.name,
    title: t.title ?? t.annotations?.title,
    description: t.description ?? t.title ?? t.name,
    inputSchema: t.inputSchema as Record<string, unknown>,
    readOnly: t.annotations?.readOnlyHint === true,
    ...desktopOf(t._meta),
  };
}

/** `_meta["jarvis/desktop"]`: "observe" looks; any other value counts as acting, the stricter of the two. */
function desktopOf(meta: unknown): { desktop?: 'observe' | 'input' } {
  if (!meta || typeof meta !== 'object') return {};
  const value = (meta as Record<string, unknown>)[DESKTOP_META_KEY];
  if (value === undefined) return {};
  return { desktop: value === 'observe' ? 'observe' : 'input' };
}

export class McpListingCache {
  private readonly dir: string;

  constructor(
    home: string,
    private readonly clientVersion: string,
    /** The session's folder, which a server's relative paths are read from (McpConnectionOptions.cwd). */
    private readonly baseCwd?: string,
  ) {
    this.dir = join(home, 'cache', 'mcp-tools');
  }

  /** The cache file of a server's current identity. */
  fileFor(config: McpServerConfig): string {
    const cwd = resolve(this.baseCwd ?? process.cwd(), config.cwd ?? '.');
    const identity = {
      format: FORMAT,
      client: this.clientVersion,
      transport: config.transport,
      command: config.command,
      args: config.args,
      cwd: config.cwd,
      env: config.env,
      url: config.url,
      headers: config.headers,
      bearer: config.bearerTokenEnvVar,
      stamps:
        config.transport === 'stdio'
          ? [config.command ?? '', ...config.args].map((p) => fileStamp(p, cwd) ?? null)
          : [],
    };
    return join(this.dir, `${createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32)}.json`);
  }

  read(config: McpServerConfig): CacheRead {
    const file = this.fileFor(config);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT')
        return config.shippedListing ? readShippedListing(config, config.shippedListing) : { missing: true };
      const why = (e as Error).message;
      return {
        warning: `${this.label(config, file)} could not be read (${why}); the server starts now to list its tools`,
      };
    }
    try {
      const value = JSON.parse(text) as { format?: unknown; tools?: unknown; serverVersion?: unknown };
      if (value.format !== FORMAT || !Array.isArray(value.tools) || !value.tools.every(isToolInfo)) {
        throw new Error('not a tool listing of this version');
      }
      const serverVersion = typeof value.serverVersion === 'string' ? value.serverVersion : undefined;
      return { listing: { tools: value.tools, serverVersion } };
    } catch (e) {
      const why = (e as Error).message;
      return {
        warning: `${this.label(config, file)} is damaged (${why}); it is ignored and the server starts now to list its tools again`,
      };
    }
  }

  private label(config: McpServerConfig, file: string): string {
    return `the cached tool list of MCP server "${config.name}" (${file})`;
  }

  /** Saves a fresh listing (atomically); returns a warning instead of throwing. */
  write(config: McpServerConfig, listing: CachedListing): string | undefined {
    const file = this.fileFor(config);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      chmodSync(this.dir, 0o700);
      const record = { format: FORMAT, server: config.name, savedAt: new Date().toISOString(), ...listing };
      writeFileSync(tmp, `${JSON.stringify(record)}\n`, { mode: 0o600 });
      renameSync(tmp, file);
      return undefined;
    } catch (e) {
      rmSync(tmp, { force: true });
      const why = (e as Error).message;
      return `the tool list of MCP server "${config.name}" could not be cached (${why}); it starts with the next session too`;
    }
  }

  /** Forgets a listing (the server said its list changed and listing it again failed). */
  forget(config: McpServerConfig): void {
    rmSync(this.fileFor(config), { force: true });
  }
}

/** The tool list shipped beside a bundled plugin's server; read back from disk, so checked like the cache. */
function readShippedListing(config: McpServerConfig, file: string): CacheRead {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as { tools?: unknown; serverInfo?: unknown };
    if (!Array.isArray(value.tools)) throw new Error('it has no tool list');
    const tools = (value.tools as ListedTool[]).map((t) => (t && typeof t === 'object' ? toolInfoOf(t) : t));
    if (!tools.every(isToolInfo)) throw new Error('a tool in it has no name, description or input schema');
    const info = value.serverInfo as { name?: unknown; version?: unknown } | undefined;
    const serverVersion =
      typeof info?.name === 'string' && typeof info.version === 'string' ? `${info.name} ${info.version}` : undefined;
    return { listing: { tools, serverVersion } };
  } catch (e) {
    const why = (e as Error).message;
    return {
      warning: `the tool list shipped with MCP server "${config.name}" (${file}) could not be used (${why}); the server starts now to list its tools`,
    };
  }
}
