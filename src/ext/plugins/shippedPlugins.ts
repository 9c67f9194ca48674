// Where the plugins shipped inside the CLI package are: `dist/plugins/<id>/` beside the bundle (the code
// runs from dist/ or dist/chunks/). Kept apart from the rest of the plugin code because the start path
// asks it on every launch: a few file checks, nothing loaded.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Manifest locations, highest precedence first (docs/plugins.md "The manifest"). */
export const MANIFEST_FILES = ['jarvis.plugin.json', '.jarvis-plugin/plugin.json', '.kimi-plugin/plugin.json'] as const;

/** The shipped plugin folders (each with a manifest), sorted; empty when the package ships none. */
export function shippedPluginFolders(): string[] {
  for (const rel of ['./plugins/', '../plugins/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (!existsSync(dir)) continue;
    const folders = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && MANIFEST_FILES.some((m) => existsSync(join(dir, e.name, m))))
      .map((e) => join(dir, e.name));
    if (folders.length) return folders.sort();
  }
  return [];
}
