// The MCP server list (docs/mcp.md): `{"mcpServers": {name: entry}}` in `$JARVIS_CODE_HOME/mcp.json`
// (user), `<project>/.jarvis-code/mcp.json` and Claude Code's `<project>/.mcp.json` (project), and the servers Claude
// Code keeps in `~/.claude.json` (claudeJsonMcp.ts: user, and this project's). A same-named project entry replaces
// the user one, ours beat Claude Code's, and project servers are used only in a trusted workspace — SPEC §7.6,
// docs/compatibility.md. `${VAR}` references are expanded (mcpVariables.ts). A broken file or entry is
// a warning that names it; the session goes on without that server. Writing (`jarvis mcp add|remove`)
// touches only the `mcpServers` key, so whatever else the file holds survives.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { claudeJsonPath, readClaudeJsonServers, type ClaudeJsonServers } from './claudeJsonMcp';
import { claudeMcpPath, DEFAULT_COMPAT, type CompatSettings } from './compat';
import { INT32_MAX } from './configSchema';
import { expandMcpEntry, McpVariableError } from './mcpVariables';
import { displayPath, projectRoot } from './paths';
import { mcpFileApproved } from './trust';

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
  /**
   * A bundled plugin's server: the tool list that shipped with the package beside it (ext/plugins/bundledPlugins.ts),
   * used like a cached listing while none is cached.
   */
  shippedListing?: string;
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
  warnings: string[];
  /** Foreign entries not used because one ranked above has their name (`.jarvis-code/mcp.json` over `.mcp.json`…). */
  shadowed: McpServerConfig[];
}

/**
 * The project's servers: `.jarvis-code/mcp.json`, then this project's entry of `~/.claude.json` (Claude Code's local
 * scope, unless `[compat] claude = false`), then `.mcp.json` (unless `[compat] mcp_json = false`); a name taken by an
 * earlier source is shadowed.
 */
function readProjectServers(
  projectDir: string,
  compat: CompatSettings,
  defaults: McpTimeoutDefaults,
  warnings: string[],
  env: NodeJS.ProcessEnv,
  claudeJson: ClaudeJsonServers,
): { servers: McpServerConfig[]; shadowed: McpServerConfig[] } {
  const servers = readServers(projectMcpPath(projectDir), 'project', defaults, warnings, env);
  const shadowed: McpServerConfig[] = [];
  const add = (list: McpServerConfig[]) => {
    for (const s of list) (servers.some((t) => t.name === s.name) ? shadowed : servers).push(s);
  };
  if (compat.claude) add(claudeJson.project);
  // Claude Code keeps `.mcp.json` at the repository root, where it is usually started.
  if (compat.mcpJson) add(readServers(claudeMcpPath(projectRoot(projectDir)), 'project', defaults, warnings, env));
  return { servers, shadowed };
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
  const compat = opts.compat ?? DEFAULT_COMPAT;
  const claudeJson = compat.claude
    ? readClaudeJsonServers(opts.projectDir, opts.defaults, warnings, env, parseServerEntry)
    : { user: [], project: [] };
  const user = readServers(userMcpPath(opts.home), 'user', opts.defaults, warnings, env);
  const project = readProjectServers(opts.projectDir, compat, opts.defaults, warnings, env, claudeJson);
  // `~/.claude.json`'s user servers rank after ours ($JARVIS_CODE_HOME/mcp.json) of the same name.
  const claudeUser = claudeJson.user.filter((s) => !user.some((u) => u.name === s.name));
  project.shadowed.push(...claudeJson.user.filter((s) => !claudeUser.includes(s)));
  const byName = new Map([...user, ...claudeUser].map((s) => [s.name, s]));
  const untrusted: McpServerConfig[] = [];
  const changed: McpServerConfig[] = [];
  const approved = new Map<string, boolean>();
  // `~/.claude.json` is the user's own file, out of every sandbox's reach: its servers need only a trusted folder.
  const claudeFile = claudeJsonPath(env);
  const isApproved = (file: string): boolean => {
    if (file === claudeFile) return true;
    if (!approved.has(file)) approved.set(file, mcpFileApproved(opts.home, opts.projectDir, file));
    return approved.get(file)!;
  };
  for (const s of project.servers) {
    if (!opts.trusted) untrusted.push(s);
    else if (isApproved(s.file)) byName.set(s.name, s);
    else changed.push(s);
  }
  const changedFiles = [...new Set(changed.map((s) => s.file))];
  return { servers: [...byName.values()], untrusted, changed, changedFiles, warnings, shadowed: project.shadowed };
}

/** The project files' valid servers, whatever the trust (the trust prompt lists them); never throws. */
export function readProjectMcpServers(projectDir: string, compat: CompatSettings = DEFAULT_COMPAT): McpServerConfig[] {
  const defaults = { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 };
  const claudeJson = compat.claude
    ? readClaudeJsonServers(projectDir, defaults, [], process.env, parseServerEntry)
    : { user: [], project: [] };
  return readProjectServers(projectDir, compat, defaults, [], process.env, claudeJson).servers;
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
): McpServerConfig[] {
  let doc: McpFileDocument | undefined;
  try {
    doc = readMcpFile(file);
  } catch (e) {
    warnings.push((e as Error).message);
    return [];
  }
  if (!doc) return [];
  const out: McpServerConfig[] = [];
  for (const [name, raw] of Object.entries(doc.servers)) {
    const parsed = parseServerEntry(name, raw, { scope, file, defaults, env });
    if ('error' in parsed) warnings.push(parsed.error);
    else out.push(parsed.server);
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
): { server: McpServerConfig } | { error: string; unsetVariable?: string } {
  const label = `${displayPath(where.file)}: MCP server "${name}"`;
  if (!/^[A-Za-z0-9_.-]+$/.test(name))
    return { error: `${label}: the name may contain only letters, digits, "_", "-" and "." (server skipped)` };
  // jitless: each entry is checked once per start, where zod's compiled fast path costs more than it saves.
  const parsed = entrySchema.safeParse(raw, { jitless: true });
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
      return { error: `${label}: ${err.message} (server skipped)`, unsetVariable: err.variable };
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

/** A parsed mcp.json: the whole document (kept for rewriting) and its `mcpServers` table. */
export interface McpFileDocument {
  document: Record<string, unknown>;
  servers: Record<string, unknown>;
}

/** Undefined when the file does not exist; throws an Error with an actionable message when it is broken. */
export function readMcpFile(file: string): McpFileDocument | undefined {
  if (!existsSync(file)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
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
  return { document, servers: servers as Record<string, unknown> };
}

/** Replaces `mcpServers` and writes atomically; every other key of the document is kept as it was. */
export function writeMcpServers(
  file: string,
  doc: McpFileDocument | undefined,
  servers: Record<string, unknown>,
): void {
  const document = { ...(doc?.document ?? {}), mcpServers: servers };
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(document, null, 2)}\n`);
  renameSync(tmp, file);
}
