// Official plugins shipped inside the CLI package (docs/plugins.md "Bundled plugins"): each is a plugin
// folder under `dist/plugins/<id>/`. At start-up one is installed from that folder when it has no
// install record yet, and reinstalled when the shipped version differs from the installed one. A
// plugin the user removed (record gone, managed copy still on disk) is left removed.
import { existsSync } from 'node:fs';
import { managedDir, readInstalled } from './installedStore';
import type { PluginManager } from './manager';
import { readManifest } from './manifest';

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
