// Paths a plugin manifest names (docs/plugins.md "Security"): each must be written `./…`, and after
// every symlink on the way is resolved it must still be inside the plugin's root. A path that escapes —
// `../x`, an absolute path, a symlink to `/etc` — is refused with a reason; the caller reports it as a
// diagnostic and the rest of the plugin still loads.
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

export type ContainedPath = { ok: true; path: string; kind: 'file' | 'dir' } | { ok: false; reason: string };

/** True when `path` (already real) is `root` or below it. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The plugin root as a real path (the managed copy itself may sit behind a symlinked home). */
export function realRoot(root: string): string {
  return realpathSync(root);
}

/**
 * Resolves a manifest path (`./skills`) inside `root` (a real path). `requireDotSlash`: the manifest
 * field must start with `./` (SPEC §9.4); internal callers that already hold a relative path pass false.
 */
export function resolveInside(root: string, value: string, requireDotSlash = true): ContainedPath {
  if (typeof value !== 'string' || !value.trim()) return { ok: false, reason: 'is empty' };
  if (requireDotSlash && !value.startsWith('./'))
    return { ok: false, reason: `must start with "./" (a path inside the plugin folder), got "${value}"` };
  if (isAbsolute(value))
    return { ok: false, reason: `is absolute ("${value}"); only paths inside the plugin folder are allowed` };
  const lexical = resolve(root, value);
  if (!isInside(root, lexical)) return { ok: false, reason: `"${value}" points outside the plugin folder` };
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      ok: false,
      reason:
        code === 'ENOENT' ? `"${value}" does not exist` : `"${value}" cannot be read (${code ?? (e as Error).message})`,
    };
  }
  if (!isInside(root, real))
    return { ok: false, reason: `"${value}" resolves (through a symlink) to ${real}, outside the plugin folder` };
  const st = statSync(real);
  return { ok: true, path: real, kind: st.isDirectory() ? 'dir' : 'file' };
}

export interface ContainedFile {
  /** Real path of the file. */
  path: string;
  /** Path relative to the folder searched, `/`-separated. */
  rel: string;
}

const MAX_DEPTH = 8;

/**
 * Every file under `dir` whose name matches `pattern`, recursively, in name order. Symlinked files and
 * folders are followed only when they resolve inside `root`; the others are reported through `refused`.
 */
export function containedFiles(
  root: string,
  dir: string,
  pattern: RegExp,
  refused: (reason: string) => void,
): ContainedFile[] {
  const out: ContainedFile[] = [];
  const walk = (abs: string, rel: string, depth: number) => {
    if (depth > MAX_DEPTH) return;
    let names: string[];
    try {
      names = readdirSync(abs).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(abs, name);
      const relPath = rel ? `${rel}/${name}` : name;
      let real = path;
      try {
        if (lstatSync(path).isSymbolicLink()) {
          real = realpathSync(path);
          if (!isInside(root, real)) {
            refused(`${relative(root, path)} is a symlink to ${real}, outside the plugin folder (ignored)`);
            continue;
          }
        }
        const st = statSync(real);
        if (st.isDirectory()) walk(real, relPath, depth + 1);
        else if (st.isFile() && pattern.test(name)) out.push({ path: real, rel: relPath });
      } catch {
        // a dangling symlink or an entry removed while reading: nothing to load
      }
    }
  };
  walk(dir, '', 0);
  return out;
}
