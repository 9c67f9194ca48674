// Where the plugins installed at start-up are: `dist/plugins/<id>/` beside the bundle (the code runs from
// dist/ or dist/chunks/). Only the ids below are installed that way (seed 003: Jarvis Documents ships in
// the package); the other official plugins built there are installed on demand from the marketplace.
// Kept apart from the rest of the plugin code because the start path asks it on every launch: a few
// file checks, nothing loaded.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Manifest locations, highest precedence first (docs/plugins.md "The manifest"). */
export const MANIFEST_FILES = [
  'jarvis.plugin.json',
  '.jarvis-plugin/plugin.json',
  'kimi.plugin.json',
  '.kimi-plugin/plugin.json',
  '.claude-plugin/plugin.json',
] as const;

/** The manifest Claude Code reads; its plugins have default folders and hook/MCP files (claudePlugin.ts). */
export const CLAUDE_MANIFEST = '.claude-plugin/plugin.json';

export const INSTALLED_AT_START = ['jarvis-documents'];

/** The folders of the plugins installed at start-up that this package ships (each with a manifest). */
export function shippedPluginFolders(): string[] {
  for (const rel of ['./plugins/', '../plugins/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (!existsSync(dir)) continue;
    const folders = readdirSync(dir, { withFileTypes: true })
      .filter(
        (e) =>
          e.isDirectory() &&
          INSTALLED_AT_START.includes(e.name) &&
          MANIFEST_FILES.some((m) => existsSync(join(dir, e.name, m))),
      )
      .map((e) => join(dir, e.name));
    if (folders.length) return folders.sort();
  }
  return [];
}
