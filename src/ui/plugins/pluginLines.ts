// What `/plugins` shows about a plugin (docs/plugins.md): the details and diagnostics of an installed one
// (`/plugins info`, `I` in the manager; the same text as `jarvis plugin info`), a marketplace entry, the `/plugins list` table, and whether the
// marketplace has a newer version of an installed plugin. Plain text; the callers add colour.
import { newerVersion, type Marketplace, type MarketplaceEntry } from '../../ext/plugins/marketplace';
import type { PluginView } from '../../ext/plugins/manager';
import { formatPluginInfo } from '../../ext/plugins/pluginText';

/** Said after every change: plugins load when a session opens (docs/plugins.md). */
export const APPLY_HINT = 'Changes apply after /reload or /new.';

/** The marketplace entry that updates `plugin`, when its version is newer than the installed one. */
export function updateFor(
  plugin: Pick<PluginView, 'id' | 'version'>,
  catalog: Marketplace | undefined,
): MarketplaceEntry | undefined {
  const entry = catalog?.entries.find((e) => e.id === plugin.id);
  return entry && newerVersion(plugin.version, entry) ? entry : undefined;
}

/** An install that is not from the default catalog's official tier asks first (SPEC §9.4). */
export function needsConfirmation(entry: MarketplaceEntry | undefined, catalog: Marketplace | undefined): boolean {
  return !(entry?.tier === 'official' && catalog?.trusted);
}

/** The short state of an installed plugin: disabled, broken, update available. */
export function pluginState(view: PluginView, update?: MarketplaceEntry): string {
  const parts: string[] = [];
  if (view.error) parts.push('cannot load');
  else if (!view.enabled) parts.push('disabled');
  if (update) parts.push(`update ${update.version} available`);
  if (!view.error && view.diagnostics.length)
    parts.push(`${view.diagnostics.length} diagnostic${view.diagnostics.length === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

/** `/plugins info` and `I`: the shell's `jarvis plugin info` text, after the update the marketplace offers. */
export function pluginDetailLines(view: PluginView, update?: MarketplaceEntry): string[] {
  const offer = update
    ? [`Update ${update.version} is available: Enter on the Installed tab of /plugins installs it.`, '']
    : [];
  return [...offer, ...formatPluginInfo(view).split('\n')];
}

export function entryDetailLines(
  entry: MarketplaceEntry,
  installed: PluginView | undefined,
  catalog: Marketplace,
): string[] {
  const status = !installed
    ? 'not installed'
    : updateFor(installed, catalog)
      ? `installed ${installed.version}, update ${entry.version} available`
      : `installed${installed.version ? ` ${installed.version}` : ''}`;
  return [
    `${entry.displayName}${entry.version ? ` ${entry.version}` : ''}  (${entry.id})`,
    ...(entry.description ? [entry.description] : []),
    '',
    `Tier         ${entry.tier}`,
    `Status       ${status}`,
    `Source       ${entry.source}`,
    ...(entry.homepage ? [`Homepage     ${entry.homepage}`] : []),
    ...(entry.keywords?.length ? [`Keywords     ${entry.keywords.join(', ')}`] : []),
    `Marketplace  ${catalog.location}`,
  ];
}

/** `/plugins list`: one line per installed plugin. */
export function pluginListLines(views: readonly PluginView[], catalog: Marketplace | undefined): string[] {
  if (!views.length)
    return [
      'No plugins are installed.',
      '',
      'Install one with /plugins install <path-or-url>, or browse with /plugins.',
    ];
  return views.map((v) => {
    const state = pluginState(v, updateFor(v, catalog));
    return `${v.enabled && !v.error ? '●' : '○'} ${v.id}${v.version ? ` ${v.version}` : ''}${v.displayName !== v.id ? ` — ${v.displayName}` : ''}${state ? `  (${state})` : ''}`;
  });
}
