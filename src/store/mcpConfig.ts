// The MCP server list (docs/mcp.md): `{"mcpServers": {name: entry}}` in `$JARVIS_CODE_HOME/mcp.json`
// (user), `<project>/.jarvis-code/mcp.json` and Claude Code's `<project>/.mcp.json` (project), and the servers Claude
// Code keeps in `~/.claude.json` (claudeJsonMcp.ts: user, and this project's). A same-named project entry replaces
// the user one, ours beat Claude Code's, and project servers are used only in a trusted workspace — SPEC §7.6,
// docs/compatibility.md. `${VAR}` references are expanded (mcpVariables.ts). A broken file or entry is
// a warning that names it; the session goes on without that server. Reading and writing one file: mcpFile.ts.
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { claudeJsonPath, readClaudeJsonServers, type ClaudeJsonServers } from './claudeJsonMcp';
import { claudeMcpPath, DEFAULT_COMPAT, type CompatSettings } from './compat';
import { opencodeMcpEntries, readOpencodeConfigs } from './opencodeConfig';
import { INT32_MAX } from './configSchema';
import { expandMcpEntry, McpVariableError } from './mcpVariables';
import { displayPath, projectRoot } from './paths';
import type { LaunchFile } from './mcpLaunch';
import { readMcpFile, type McpFileDocument } from './mcpFile';
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
  /** Each changed file (an MCP file or a file a server is started with) and the servers it holds back. */
  changes: McpChange[];
  /** What trusting the project's servers now records: the files as this load read them. */
  snapshot: McpTrustSnapshot;
  warnings: string[];
  /** Foreign entries not used because one ranked above has their name (`.jarvis-code/mcp.json` over `.mcp.json`…). */
  shadowed: McpServerConfig[];
}

/**
 * The project's servers: `.jarvis-code/mcp.json`, then this project's entry of `~/.claude.json` (Claude Code's local
 * scope, unless `[compat] claude = false`), then `.mcp.json` (unless `[compat] mcp_json = false`); a name taken by an
 * earlier source is shadowed. Each keeps the digest of the bytes it was parsed from, and stdio servers their launch
 * files digested (mcpTrust.ts).
 */
function readProjectServers(
  projectDir: string,
  compat: CompatSettings,
  defaults: McpTimeoutDefaults,
  warnings: string[],
  env: NodeJS.ProcessEnv,
  claudeJson: ClaudeJsonServers,
): { servers: McpServerConfig[]; shadowed: McpServerConfig[]; fileDigests: Record<string, string> } {
  const fileDigests: Record<string, string> = {};
  const servers = readServers(projectMcpPath(projectDir), 'project', defaults, warnings, env, fileDigests);
  const shadowed: McpServerConfig[] = [];
  const add = (list: McpServerConfig[]) => {
    for (const s of list) (servers.some((t) => t.name === s.name) ? shadowed : servers).push(s);
  };
  if (compat.claude) add(claudeJson.project);
  // Claude Code keeps `.mcp.json` at the repository root, where it is usually started.
  const claudeMcp = claudeMcpPath(projectRoot(projectDir));
  if (compat.mcpJson) add(readServers(claudeMcp, 'project', defaults, warnings, env, fileDigests));
  add(opencodeServers(projectDir, 'project', compat, defaults, warnings, env, fileDigests));
  const roots = [...new Set([resolve(projectDir), projectRoot(resolve(projectDir))])];
  return { servers: withLaunchFiles(servers, roots, env, projectDir), shadowed, fileDigests };
}

/** The `mcp` servers of opencode's config files of `scope` (opencode.json(c), docs/compatibility.md). */
function opencodeServers(
  projectDir: string,
  scope: McpScope,
  compat: CompatSettings,
  defaults: McpTimeoutDefaults,
  warnings: string[],
  env: NodeJS.ProcessEnv,
  fileDigests?: Record<string, string>,
): McpServerConfig[] {
  const out: McpServerConfig[] = [];
  for (const file of readOpencodeConfigs(projectRoot(projectDir), compat, env, warnings)) {
    if (file.scope !== scope) continue;
    const entries = opencodeMcpEntries(file, warnings);
    if (fileDigests && entries.length) fileDigests[file.path] = file.digest;
    for (const { name, entry } of entries) {
      const parsed = parseServerEntry(name, entry, { scope, file: file.path, defaults, env });
      if ('error' in parsed) warnings.push(parsed.error);
      else out.push({ ...parsed.server, fileDigest: file.digest });
    }
  }
  return out;
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
  const claudeJson = readClaudeJson(opts.projectDir, compat, opts.defaults, warnings, env);
  const user = readServers(userMcpPath(opts.home), 'user', opts.defaults, warnings, env);
  const project = readProjectServers(opts.projectDir, compat, opts.defaults, warnings, env, claudeJson);
  // `~/.claude.json`'s user servers rank after ours ($JARVIS_CODE_HOME/mcp.json) of the same name.
  const claudeUser = claudeJson.user.filter((s) => !user.some((u) => u.name === s.name));
  const shadowed = [...project.shadowed, ...claudeJson.user.filter((s) => !claudeUser.includes(s))];
  // opencode's global config ranks after both.
  const opencodeAll = opencodeServers(opts.projectDir, 'user', compat, opts.defaults, warnings, env);
  const opencodeUser = opencodeAll.filter((s) => ![...user, ...claudeUser].some((u) => u.name === s.name));
  shadowed.push(...opencodeAll.filter((s) => !opencodeUser.includes(s)));
  const byName = new Map([...user, ...claudeUser, ...opencodeUser].map((s) => [s.name, s]));
  const snapshot = snapshotOf(project.servers, project.fileDigests);
  const base = { warnings, shadowed, snapshot };
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
  // `~/.claude.json` is the user's own file, out of every sandbox's reach: its servers need a trusted folder but no
  // digest of that file; the files they start inside the workspace are pinned like every project server's.
  const trust = workspaceTrust(opts.home, opts.projectDir);
  const judged = judgeProjectServers(trust, project.servers, [claudeJsonPath(env)]);
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

/** `~/.claude.json`'s servers (none with `[compat] claude = false`). */
function readClaudeJson(
  projectDir: string,
  compat: CompatSettings,
  defaults: McpTimeoutDefaults,
  warnings: string[],
  env: NodeJS.ProcessEnv,
): ClaudeJsonServers {
  if (!compat.claude) return { user: [], project: [] };
  return readClaudeJsonServers(projectDir, defaults, warnings, env, parseServerEntry);
}

/**
 * The project's valid servers whatever the trust (the trust prompt lists them), and what trusting them records
 * (the files as this one read saw them); never throws.
 */
export function readProjectMcp(
  projectDir: string,
  compat: CompatSettings = DEFAULT_COMPAT,
): { servers: McpServerConfig[]; snapshot: McpTrustSnapshot } {
  const defaults = { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 };
  const claudeJson = readClaudeJson(projectDir, compat, defaults, [], process.env);
  const read = readProjectServers(projectDir, compat, defaults, [], process.env, claudeJson);
  return { servers: read.servers, snapshot: snapshotOf(read.servers, read.fileDigests) };
}

export function readProjectMcpServers(projectDir: string, compat: CompatSettings = DEFAULT_COMPAT): McpServerConfig[] {
  return readProjectMcp(projectDir, compat).servers;
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
