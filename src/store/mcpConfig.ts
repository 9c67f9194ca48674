// The MCP server list (docs/mcp.md): `{"mcpServers": {name: entry}}` in `$JARVIS_CODE_HOME/mcp.json`
// (user), `<project>/.jarvis-code/mcp.json` and Claude Code's `<project>/.mcp.json` (project; a same-named project
// entry replaces the user one, ours beats `.mcp.json`, and project servers are used only in a trusted workspace —
// SPEC §7.6, docs/compatibility.md). `${VAR}` references are expanded (mcpVariables.ts). A broken file or entry is
// a warning that names it; the session goes on without that server. Writing (`jarvis mcp add|remove`)
// touches only the `mcpServers` key, so whatever else the file holds survives.
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { claudeMcpPath, DEFAULT_COMPAT, type CompatSettings } from './compat';
import { INT32_MAX } from './configSchema';
import { expandMcpEntry, McpVariableError } from './mcpVariables';
import { displayPath, projectRoot } from './paths';
import { sha256, type LaunchFile } from './mcpLaunch';
import { judgeProjectServers, snapshotOf, withLaunchFiles, type McpChange, type McpTrustSnapshot } from './mcpTrust';
import { workspaceTrust } from './trustFile';

export type McpTransportKind = 'stdio' | 'http' | 'sse';
export type McpScope = 'user' | 'project';

/** One server entry after validation, with its scope and timeouts resolved. */
export interface McpServerConfig {
  name: string;
  /** `plugin`: declared by an installed plugin's manifest (docs/plugins.md). */
  scope: McpScope | 'plugin';
  /** The file it came from (messages). */
  file: string;
  transport: McpTransportKind;
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  bearerTokenEnvVar?: string;
  enabled: boolean;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  enabledTools?: string[];
  disabledTools?: string[];
  /**
   * `lazy` (the default): not started while its listing is cached and all its tools are deferred;
   * `eager`: started with the session, the first request waits for it (docs/mcp.md, "Lazy start").
   */
  startup?: 'lazy' | 'eager';
  /** SHA-256 of the bytes of `file` this entry was parsed from (one read: docs/mcp.md, "Workspace trust"). */
  fileDigest?: string;
  /**
   * Project stdio servers: the files inside the workspace (`roots`) it is started with and their SHA-256 when the
   * configuration was read; it starts only with exactly these bytes (ext/mcp/launchPin.ts). `unreadable`: launch
   * files that could not be read, so the server is never approved.
   */
  launch?: { roots: string[]; files: LaunchFile[]; unreadable?: string[] };
}

export interface McpTimeoutDefaults {
  startupTimeoutMs: number;
  toolTimeoutMs: number;
}

const timeout = z.number().int().min(1).max(INT32_MAX);
const strings = z.array(z.string());
const stringMap = z.record(z.string(), z.string());

// Keys other clients write (`type`, `description`…) are tolerated; known keys with a wrong type are not.
const entrySchema = z.looseObject({
  command: z.string().min(1).optional(),
  args: strings.optional(),
  env: stringMap.optional(),
  cwd: z.string().min(1).optional(),
  url: z.string().min(1).optional(),
  headers: stringMap.optional(),
  bearerTokenEnvVar: z.string().min(1).optional(),
  transport: z.enum(['stdio', 'http', 'streamable-http', 'sse']).optional(),
  type: z.enum(['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse']).optional(),
  enabled: z.boolean().optional(),
  startupTimeoutMs: timeout.optional(),
  toolTimeoutMs: timeout.optional(),
  enabledTools: strings.optional(),
  disabledTools: strings.optional(),
  startup: z.enum(['lazy', 'eager']).optional(),
});

export function userMcpPath(home: string): string {
  return join(home, 'mcp.json');
}

export function projectMcpPath(projectDir: string): string {
  return join(projectDir, '.jarvis-code', 'mcp.json');
}

export interface LoadedMcpServers {
  /** Servers to use, by name. */
  servers: McpServerConfig[];
  /** Project servers not started because the workspace is not trusted (their transport and target). */
  untrusted: McpServerConfig[];
  /**
   * Project servers of a trusted folder not started because their file changed since the user trusted it
   * (docs/mcp.md, "Workspace trust"); `changedFiles` names those files.
   */
  changed: McpServerConfig[];
  changedFiles: string[];
  /** Each changed file (an MCP file or a file a server is started with) and the servers it holds back. */
  changes: McpChange[];
  /** What trusting the project's servers now records: the files as this load read them. */
  snapshot: McpTrustSnapshot;
  warnings: string[];
  /** `.mcp.json` entries not used because `.jarvis-code/mcp.json` has a server of the same name. */
  shadowed: McpServerConfig[];
}

/**
 * The project's servers: `.jarvis-code/mcp.json`, then `.mcp.json` unless `[compat] mcp_json = false`; each with the
 * digest of the bytes it was parsed from and its launch files digested (mcpTrust.ts).
 */
function readProjectServers(
  projectDir: string,
  compat: CompatSettings,
  defaults: McpTimeoutDefaults,
  warnings: string[],
  env: NodeJS.ProcessEnv,
): { servers: McpServerConfig[]; shadowed: McpServerConfig[]; fileDigests: Record<string, string> } {
  const fileDigests: Record<string, string> = {};
  const ours = readServers(projectMcpPath(projectDir), 'project', defaults, warnings, env, fileDigests);
  const roots = [...new Set([resolve(projectDir), projectRoot(resolve(projectDir))])];
  const launched = (list: McpServerConfig[]) => withLaunchFiles(list, roots, env, projectDir);
  if (!compat.mcpJson) return { servers: launched(ours), shadowed: [], fileDigests };
  const names = new Set(ours.map((s) => s.name));
  // Claude Code keeps `.mcp.json` at the repository root, where it is usually started.
  const claude = readServers(claudeMcpPath(projectRoot(projectDir)), 'project', defaults, warnings, env, fileDigests);
  return {
    servers: launched([...ours, ...claude.filter((s) => !names.has(s.name))]),
    shadowed: claude.filter((s) => names.has(s.name)),
    fileDigests,
  };
}

/** Reads every file; never throws. */
export function loadMcpServers(opts: {
  home: string;
  projectDir: string;
  trusted: boolean;
  defaults: McpTimeoutDefaults;
  compat?: CompatSettings;
  env?: NodeJS.ProcessEnv;
}): LoadedMcpServers {
  const warnings: string[] = [];
  const env = opts.env ?? process.env;
  const user = readServers(userMcpPath(opts.home), 'user', opts.defaults, warnings, env);
  const project = readProjectServers(opts.projectDir, opts.compat ?? DEFAULT_COMPAT, opts.defaults, warnings, env);
  const byName = new Map(user.map((s) => [s.name, s]));
  const snapshot = snapshotOf(project.servers, project.fileDigests);
  const base = { warnings, shadowed: project.shadowed, snapshot };
  if (!opts.trusted) {
    return {
      ...base,
      servers: [...byName.values()],
      untrusted: project.servers,
      changed: [],
      changedFiles: [],
      changes: [],
    };
  }
  const judged = judgeProjectServers(workspaceTrust(opts.home, opts.projectDir), project.servers);
  for (const s of judged.approved) byName.set(s.name, s);
  const changedFiles = judged.changes.map((c) => c.file);
  return {
    ...base,
    servers: [...byName.values()],
    untrusted: [],
    changed: judged.changed,
    changedFiles,
    changes: judged.changes,
  };
}

/** The project files' valid servers, whatever the trust (the trust prompt lists them); never throws. */
export function readProjectMcpServers(projectDir: string, compat: CompatSettings = DEFAULT_COMPAT): McpServerConfig[] {
  const defaults = { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 };
  return readProjectServers(projectDir, compat, defaults, [], process.env).servers;
}

/** What trusting the folder records now: the project MCP files and launch files as they are. */
export function projectMcpSnapshot(projectDir: string, compat: CompatSettings = DEFAULT_COMPAT): McpTrustSnapshot {
  const defaults = { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 };
  const read = readProjectServers(projectDir, compat, defaults, [], process.env);
  return snapshotOf(read.servers, read.fileDigests);
}

/** `stdio: node server.js --x`, `http: https://…` — how a server is reached, for lists and prompts. */
export function describeMcpTarget(s: Pick<McpServerConfig, 'transport' | 'command' | 'args' | 'url'>): string {
  if (s.transport === 'stdio') return `stdio: ${[s.command, ...s.args].join(' ')}`;
  return `${s.transport}: ${s.url}`;
}

function readServers(
  file: string,
  scope: McpScope,
  defaults: McpTimeoutDefaults,
  warnings: string[],
  env: NodeJS.ProcessEnv,
  fileDigests?: Record<string, string>,
): McpServerConfig[] {
  let doc: McpFileDocument | undefined;
  try {
    doc = readMcpFile(file);
  } catch (e) {
    warnings.push((e as Error).message);
    return [];
  }
  if (!doc) return [];
  if (fileDigests) fileDigests[file] = doc.digest;
  const out: McpServerConfig[] = [];
  for (const [name, raw] of Object.entries(doc.servers)) {
    const parsed = parseServerEntry(name, raw, { scope, file, defaults, env });
    if ('error' in parsed) warnings.push(parsed.error);
    else out.push({ ...parsed.server, fileDigest: doc.digest });
  }
  return out;
}

/**
 * Validates one entry; the error names the file and the server and says what to fix. `${VAR}` references are
 * expanded from `vars`, then `env` (default: the process environment); `expand: false` keeps them as written
 * (`jarvis mcp add` stores what the user typed).
 */
export function parseServerEntry(
  name: string,
  raw: unknown,
  where: {
    scope: McpScope;
    file: string;
    defaults: McpTimeoutDefaults;
    env?: NodeJS.ProcessEnv;
    vars?: Record<string, string>;
    expand?: boolean;
  },
): { server: McpServerConfig } | { error: string } {
  const label = `${displayPath(where.file)}: MCP server "${name}"`;
  if (!/^[A-Za-z0-9_.-]+$/.test(name))
    return { error: `${label}: the name may contain only letters, digits, "_", "-" and "." (server skipped)` };
  const parsed = entrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.length ? issue.path.join('.') : '(entry)';
    return { error: `${label}: ${field}: ${issue.message} (server skipped)` };
  }
  let e = { ...parsed.data, args: parsed.data.args ?? [], env: parsed.data.env ?? {} };
  let headers = parsed.data.headers ?? {};
  if (where.expand !== false) {
    try {
      const expanded = expandMcpEntry({ ...e, headers }, where.env ?? process.env, where.vars);
      e = expanded;
      headers = expanded.headers;
    } catch (err) {
      if (!(err instanceof McpVariableError)) throw err;
      return { error: `${label}: ${err.message} (server skipped)` };
    }
  }
  const kind = e.transport ?? e.type;
  const transport: McpTransportKind | undefined =
    kind === 'sse'
      ? 'sse'
      : kind === 'stdio'
        ? 'stdio'
        : kind
          ? 'http'
          : e.command
            ? 'stdio'
            : e.url
              ? 'http'
              : undefined;
  if (!transport)
    return { error: `${label}: needs "command" (a local server) or "url" (a remote one) (server skipped)` };
  if (transport === 'stdio' && !e.command)
    return { error: `${label}: a stdio server needs "command" (server skipped)` };
  if (transport !== 'stdio') {
    if (!e.url) return { error: `${label}: a ${transport} server needs "url" (server skipped)` };
    if (!/^https?:\/\//i.test(e.url))
      return { error: `${label}: url ${JSON.stringify(e.url)} is not an http(s) URL (server skipped)` };
  }
  // A relative cwd is read from the folder the file belongs to: the project root, or the data root.
  const inDataFolder = where.scope === 'project' && where.file === projectMcpPath(dirname(dirname(where.file)));
  const base = inDataFolder ? dirname(dirname(where.file)) : dirname(where.file);
  return {
    server: {
      name,
      scope: where.scope,
      file: where.file,
      transport,
      command: e.command,
      args: e.args,
      env: e.env,
      cwd: e.cwd === undefined ? undefined : isAbsolute(e.cwd) ? e.cwd : resolve(base, e.cwd),
      url: e.url,
      headers,
      bearerTokenEnvVar: e.bearerTokenEnvVar,
      enabled: e.enabled !== false,
      startupTimeoutMs: e.startupTimeoutMs ?? where.defaults.startupTimeoutMs,
      toolTimeoutMs: e.toolTimeoutMs ?? where.defaults.toolTimeoutMs,
      enabledTools: e.enabledTools,
      disabledTools: e.disabledTools,
      startup: e.startup ?? 'lazy',
    },
  };
}

/** A parsed mcp.json: the whole document (kept for rewriting), its `mcpServers` table, and the SHA-256 of its bytes. */
export interface McpFileDocument {
  document: Record<string, unknown>;
  servers: Record<string, unknown>;
  /** Of the very bytes parsed here (one read: a file swapped meanwhile cannot be parsed from one and judged by another). */
  digest: string;
}

/** Undefined when the file does not exist; throws an Error with an actionable message when it is broken. */
export function readMcpFile(file: string): McpFileDocument | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${displayPath(file)} could not be read (${(e as Error).message}); its MCP servers are not used`);
  }
  let bytes: Buffer;
  try {
    // The descriptor checked is the one read: a FIFO or device planted there is refused, never waited on.
    if (!fstatSync(fd).isFile())
      throw new Error(`${displayPath(file)} is not a regular file; its MCP servers are not used until it is one`);
    bytes = readFileSync(fd);
  } finally {
    closeSync(fd);
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new Error(
      `${displayPath(file)} is not valid JSON (${(e as Error).message}); its MCP servers are not used until it is fixed`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(
      `${displayPath(file)} must hold a JSON object like {"mcpServers": {…}}; its MCP servers are not used until it is fixed`,
    );
  }
  const document = value as Record<string, unknown>;
  const servers = document.mcpServers ?? {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new Error(
      `${displayPath(file)}: "mcpServers" must be an object of servers by name; its MCP servers are not used until it is fixed`,
    );
  }
  return { document, servers: servers as Record<string, unknown>, digest: sha256(bytes) };
}

/**
 * Replaces `mcpServers` and writes atomically; every other key of the document is kept as it was. Returns the
 * SHA-256 of the bytes written (what a trusted project file's approval moves to).
 */
export function writeMcpServers(
  file: string,
  doc: McpFileDocument | undefined,
  servers: Record<string, unknown>,
): string {
  const document = { ...(doc?.document ?? {}), mcpServers: servers };
  const bytes = Buffer.from(`${JSON.stringify(document, null, 2)}\n`);
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, file);
  return sha256(bytes);
}
