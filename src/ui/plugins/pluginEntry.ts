// The light entry of the plugin UI (docs/plugins.md): `/plugins` and `/reload` in the command list, and
// the update notice at start-up. The manager, the marketplace and the install code load on first use,
// so a session that never touches plugins never parses them.
import { hasInstalledPlugins } from '../../ext/plugins/installedStore';
import type { CommandHost, SlashCommand } from '../slashCommands';

export const PLUGIN_COMMANDS: SlashCommand[] = [
  {
    name: 'plugins',
    aliases: [],
    description: 'plugin manager; or list, install, marketplace, info, enable, disable, remove, reload, mcp',
    run: async (h, args) => (await import('./pluginsCommand')).runPluginsCommand(h, args),
  },
  {
    name: 'reload',
    aliases: [],
    description: 'reopen this session with config.toml, plugins, skills, agents, hooks and MCP servers read again',
    idleOnly: true,
    run: (h) => h.reload(),
  },
];

/**
 * Official plugins never update by themselves: when the default marketplace has a newer version of an
 * installed one, say so once at start-up (SPEC §2.8). Quiet when nothing is installed or the catalog
 * cannot be read.
 */
export async function announcePluginUpdates(h: CommandHost): Promise<void> {
  if (!hasInstalledPlugins(h.home)) return;
  const [{ catalogFor, pluginManagerFor }, { officialUpdates }] = await Promise.all([
    import('./pluginsCommand'),
    import('../../ext/plugins/marketplace'),
  ]);
  const [views, catalog] = await Promise.all([pluginManagerFor(h).list(), catalogFor(h).catch(() => undefined)]);
  if (!catalog) return;
  for (const u of officialUpdates(views, catalog)) {
    h.notice(
      'info',
      `An update of the official plugin ${u.displayName} is available: ${u.installed} → ${u.available}.`,
      'Install it from /plugins (Official tab, Enter), then /reload.',
    );
  }
}
