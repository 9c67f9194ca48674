// `jarvis mcp list|add|remove|login` (docs/mcp.md): manage mcp.json from the shell. Only the
// `mcpServers` entry of the file changes; whatever else it holds is kept. A broken file is never
// overwritten: the command stops and says what to fix.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { shippedPluginFolders } from '../ext/plugins/shippedPlugins';
import {
  describeMcpTarget,
  loadMcpServers,
  parseServerEntry,
  projectMcpPath,
  userMcpPath,
  type McpScope,
  type McpServerConfig,
} from '../store/mcpConfig';
import { readMcpFile, writeMcpServers, type McpFileDocument } from '../store/mcpFile';
import { compatSettingsOf, DEFAULT_COMPAT, type CompatSettings } from '../store/compat';
import { ConfigError, readConfigFile } from '../store/config';
import { configPath, displayPath, jarvisHome } from '../store/paths';
import { isWorkspaceTrusted, mcpFileApproved, recordMcpFileWrite } from '../store/trust';
import { openInBrowser } from '../platform/openInBrowser';
import { changedFilesOf } from '../engine/runtime/startup/mcpTrustNotice';
import { UsageError } from './program';

export interface McpAddOptions {
  scope?: string;
  transport?: string;
  env?: string[];
  header?: string[];
  bearerTokenEnvVar?: string;
  startupTimeoutMs?: string;
  toolTimeoutMs?: string;
  cwd?: string;
}

function fileFor(scope: McpScope, home: string, cwd: string): string {
  return scope === 'project' ? projectMcpPath(cwd) : userMcpPath(home);
}

function parseScope(value: string | undefined): McpScope {
  if (value === undefined || value === 'user') return 'user';
  if (value === 'project') return 'project';
  throw new UsageError(`--scope must be user or project, got "${value}".`);
}

function pairs(values: readonly string[] | undefined, separator: string, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values ?? []) {
    const at = v.indexOf(separator);
    if (at <= 0) throw new UsageError(`${flag} expects NAME${separator}VALUE, got "${v}".`);
    out[v.slice(0, at).trim()] = v.slice(at + 1).trim();
  }
  return out;
}

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 2_147_483_647)
    throw new UsageError(`${flag} must be a whole number of milliseconds from 1 to 2147483647, got "${value}".`);
  return n;
}

/** Reads a file for editing; a broken one stops the command (it is never overwritten). */
function readForEdit(file: string) {
  try {
    return readMcpFile(file);
  } catch (e) {
    throw new UsageError(
      `${(e as Error).message.replace(/; its MCP servers.*$/, '')}. Fix or move it first; it was not changed.`,
    );
  }
}

/** The servers of enabled plugins, the bundled ones included (installed first, as a session start does). */
async function pluginServers(home: string, cwd: string): Promise<{ servers: McpServerConfig[]; warnings: string[] }> {
  const bundled = shippedPluginFolders();
  if (!bundled.length && !existsSync(join(home, 'plugins', 'installed.json'))) return { servers: [], warnings: [] };
  const { loadSessionPlugins } = await import('../ext/plugins/sessionPlugins');
  const plugins = await loadSessionPlugins({
    home,
    cwd,
    env: process.env,
    allowPrivateNetwork: false,
    mcpDefaults: MCP_DEFAULTS,
    bundled,
  });
  return { servers: plugins.mcpServers, warnings: plugins.warnings };
}

const MCP_DEFAULTS = { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 };

/**
 * `[compat]` of config.toml, which decides whether the project `.mcp.json` counts (docs/compatibility.md). A broken
 * config.toml stops the command, as it stops a session: guessing the defaults could list a file switched off.
 */
function compatHere(home: string): CompatSettings {
  const file = configPath(home);
  if (!existsSync(file)) return DEFAULT_COMPAT;
  try {
    return compatSettingsOf(readConfigFile(file).config.compat);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    throw new UsageError(
      `invalid configuration\n${e.message}\nFix the file (jarvis doctor checks it); it was not changed.`,
    );
  }
}

/**
 * Whether the user's own edit of a project file keeps it trusted: the file was absent or held what was trusted
 * (docs/mcp.md, "Workspace trust"); a change nobody approved stays unapproved.
 */
function projectFileApproved(scope: McpScope, home: string, file: string, doc: McpFileDocument | undefined): boolean {
  // Judged from the same read the edit is made from: a file swapped in between cannot borrow the old approval.
  return scope === 'project' && (doc === undefined || mcpFileApproved(home, process.cwd(), file, doc.digest));
}

/** `jarvis mcp list`: every server a session here would know, where it is declared and whether it would start. */
export async function runMcpList(opts: { json?: boolean }): Promise<number> {
  const home = jarvisHome();
  const cwd = process.cwd();
  const trusted = isWorkspaceTrusted(home, cwd);
  const loaded = loadMcpServers({ home, projectDir: cwd, trusted, defaults: MCP_DEFAULTS, compat: compatHere(home) });
  const plugins = await pluginServers(home, cwd);
  for (const w of [...loaded.warnings, ...plugins.warnings]) process.stderr.write(`warning: ${w}\n`);
  const stateOf = (s: McpServerConfig) => (s.enabled ? 'enabled' : 'disabled');
  const rows = [
    ...[...loaded.servers, ...plugins.servers].map((s) => ({ ...s, state: stateOf(s) })),
    ...loaded.untrusted.map((s) => ({ ...s, state: 'not used: this workspace is not trusted' })),
    ...loaded.changed.map((s) => ({
      ...s,
      state: `changed since trusted: ${changedFilesOf(loaded, s.name).join(', ')}`,
    })),
  ];
  if (opts.json) {
    process.stdout.write(
      `${JSON.stringify(
        rows.map(({ name, scope, transport, command, args, url, enabled, state, file }) => ({
          name,
          scope,
          transport,
          command,
          args,
          url,
          enabled,
          state,
          source: file,
        })),
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  if (!rows.length) {
    process.stdout.write(
      `No MCP servers configured (${displayPath(userMcpPath(home))}, ${displayPath(projectMcpPath(cwd))}). Add one with: jarvis mcp add <name> -- <command> [args…]\n`,
    );
    return 0;
  }
  for (const s of rows)
    process.stdout.write(`${s.name}  ${s.scope}  ${describeMcpTarget(s)}  (${s.state}; from ${displayPath(s.file)})\n`);
  process.stdout.write('Sessions start enabled servers; jarvis doctor --online starts each one and lists its tools.\n');
  return 0;
}

export function runMcpAdd(name: string, target: string[], opts: McpAddOptions): number {
  const scope = parseScope(opts.scope);
  const home = jarvisHome();
  const file = fileFor(scope, home, process.cwd());
  const [first, ...rest] = target;
  if (!first)
    throw new UsageError('give the command to run (jarvis mcp add <name> -- <command> [args…]) or the server URL.');
  const transport = opts.transport ?? (/^https?:\/\//i.test(first) ? 'http' : 'stdio');
  if (!['stdio', 'http', 'sse'].includes(transport))
    throw new UsageError(`--transport must be stdio, http or sse, got "${transport}".`);
  const entry: Record<string, unknown> =
    transport === 'stdio'
      ? { command: first, args: rest }
      : { url: first, ...(transport === 'sse' ? { transport: 'sse' } : {}) };
  if (transport !== 'stdio' && rest.length)
    throw new UsageError(`a ${transport} server takes one URL; unexpected "${rest.join(' ')}".`);
  const env = pairs(opts.env, '=', '--env');
  const headers = pairs(opts.header, ':', '--header');
  if (Object.keys(env).length) entry.env = env;
  if (Object.keys(headers).length) entry.headers = headers;
  if (opts.cwd) entry.cwd = resolve(opts.cwd);
  if (opts.bearerTokenEnvVar) entry.bearerTokenEnvVar = opts.bearerTokenEnvVar;
  const startupTimeoutMs = positiveInt(opts.startupTimeoutMs, '--startup-timeout-ms');
  const toolTimeoutMs = positiveInt(opts.toolTimeoutMs, '--tool-timeout-ms');
  if (startupTimeoutMs) entry.startupTimeoutMs = startupTimeoutMs;
  if (toolTimeoutMs) entry.toolTimeoutMs = toolTimeoutMs;
  const checked = parseServerEntry(name, entry, {
    scope,
    file,
    defaults: { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 },
    expand: false,
  });
  if ('error' in checked) throw new UsageError(checked.error.replace(/ \(server skipped\)$/, ''));
  const doc = readForEdit(file);
  if (doc && name in doc.servers)
    throw new UsageError(
      `MCP server "${name}" already exists in ${displayPath(file)}; remove it first (jarvis mcp remove ${name}${scope === 'project' ? ' --scope project' : ''}).`,
    );
  const approved = projectFileApproved(scope, home, file, doc);
  const written = writeMcpServers(file, doc, { ...(doc?.servers ?? {}), [name]: entry });
  if (scope === 'project') recordMcpFileWrite(home, process.cwd(), file, approved, written, name);
  process.stdout.write(`Added MCP server "${name}" (${describeMcpTarget(checked.server)}) to ${displayPath(file)}.\n`);
  if (scope === 'project' && !isWorkspaceTrusted(home, process.cwd())) {
    process.stdout.write(
      'This workspace is not trusted, so project servers do not start yet; trust it when Jarvis asks.\n',
    );
  }
  return 0;
}

export function runMcpRemove(name: string, opts: { scope?: string }): number {
  const home = jarvisHome();
  const cwd = process.cwd();
  const scopes: McpScope[] = opts.scope ? [parseScope(opts.scope)] : ['user', 'project'];
  const holders = scopes.filter((s) => {
    const doc = readForEdit(fileFor(s, home, cwd));
    return doc !== undefined && name in doc.servers;
  });
  if (!holders.length)
    throw new UsageError(
      `no MCP server "${name}" in ${scopes.map((s) => displayPath(fileFor(s, home, cwd))).join(' or ')}.`,
    );
  if (holders.length > 1)
    throw new UsageError(
      `MCP server "${name}" is configured for the user and for this project; say which with --scope user or --scope project.`,
    );
  const file = fileFor(holders[0], home, cwd);
  const doc = readForEdit(file)!;
  const { [name]: _removed, ...servers } = doc.servers;
  const approved = projectFileApproved(holders[0], home, file, doc);
  const written = writeMcpServers(file, doc, servers);
  if (holders[0] === 'project') recordMcpFileWrite(home, cwd, file, approved, written);
  process.stdout.write(
    `Removed MCP server "${name}" from ${displayPath(file)}. Running sessions keep it until they end.\n`,
  );
  return 0;
}

export async function runMcpLogin(name: string): Promise<number> {
  const home = jarvisHome();
  const cwd = process.cwd();
  const loaded = loadMcpServers({
    home,
    projectDir: cwd,
    trusted: isWorkspaceTrusted(home, cwd),
    defaults: MCP_DEFAULTS,
    compat: compatHere(home),
  });
  const server = loaded.servers.find((s) => s.name === name);
  if (!server) throw new UsageError(`no MCP server "${name}" is configured here (see jarvis mcp list).`);
  const { loginMcpServer } = await import('../ext/mcp/mcpOAuth');
  try {
    await loginMcpServer(server, {
      home,
      clientName: 'Jarvis Code CLI',
      timeoutMs: 5 * 60_000,
      openUrl: (url) => {
        process.stderr.write(`Open this address to sign in to "${name}":\n  ${url}\n`);
        openInBrowser(url);
      },
    });
  } catch (e) {
    process.stderr.write(`jarvis: signing in to MCP server "${name}" failed: ${(e as Error).message}\n`);
    return 1;
  }
  process.stdout.write(
    `Signed in to MCP server "${name}"; the tokens are stored under ${displayPath(join(home, 'credentials', 'mcp'))}.\n`,
  );
  return 0;
}
