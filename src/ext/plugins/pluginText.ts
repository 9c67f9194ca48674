// How plugins read as text: `jarvis plugin list|info` and `/plugins list|info` print the same lines.
import type { PluginView } from './manager';

/** One line per plugin: id, version, state, what it brings; broken ones say so. */
export function formatPluginList(views: readonly PluginView[]): string {
  if (!views.length) return 'No plugins are installed. Install one with: jarvis plugin install <path-or-url>';
  return views
    .map((v) => {
      const state = v.error ? 'broken' : v.enabled ? 'enabled' : 'disabled';
      const parts = [
        v.skills.length && `${v.skills.length} skill${v.skills.length === 1 ? '' : 's'}`,
        v.commands.length && `${v.commands.length} command${v.commands.length === 1 ? '' : 's'}`,
        v.agents.length && `${v.agents.length} agent${v.agents.length === 1 ? '' : 's'}`,
        v.mcpServers.length && `${v.mcpServers.length} MCP server${v.mcpServers.length === 1 ? '' : 's'}`,
        v.hooks && `${v.hooks} hook${v.hooks === 1 ? '' : 's'}`,
      ].filter(Boolean);
      const notes = v.error
        ? ` — ${v.error}`
        : v.diagnostics.length
          ? ` — ${v.diagnostics.length} diagnostic${v.diagnostics.length === 1 ? '' : 's'} (jarvis plugin info ${v.id})`
          : '';
      return `${v.id}${v.version ? ` ${v.version}` : ''}  ${state}${parts.length ? `  (${parts.join(', ')})` : ''}${notes}`;
    })
    .join('\n');
}

/**
 * Information, not a warning: the shell commands each of the plugin's commands runs on this computer before
 * its prompt is sent (its `` !`cmd` `` lines, docs/plugins.md), so whoever decides to trust it can read them.
 */
export function formatShellCommands(v: Pick<PluginView, 'commands'>): string[] {
  const running = v.commands.filter((c) => c.runs.length > 0);
  if (!running.length) return [];
  return [
    'Shell commands its commands run before sending their prompt (their !`cmd` lines):',
    ...running.flatMap((c) => [`  /${c.name}:`, ...c.runs.map((r) => `    ${r}`)]),
  ];
}

/** Everything about one plugin, diagnostics last. */
export function formatPluginInfo(v: PluginView): string {
  const lines = [
    `${v.displayName} (${v.id})${v.version ? ` ${v.version}` : ''} — ${v.error ? 'broken' : v.enabled ? 'enabled' : 'disabled'}`,
  ];
  const add = (label: string, value: string | undefined) => value && lines.push(`${label}: ${value}`);
  add('Description', v.interface.longDescription ?? v.description);
  add('Developer', v.interface.developerName ?? v.author);
  add('Website', v.interface.websiteURL ?? v.homepage);
  add('License', v.license);
  add('Keywords', v.keywords.join(', ') || undefined);
  add('Source', `${v.source}${v.ref ? ` @ ${v.ref}` : ''} (${v.sourceKind}${v.tier ? `, ${v.tier}` : ''})`);
  add('Runs from', v.root);
  add('Manifest', v.manifestFile);
  if (v.error) lines.push(`Error: ${v.error}`);
  add('Skills', v.skills.join(', ') || undefined);
  add('Agents', v.agents.join(', ') || undefined);
  if (v.commands.length) lines.push('Commands:', ...v.commands.map((c) => `  /${c.name} — ${c.description}`));
  if (v.mcpServers.length)
    lines.push(
      'MCP servers:',
      ...v.mcpServers.map(
        (s) =>
          `  ${s.name}  ${s.enabled ? 'on' : 'off'}  ${s.target}${s.runsAs ? `  (tools mcp__${s.runsAs}__*)` : ''}`,
      ),
    );
  lines.push(...formatShellCommands(v));
  if (v.hooks) lines.push(`Hooks: ${v.hooks}`);
  lines.push(v.diagnostics.length ? 'Diagnostics:' : 'Diagnostics: none', ...v.diagnostics.map((d) => `  - ${d}`));
  return lines.join('\n');
}
