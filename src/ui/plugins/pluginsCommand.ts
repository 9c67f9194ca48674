// `/plugins …` (docs/plugins.md): no argument opens the manager panel; `list`, `install <path-or-url>`,
// `marketplace [source]`, `info <id>`, `enable <id>`, `disable <id>`, `remove <id>` (asks first),
// `reload`, `mcp enable|disable <id> <server>`. Loaded on first use (slashCommands.ts imports it lazily).
// Installing from a path or URL is a third-party install and asks first, like the manager's Custom tab.
import { loadMarketplace, type Marketplace } from '../../ext/plugins/marketplace';
import { PluginError, PluginManager } from '../../ext/plugins/manager';
import { installNotice } from '../../ext/plugins/officialNotices';
import { formatShellCommands } from '../../ext/plugins/pluginText';
import type { CommandHost } from '../slashCommands';
import { APPLY_HINT, pluginDetailLines, pluginListLines, updateFor } from './pluginLines';
import { PluginsPanel, type PluginsTab } from './pluginsPanel';

const USAGE =
  'Usage: /plugins [list | install <path-or-url> | marketplace [source] | info <id> | enable <id> | disable <id> | remove <id> | reload | mcp enable|disable <id> <server>]';

export function pluginManagerFor(h: CommandHost): PluginManager {
  return new PluginManager({
    home: h.home,
    cwd: h.cwd,
    env: h.pluginSettings.env,
    network: { allowPrivateNetwork: h.pluginSettings.allowPrivateNetwork },
  });
}

/** The catalog at `source`, or the default one (the shipped file, or JARVIS_CODE_PLUGIN_MARKETPLACE_URL). */
export function catalogFor(h: CommandHost, source?: string): Promise<Marketplace> {
  return loadMarketplace(source, {
    env: h.pluginSettings.env,
    cwd: h.cwd,
    allowPrivateNetwork: h.pluginSettings.allowPrivateNetwork,
  });
}

/** The default catalog, or undefined when it cannot be read (the commands then show no updates). */
async function defaultCatalog(h: CommandHost): Promise<Marketplace | undefined> {
  return catalogFor(h).catch(() => undefined);
}

export function openPluginsManager(h: CommandHost, initialTab: PluginsTab, source?: string): void {
  const manager = pluginManagerFor(h);
  h.showPanel((panel) => {
    // A server that becomes ready or fails redraws the MCP sub-view's state lines (pluginMcpState.ts).
    const stopWatching = h.mcp?.onToolsChanged(() => panel.requestRender());
    return new PluginsPanel({
      theme: () => h.theme,
      rows: () => panel.terminal.rows,
      requestRender: () => panel.requestRender(),
      close: () => {
        stopWatching?.();
        panel.close();
      },
      manager,
      initialTab,
      loadCatalog: () => catalogFor(h, source),
      notice: (level, text, hint) => h.notice(level, text, hint),
      env: h.pluginSettings.env,
      mcpStatus: () => h.mcp?.status() ?? [],
    });
  });
}

export async function runPluginsCommand(h: CommandHost, args: string): Promise<void> {
  const words = args.trim().split(/\s+/).filter(Boolean);
  const [verb = '', ...rest] = words;
  const manager = pluginManagerFor(h);
  const one = (what: string): string | undefined => {
    if (rest.length === 1) return rest[0];
    h.notice('error', `Expected /plugins ${verb} ${what}.`, USAGE);
    return undefined;
  };
  try {
    switch (verb.toLowerCase()) {
      case '':
        return openPluginsManager(h, 'installed');
      case 'marketplace':
        return openPluginsManager(h, rest.length ? 'curated' : 'official', rest.length ? rest.join(' ') : undefined);
      case 'list': {
        const [views, catalog] = await Promise.all([manager.list(), defaultCatalog(h)]);
        const problem = manager.problem();
        h.popup(`Plugins (${views.length})`, [...(problem ? [problem, ''] : []), ...pluginListLines(views, catalog)]);
        return;
      }
      case 'info': {
        const id = one('<id>');
        if (!id) return;
        const [view, catalog] = await Promise.all([manager.info(id), defaultCatalog(h)]);
        h.popup(`Plugin: ${view.displayName}`, pluginDetailLines(view, updateFor(view, catalog)));
        return;
      }
      case 'install': {
        const source = rest.join(' ');
        if (!source)
          return void h.notice(
            'error',
            'Expected /plugins install <path-or-url>.',
            'A local folder, a zip URL or a GitHub URL.',
          );
        return confirmInstall(h, manager, source);
      }
      case 'enable':
      case 'disable': {
        const id = one('<id>');
        if (!id) return;
        const view = verb === 'enable' ? await manager.enable(id) : await manager.disable(id);
        h.notice('success', `${view.enabled ? 'Enabled' : 'Disabled'} the plugin ${id}.`, APPLY_HINT);
        return;
      }
      case 'remove': {
        const id = one('<id>');
        if (!id) return;
        const view = await manager.info(id);
        h.pick(
          `Remove the plugin ${id}?`,
          [
            { value: 'remove', label: 'Remove' },
            { value: 'cancel', label: 'Cancel' },
          ],
          (choice) => {
            if (choice !== 'remove') return h.notice('info', `Kept the plugin ${id}.`);
            void manager.remove(id).then(
              () => h.notice('success', `Removed the plugin ${id}.`, APPLY_HINT),
              (e: Error) => h.notice('error', `Could not remove ${id}: ${e.message}`),
            );
          },
          [`Only its install record is deleted; the copy in ${view.root} stays on disk.`],
        );
        return;
      }
      case 'reload':
        return reloadPlugins(h, manager);
      case 'mcp': {
        const [onOff, id, server, ...extra] = rest;
        if ((onOff !== 'enable' && onOff !== 'disable') || !id || !server || extra.length)
          return void h.notice('error', 'Expected /plugins mcp enable|disable <id> <server>.', USAGE);
        await manager.setMcpServerEnabled(id, server, onOff === 'enable');
        h.notice(
          'success',
          `${onOff === 'enable' ? 'Enabled' : 'Disabled'} the MCP server ${server} of the plugin ${id}.`,
          'It starts or stops after /reload or /new.',
        );
        return;
      }
      default:
        h.notice('error', `Unknown /plugins subcommand "${verb}".`, USAGE);
    }
  } catch (e) {
    if (!(e instanceof PluginError)) throw e;
    h.notice('error', `/plugins ${verb}: ${e.message}`);
  }
}

/** A path or URL typed by the user is a third-party install: it asks first (SPEC §9.4). */
function confirmInstall(h: CommandHost, manager: PluginManager, source: string): void {
  const body = [
    'It is not an official plugin. Plugins add instructions, skills and agents, and their hooks and MCP servers run commands on this computer. Install only plugins you trust.',
  ];
  h.pick(
    `Install the third-party plugin from ${source}?`,
    [
      { value: 'install', label: 'Install' },
      { value: 'cancel', label: 'Cancel' },
    ],
    (choice) => {
      if (choice !== 'install') return h.notice('info', 'Nothing was installed.');
      h.notice('info', `Installing from ${source}…`);
      void manager.install(source, { tier: 'third-party' }).then(
        async ({ plugin, replaced, previousVersion }) => {
          const version = plugin.version ? ` ${plugin.version}` : '';
          const was = replaced && previousVersion ? ` (was ${previousVersion})` : '';
          h.notice(
            'success',
            `${replaced ? 'Updated' : 'Installed'} the plugin ${plugin.id}${version}${was}.`,
            APPLY_HINT,
          );
          const shell = formatShellCommands(plugin);
          if (shell.length) h.notice('info', shell.join('\n'));
          const needs = await installNotice(plugin.id, h.pluginSettings.env);
          if (needs.length) h.notice('info', needs.join('\n'));
        },
        (e: Error) => h.notice('error', `Could not install ${source}: ${e.message}`),
      );
    },
    body,
  );
}

/**
 * `/plugins reload`: installed.json and every manifest are read again and their problems shown; when no
 * turn runs, the session reopens with them (skills, agents, prompt sections, hooks and MCP servers).
 */
async function reloadPlugins(h: CommandHost, manager: PluginManager): Promise<void> {
  const views = await manager.reload();
  const problem = manager.problem();
  if (problem) h.notice('error', problem);
  for (const v of views) {
    if (v.error)
      h.notice('warning', `The plugin ${v.id} cannot load: ${v.error}`, `/plugins info ${v.id} shows its diagnostics.`);
    else if (v.diagnostics.length)
      h.notice(
        'warning',
        `The plugin ${v.id} has ${v.diagnostics.length} diagnostic${v.diagnostics.length === 1 ? '' : 's'}.`,
        `/plugins info ${v.id} lists them.`,
      );
  }
  const enabled = views.filter((v) => v.enabled && !v.error).length;
  h.notice('info', `Read ${views.length} plugin${views.length === 1 ? '' : 's'} (${enabled} enabled).`);
  if (h.busy || h.compacting) h.notice('info', 'The session picks them up after /reload, once the agent is idle.');
  else await h.reload();
}
