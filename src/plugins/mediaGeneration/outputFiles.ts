// Where a generated file is saved: inside the session's working directory (JARVIS_PROJECT_DIR, which
// the plugin loader gives its servers; they run in the plugin's own folder), never outside it — a relative `path` is taken from there, `..` or a symbolic link that
// leads out is refused. Files are written whole (temporary name, then rename).
import { existsSync, mkdirSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';

export class OutputPathError extends Error {}

/** The session's working directory: JARVIS_PROJECT_DIR, else the folder the server was started in. */
export function workingDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return env.JARVIS_PROJECT_DIR?.trim() || process.cwd();
}

function insideRoot(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The real path of the nearest folder of `path` that exists (symbolic links resolved). */
function nearestExisting(path: string): string {
  let dir = dirname(path);
  while (!existsSync(dir)) dir = dirname(dir);
  return realpathSync(dir);
}

/**
 * The absolute file to write: `requested` (relative to `root`) or `defaultDir/<stamp>.<ext>`; an
 * extension is added when the name has none. Throws OutputPathError for a place outside `root`.
 */
export function outputPath(
  root: string,
  requested: string | undefined,
  defaultDir: string,
  stem: string,
  extension: string,
): string {
  const realRoot = realpathSync(root);
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  let path = requested?.trim() ? resolve(realRoot, requested.trim()) : join(realRoot, defaultDir, `${stem}-${stamp}`);
  if (!extname(path)) path += `.${extension}`;
  // A default name never replaces an earlier file (two requests in the same second).
  if (!requested?.trim())
    for (let i = 2; existsSync(path); i++) path = join(realRoot, defaultDir, `${stem}-${stamp}-${i}.${extension}`);
  if (requested?.includes('\0')) throw new OutputPathError('path must not contain NUL characters.');
  if (!insideRoot(realRoot, path) || !insideRoot(realRoot, join(nearestExisting(path), '_'))) {
    throw new OutputPathError(
      `path "${requested}" is outside the working directory ${realRoot}; give a path inside it.`,
    );
  }
  return path;
}

/** `base.png` → `base-2.png`, … for the second and later files of one request. */
export function numbered(path: string, index: number): string {
  if (index === 0) return path;
  const ext = extname(path);
  return `${path.slice(0, path.length - ext.length)}-${index + 1}${ext}`;
}

export function writeWhole(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, bytes);
  renameSync(temp, path);
}
