// How the file tools turn a model-given path into the path they touch. The rule (docs/tools.md): a
// relative path is relative to cwd; anything outside cwd must be given as an absolute path. Paths
// are canonicalised (symlinks resolved) so approval subjects, declared accesses and the stale guard
// all see the real file — a link inside the tree that points at ~/.ssh/id_rsa is reported as that.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { ToolContext } from '../defineTool';

/** A path argument the tools refuse; its message says what to send instead. */
export class PathRejectedError extends Error {}

/** realpath of the longest existing prefix, with the missing tail appended (for files not yet created). */
export function canonicalPath(absPath: string): string {
  const missing: string[] = [];
  let current = absPath;
  for (;;) {
    try {
      const real = realpathSync.native(current);
      return missing.length ? join(real, ...missing.reverse()) : real;
    } catch {
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

function isExplicitlyAbsolute(path: string): boolean {
  return isAbsolute(path) || path === '~' || path.startsWith('~/');
}

/**
 * Resolves a tool's path argument to a canonical absolute path. Throws PathRejectedError when a
 * relative path leads outside cwd (by `..` or through a symlink): the model must name such files
 * absolutely, so the approval subject and the path it asked for say the same thing.
 */
export function resolveToolPath(ctx: Pick<ToolContext, 'cwd' | 'resolve'>, path: string): string {
  if (path.trim() === '') throw new PathRejectedError('path is empty: give a file path relative to the working directory, or an absolute path.');
  if (path.includes('\0')) throw new PathRejectedError('path contains a NUL character.');
  const lexical = ctx.resolve(path);
  const real = canonicalPath(lexical);
  if (isExplicitlyAbsolute(path)) return real;
  const root = canonicalPath(ctx.cwd);
  if (!isWithin(real, root)) {
    const how = isWithin(lexical, ctx.cwd) ? 'through a symbolic link' : 'with ".."';
    throw new PathRejectedError(
      `"${path}" is relative but leads outside the working directory ${root} (${how}) to ${real}. ` +
        `Paths outside the working directory must be absolute: call again with "${real}".`,
    );
  }
  return real;
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
