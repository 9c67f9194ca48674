// The language-server section of `jarvis doctor` (docs/lsp.md): which servers the project's files would start, the
// program each runs, where it runs, and what keeps one from running (not installed, needs a newer Node, a TypeScript
// without tsserver). With `--online`, each one is started exactly as a session would start it — inside the sandbox,
// and only in a trusted checkout — initialized and stopped.
import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { LspClient, type LspLaunch } from '../platform/lsp/lspClient';
import { serverForFile, type LspServerConfig } from '../platform/lsp/lspServers';
import { planServerLaunch, type LaunchContext } from '../platform/lsp/serverLaunch';
import { ConfigError, loadConfig } from '../store/config';
import type { JarvisConfig } from '../store/configSchema';
import { sessionsDirFor } from '../store/paths';
import { isCheckoutTrusted } from '../store/trust';
import { CommandBoundary } from '../tools/boundary/commandBoundary';
import { commandWritableRoots, languageServerSandbox } from '../tools/boundary/languageServerSandbox';
import type { DoctorContext, DoctorSectionProvider } from './doctorSections';
import { lspSettingsFromConfig } from '../engine/runtime/startup/lspSettings';
import { sandboxSettingsFromConfig } from '../engine/runtime/startup/sandboxStartup';

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

/** With --online: the server started exactly as a session would start it, initialized, and stopped. */
async function probe(launch: LspLaunch) {
  const client = new LspClient(launch);
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

/** Where the session's servers would run: the sandbox of config.toml's [sandbox] where it runs, and what commands write. */
function launchContext(ctx: DoctorContext, config: JarvisConfig): LaunchContext {
  const settings = sandboxSettingsFromConfig(config, ctx.env);
  // A session's scratch folder lies below the project's sessions folder: what commands may write stands for it.
  const folders = {
    workspace: [ctx.cwd],
    scratch: sessionsDirFor(ctx.home, ctx.cwd),
    jarvisHome: ctx.home,
    home: homedir(),
  };
  const boundary = settings.enabled ? new CommandBoundary(settings, folders) : undefined;
  return {
    cwd: ctx.cwd,
    env: ctx.env,
    sandbox: languageServerSandbox(boundary),
    writableRoots: commandWritableRoots(boundary, folders),
  };
}

export const lspDoctor: DoctorSectionProvider = async (ctx) => {
  let settings;
  let explicit: Set<string>;
  let config;
  try {
    const loaded = loadConfig(ctx.home);
    config = loaded.config;
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
  const launchCtx = launchContext(ctx, config);
  // The same rule as a session: a server runs code from the checkout, so none starts in one that is not trusted.
  const trusted = isCheckoutTrusted(ctx.home, ctx.cwd);
  const untrustedLine = `  not started here: this checkout is not trusted (it runs the project's code; jarvis trust ${ctx.cwd})`;
  const lines: string[] = [];
  let ok = true;
  for (const [name, { config: server }] of needed) {
    const plan = planServerLaunch(name, server, ctx.cwd, launchCtx);
    const run = [server.command, ...server.args].join(' ');
    if (!plan.ok && plan.state === 'missing') {
      const strict = explicit.has(name);
      if (strict) ok = false;
      lines.push(`${name}: would run "${run}": ${plan.why}`);
      if (strict) lines.push(`  [lsp.servers.${name}] is configured in config.toml, so this needs fixing`);
      continue;
    }
    if (!plan.ok) {
      ok = false;
      lines.push(`${name}: ${plan.why}`);
      if (!trusted) lines.push(untrustedLine);
      continue;
    }
    const { launch } = plan;
    const where = launch.spawn
      ? 'inside the sandbox (read-only, no network)'
      : 'outside the sandbox (it does not run here), from a folder commands cannot write';
    lines.push(`${name}: runs ${launch.command}${server.args.length ? ` ${server.args.join(' ')}` : ''}; ${where}`);
    if (!trusted) {
      lines.push(
        `  not started here: this checkout is not trusted (it runs the project's code; jarvis trust ${ctx.cwd})`,
      );
      continue;
    }
    if (!ctx.online) continue;
    const started = await probe(launch);
    if (!started.ok) ok = false;
    lines.push(`  ${started.line}`);
  }
  return { title: TITLE, ok, lines };
};
