// The plugins of one launch (TUI, print mode, ACP): bundled plugins installed or updated first, then the
// enabled plugins loaded from their managed copies and gathered into contributions. Loaded through a
// dynamic import only when plugins exist, so a launch without plugins reads none of this code.
import type { McpTimeoutDefaults } from '../../store/mcpConfig';
import { ensureBundledPlugins, useShippedListings } from './bundledPlugins';
import { pluginContributions, type PluginContributions } from './contributions';
import { PluginManager } from './manager';
import { pluginNetwork } from './pluginSources';

export interface SessionPluginOptions {
  home: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  allowPrivateNetwork: boolean;
  mcpDefaults: McpTimeoutDefaults;
  /** Plugin folders shipped with the CLI (shippedPlugins.ts), installed or updated first. */
  bundled: string[];
}

export async function loadSessionPlugins(o: SessionPluginOptions): Promise<PluginContributions> {
  const manager = new PluginManager({
    home: o.home,
    cwd: o.cwd,
    env: o.env,
    network: pluginNetwork(o.env, o.allowPrivateNetwork),
    mcpDefaults: o.mcpDefaults,
  });
  const warnings = await ensureBundledPlugins(manager, o.bundled);
  const { plugins, problem } = await manager.loadEnabled();
  useShippedListings(plugins, o.bundled);
  const contributions = pluginContributions(plugins);
  contributions.warnings.unshift(...warnings, ...(problem ? [`${problem}; plugins are not loaded`] : []));
  // What depends on this session's environment (an unset `${VAR}` of an MCP server) is said now, not only by info.
  for (const { record, loaded } of plugins)
    contributions.warnings.push(...loaded.sessionWarnings.map((w) => `plugin ${record.id}: ${w}`));
  return contributions;
}
