// Builds plugin folders for the plugin tests: a manifest plus files, laid out in a temporary folder
// (removed after each test with the per-test TMPDIR).
import { join } from 'node:path';
import { putFile, tempDir } from '../../helpers/files';

/** Writes `files` (path → text; objects are JSON) under a fresh folder and returns the folder. */
export function pluginFolder(files: Record<string, string | object>, dir = tempDir('jarvis-plugin-')): string {
  for (const [path, content] of Object.entries(files))
    putFile(join(dir, path), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return dir;
}

export const LOAD_OPTS = { home: '/tmp/jarvis-home', mcpDefaults: { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 } };
