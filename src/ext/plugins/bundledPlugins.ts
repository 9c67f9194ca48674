// Official plugins shipped inside the CLI package (docs/plugins.md "Bundled plugins"): each is a plugin
// folder under `dist/plugins/<id>/`. At start-up one is installed from that folder when it has no
// install record yet, and reinstalled when the shipped version differs from the installed one. A
// plugin the user removed (record gone, managed copy still on disk) is left removed.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { managedDir, readInstalled } from './installedStore';
import type { EnabledPlugin, PluginManager } from './manager';
import { readManifest } from './manifest';

/** Beside a bundled plugin's stdio server: its tool list, recorded from the server when the package was built. */
export const SHIPPED_LISTING_FILE = 'listing.json';

/**
 * Points the stdio servers of the bundled plugins, as shipped (official, the shipped version), at the tool list
 * that ships beside them (scripts/build.mjs writes `bin/listing.json`): a fresh home then offers their tools
 * without starting them (docs/mcp.md, "Lazy start"). A user-installed plugin never gets one.
 */
export function useShippedListings(plugins: readonly EnabledPlugin[], folders: readonly string[]): void {
  const shipped = new Map<string, string | undefined>();
  for (const folder of folders) {
    const read = readManifest(folder);
    if (read.ok) shipped.set(read.manifest.name, read.manifest.version);
  }
  for (const { record, loaded } of plugins) {
    if (record.tier !== 'official' || !shipped.has(record.id) || shipped.get(record.id) !== record.version) continue;
    for (const { config } of loaded.mcpServers) {
      if (config.transport !== 'stdio' || !config.command) continue;
      const listing = join(dirname(config.command), SHIPPED_LISTING_FILE);
      if (existsSync(listing)) config.shippedListing = listing;
    }
  }
}

/** Installs or updates the bundled plugins that need it; returns warnings (a failure never stops start-up). */
export async function ensureBundledPlugins(manager: PluginManager, folders: readonly string[]): Promise<string[]> {
  const warnings: string[] = [];
  for (const folder of folders) {
    const read = readManifest(folder);
    if (!read.ok) {
      warnings.push(`bundled plugin ${folder} was not installed: ${read.error}`);
      continue;
    }
    const { name, version } = read.manifest;
    const installed = readInstalled(manager.home);
    if (installed.problem) return [installed.problem];
    const record = installed.records.find((r) => r.id === name);
    if (record ? record.version === version : existsSync(managedDir(manager.home, name))) continue;
    try {
      await manager.install(folder, { tier: 'official', keepIf: (current) => current.version === version });
    } catch (e) {
      warnings.push(`bundled plugin ${name} was not installed: ${(e as Error).message}`);
    }
  }
  return warnings;
}
