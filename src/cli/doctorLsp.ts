// The language-server section of `jarvis doctor` (docs/lsp.md): which servers the project's files would start, the
// program each runs and whether it is found; with `--online`, each found server is started, initialized and stopped.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LspClient } from '../platform/lsp/lspClient';
import { languageIdFor, locateServer, serverForFile, type LspServerConfig } from '../platform/lsp/lspServers';
import { ConfigError, loadConfig } from '../store/config';
import type { DoctorSectionProvider } from './doctorSections';
import { lspSettingsFromConfig } from '../engine/runtime/startup/lspSettings';

const TITLE = 'language servers';
/** The walk looks at most this many folders deep and this many entries, so a huge tree stays cheap. */
const MAX_DEPTH = 4;
const MAX_ENTRIES = 5_000;
const SKIPPED = new Set(['node_modules', '.git', 'dist', 'build', 'target', '.venv', 'venv', '__pycache__']);
const ONLINE_STOP_MS = 2_000;

/** One sample file per server among the project's files, found by a bounded walk from `cwd`. */
export function serversForProject(
  servers: Record<string, LspServerConfig>,
  cwd: string,
): Map<string, { config: LspServerConfig; sample: string }> {
  const found = new Map<string, { config: LspServerConfig; sample: string }>();
  let seen = 0;
  const queue: Array<{ dir: string; depth: number }> = [{ dir: cwd, depth: 0 }];
  // Each pass takes one folder off the queue; the walk ends at MAX_DEPTH, MAX_ENTRIES or an empty queue.
  while (queue.length && seen < MAX_ENTRIES) {
    const { dir, depth } = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT') continue;
      throw e;
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) break;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth + 1 < MAX_DEPTH && !SKIPPED.has(entry.name) && !entry.name.startsWith('.')) {
          queue.push({ dir: path, depth: depth + 1 });
        }
      } else if (entry.isFile()) {
        const server = serverForFile(servers, path, cwd);
        if (server && !found.has(server.name)) found.set(server.name, { config: server.config, sample: path });
      }
    }
  }
  return found;
}

async function probe(name: string, command: string, config: LspServerConfig, cwd: string, env: NodeJS.ProcessEnv) {
  const client = new LspClient({
    name,
    command,
    args: config.args,
    root: cwd,
    languageId: (p) => languageIdFor(p, name),
    initializationOptions: config.initializationOptions ?? {},
    env,
  });
  try {
    await client.ready;
    const info = client.serverInfo;
    const said = info?.name ? `${info.name}${info.version ? ` ${info.version}` : ''}` : 'it gave no name or version';
    return { ok: true, line: `starts and initializes (${said})` };
  } catch {
    // `ready` rejects only when the start failed, and `failure` then says how.
    return { ok: false, line: `does not start: ${client.failure ?? 'it stopped'}` };
  } finally {
    await client.stop(ONLINE_STOP_MS);
  }
}

export const lspDoctor: DoctorSectionProvider = async (ctx) => {
  let settings;
  let explicit: Set<string>;
  try {
    const loaded = loadConfig(ctx.home);
    settings = lspSettingsFromConfig(loaded.config, loaded.path);
    explicit = new Set(Object.keys(loaded.config.lsp.servers));
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { title: TITLE, ok: false, lines: [`not checked: config.toml is invalid (${e.message})`] };
  }
  if (!settings.enabled) return { title: TITLE, ok: true, lines: ['off ([lsp] enabled = false)'] };
  const needed = serversForProject(settings.servers, ctx.cwd);
  if (!needed.size) {
    return { title: TITLE, ok: true, lines: ['none: no file here matches a configured server (docs/lsp.md)'] };
  }
  const lines: string[] = [];
  let ok = true;
  for (const [name, { config }] of needed) {
    const where = locateServer(config.command, ctx.cwd, ctx.cwd, ctx.env);
    const run = [config.command, ...config.args].join(' ');
    if (!where) {
      const how = config.install ? `install it with: ${config.install}` : `set [lsp.servers.${name}] command`;
      const strict = explicit.has(name);
      if (strict) ok = false;
      lines.push(`${name}: would run "${run}", not found in node_modules/.bin or on PATH; ${how}`);
      if (strict) lines.push(`  [lsp.servers.${name}] is configured in config.toml, so this needs fixing`);
      continue;
    }
    lines.push(`${name}: runs ${where}${config.args.length ? ` ${config.args.join(' ')}` : ''}`);
    if (!ctx.online) continue;
    const started = await probe(name, where, config, ctx.cwd, ctx.env);
    if (!started.ok) ok = false;
    lines.push(`  ${started.line}`);
  }
  return { title: TITLE, ok, lines };
};
