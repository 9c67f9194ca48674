// `jarvis plugin list|install|info|enable|disable|remove|reload` (docs/plugins.md "From the shell"): the
// plugin manager for scripts and CI. Every change is written to installed.json at once and applies to
// sessions started afterwards. Errors print one actionable line and exit 1.
import { PluginError, PluginManager, type PluginView } from '../ext/plugins/manager';
import { installNotice } from '../ext/plugins/officialNotices';
import { pluginNetwork } from '../ext/plugins/pluginSources';
import { formatPluginInfo, formatPluginList, formatShellCommands } from '../ext/plugins/pluginText';
import { ConfigError, loadConfig } from '../store/config';
import { FileLockTimeoutError } from '../store/fileLock';
import { jarvisHome } from '../store/paths';

export interface PluginCommandIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  out(text: string): void;
  err(text: string): void;
}

const io = (): PluginCommandIo => ({
  env: process.env,
  cwd: process.cwd(),
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
});

/** The manager with this user's network policy (`[web] allow_private_network`) and `[mcp]` timeouts. */
export function pluginManagerFor(
  home: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
  warn: (text: string) => void,
): PluginManager {
  let allowPrivateNetwork = false;
  let mcpDefaults;
  try {
    const { config } = loadConfig(home);
    allowPrivateNetwork = config.web.allow_private_network;
    mcpDefaults = { startupTimeoutMs: config.mcp.startup_timeout_ms, toolTimeoutMs: config.mcp.tool_timeout_ms };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    warn(`config.toml is invalid, so its settings are not used here (run jarvis doctor): ${e.message.split('\n')[0]}`);
  }
  return new PluginManager({ home, env, cwd, network: pluginNetwork(env, allowPrivateNetwork), mcpDefaults });
}

export type PluginAction = 'list' | 'install' | 'info' | 'enable' | 'disable' | 'remove' | 'reload';

/** Runs one `jarvis plugin <action>`; returns the exit code. */
export async function runPluginCommand(
  action: PluginAction,
  arg: string | undefined,
  opts: { json?: boolean; tier?: string } = {},
  ctx: PluginCommandIo = io(),
): Promise<number> {
  const home = jarvisHome(ctx.env);
  const manager = pluginManagerFor(home, ctx.env, ctx.cwd, (w) => ctx.err(`warning: ${w}\n`));
  const print = (views: PluginView[] | PluginView, text: string) =>
    ctx.out(`${opts.json ? JSON.stringify(views, null, 2) : text}\n`);
  try {
    const problem = manager.problem();
    if (problem && (action === 'list' || action === 'reload')) ctx.err(`warning: ${problem}\n`);
    switch (action) {
      case 'list':
      case 'reload': {
        const views = await manager.list();
        print(views, formatPluginList(views));
        return 0;
      }
      case 'info': {
        const v = await manager.info(required(arg, 'info <id>'));
        print(v, formatPluginInfo(v));
        return 0;
      }
      case 'install': {
        const tier =
          opts.tier === undefined
            ? undefined
            : (['official', 'curated', 'third-party'] as const).find((t) => t === opts.tier);
        if (opts.tier !== undefined && !tier)
          throw new PluginError(`--tier must be official, curated or third-party, got "${opts.tier}"`);
        const result = await manager.install(required(arg, 'install <path-or-url>'), { tier });
        const v = result.plugin;
        const state = v.enabled ? 'enabled' : 'disabled';
        const headline = result.replaced
          ? `Updated ${v.id}${result.previousVersion ? ` from ${result.previousVersion}` : ''}` +
            `${v.version ? ` to ${v.version}` : ''} in ${v.root} (${state}).`
          : `Installed ${v.id}${v.version ? ` ${v.version}` : ''} to ${v.root} (${state}).`;
        const text = [
          headline,
          ...formatShellCommands(v),
          ...(await installNotice(v.id, ctx.env)),
          ...(v.diagnostics.length ? ['Diagnostics:', ...v.diagnostics.map((d) => `  - ${d}`)] : []),
          'It applies to sessions started from now on (or after /reload).',
        ].join('\n');
        print(v, text);
        return 0;
      }
      case 'enable':
      case 'disable': {
        const id = required(arg, `${action} <id>`);
        const v = action === 'enable' ? await manager.enable(id) : await manager.disable(id);
        print(
          v,
          `${action === 'enable' ? 'Enabled' : 'Disabled'} ${v.id}. It applies to sessions started from now on (or after /reload).`,
        );
        return 0;
      }
      case 'remove': {
        const id = required(arg, 'remove <id>');
        const root = (await manager.info(id)).root;
        await manager.remove(id);
        ctx.out(
          `${opts.json ? JSON.stringify({ removed: id }) : `Removed ${id}. Its files stay in ${root}; reinstall to use it again.`}\n`,
        );
        return 0;
      }
    }
  } catch (e) {
    if (!(e instanceof PluginError || e instanceof FileLockTimeoutError)) throw e;
    ctx.err(`jarvis plugin ${action}: ${e.message}\n`);
    return 1;
  }
}

function required(arg: string | undefined, usage: string): string {
  if (!arg?.trim()) throw new PluginError(`missing argument: jarvis plugin ${usage}`);
  return arg.trim();
}
