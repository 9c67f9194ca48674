// What `/plugins` shows about a plugin (docs/plugins.md): the details and diagnostics of an installed one
// (`/plugins info`, `I` in the manager), a marketplace entry, the `/plugins list` table, and whether the
// marketplace has a newer version of an installed plugin. Plain text; the callers add colour.
import semverLt from 'semver/functions/lt';
import semverValid from 'semver/functions/valid';
import type { Marketplace, MarketplaceEntry } from '../../ext/plugins/marketplace';
import type { PluginView } from '../../ext/plugins/manager';
import { displayPath } from '../../store/paths';

/** Said after every change: plugins load when a session opens (docs/plugins.md). */
export const APPLY_HINT = 'Changes apply after /reload or /new.';

/** The marketplace entry that updates `plugin`, when its version is newer than the installed one. */
export function updateFor(plugin: Pick<PluginView, 'id' | 'version'>, catalog: Marketplace | undefined): MarketplaceEntry | undefined {
  const entry = catalog?.entries.find((e) => e.id === plugin.id);
  const installed = plugin.version ? semverValid(plugin.version) : null;
  if (!entry?.version || !installed) return undefined;
  return semverLt(installed, entry.version) ? entry : undefined;
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
  if (!view.error && view.diagnostics.length) parts.push(`${view.diagnostics.length} diagnostic${view.diagnostics.length === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

export function pluginDetailLines(view: PluginView, update?: MarketplaceEntry): string[] {
  const lines = [
    `${view.displayName}${view.version ? ` ${view.version}` : ''}  (${view.id})`,
    ...(view.description ? [view.description] : []),
    ...(view.interface.longDescription && view.interface.longDescription !== view.description ? [view.interface.longDescription] : []),
    '',
    `State        ${view.error ? 'cannot load' : view.enabled ? 'enabled' : 'disabled'}`,
    ...(update ? [`Update       ${update.version} is available: Enter on the Installed tab, or /plugins install ${update.source}`] : []),
    `Source       ${view.source}${view.ref ? ` (${view.ref})` : ''}`,
    `Tier         ${view.tier ?? 'third-party'}`,
    `Runs from    ${displayPath(view.root)}${view.manifestFile ? ` (${view.manifestFile})` : ''}`,
  ];
  const meta: Array<[string, string | undefined]> = [
    ['Author', view.interface.developerName ?? view.author],
    ['Homepage', view.interface.websiteURL ?? view.homepage],
    ['License', view.license],
    ['Keywords', view.keywords.join(', ') || undefined],
  ];
  for (const [label, value] of meta) if (value) lines.push(`${label.padEnd(13)}${value}`);
  if (view.error) lines.push('', `Error: ${view.error}`);
  else {
    lines.push(
      '',
      `Skills       ${view.skills.join(', ') || '-'}`,
      `Agents       ${view.agents.join(', ') || '-'}`,
      `Commands     ${view.commands.map((c) => `/${c.name}`).join(', ') || '-'}`,
      `Hooks        ${view.hooks || '-'}`,
      `MCP servers  ${view.mcpServers.map((s) => `${s.name} (${s.enabled ? 'on' : 'off'})`).join(', ') || '-'}`,
    );
  }
  lines.push('', view.diagnostics.length ? 'Diagnostics' : 'Diagnostics  none');
  for (const d of view.diagnostics) lines.push(`  - ${d}`);
  return lines;
}

export function entryDetailLines(entry: MarketplaceEntry, installed: PluginView | undefined, catalog: Marketplace): string[] {
  const status = !installed ? 'not installed' : updateFor(installed, catalog) ? `installed ${installed.version}, update ${entry.version} available` : `installed${installed.version ? ` ${installed.version}` : ''}`;
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
  if (!views.length) return ['No plugins are installed.', '', 'Install one with /plugins install <path-or-url>, or browse with /plugins.'];
  return views.map((v) => {
    const state = pluginState(v, updateFor(v, catalog));
    return `${v.enabled && !v.error ? '●' : '○'} ${v.id}${v.version ? ` ${v.version}` : ''}${v.displayName !== v.id ? ` — ${v.displayName}` : ''}${state ? `  (${state})` : ''}`;
  });
}
