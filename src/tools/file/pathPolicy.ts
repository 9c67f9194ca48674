// How the file tools turn a model-given path into the path they touch: a relative path is relative
// to cwd, `~` is the home folder. Paths are canonicalised (symlinks resolved, dangling ones too) so
// approval subjects, declared accesses and the stale guard all see the real file — a link inside the
// tree that points at ~/.ssh/id_rsa is reported as that. Whether a path outside the workspace may be
// touched is the approval policy's decision (docs/approvals.md), the same for `../x` and `/abs/x`.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { ToolContext } from '../defineTool';

/** A path argument the tools refuse; its message says what to send instead. */
export class PathRejectedError extends Error {}

/** Symlinks followed before a path is taken as it is written (the kernel's own limit is 40). */
const MAX_LINK_HOPS = 40;

/** The target of `path` when it is a symbolic link, absolute; undefined otherwise. */
function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? resolve(dirname(path), readlinkSync(path)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * realpath of the longest existing prefix, with the missing tail appended (for files not yet created).
 * A dangling symlink on the way is followed to where it points — writing through it would create its
 * target, so the target is the path that will be touched.
 */
export function canonicalPath(absPath: string, hops = 0): string {
  const missing: string[] = [];
  let current = absPath;
  for (;;) {
    try {
      const real = realpathSync.native(current);
      return missing.length ? join(real, ...missing.reverse()) : real;
    } catch {
      const target = hops < MAX_LINK_HOPS ? linkTarget(current) : undefined;
      if (target !== undefined) return canonicalPath(join(target, ...missing.reverse()), hops + 1);
      const parent = dirname(current);
      if (parent === current) return absPath;
      missing.push(basename(current));
      current = parent;
    }
  }
}

export function isWithin(child: string, parent: string): boolean {
  if (child === parent) return true;
  return child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** Resolves a tool's path argument to a canonical absolute path; throws PathRejectedError for an empty path or a NUL byte. */
export function resolveToolPath(ctx: Pick<ToolContext, 'resolve'>, path: string): string {
  if (path.trim() === '')
    throw new PathRejectedError(
      'path is empty: give a file path relative to the working directory, or an absolute path.',
    );
  if (path.includes('\0')) throw new PathRejectedError('path contains a NUL character.');
  return canonicalPath(ctx.resolve(path));
}

/** Formats paths for the model: relative to cwd when inside it, absolute otherwise. */
export function pathDisplayer(cwd: string): (absPath: string) => string {
  const root = canonicalPath(cwd);
  return (absPath) => {
    if (absPath === root) return '.';
    if (isWithin(absPath, root)) return relative(root, absPath);
    return absPath;
  };
}
