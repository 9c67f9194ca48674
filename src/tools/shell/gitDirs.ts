// The git folders a command in a workspace writes to when it commits (docs/sandbox.md): the repository's `.git` when
// the workspace is a subfolder of it, and for a linked worktree (`.git` is a file naming its git dir) that git dir and
// the repository's common one. Read without running git, so planning a sandboxed command stays cheap.
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** How far up from a folder `.git` is looked for. */
const MAX_LEVELS = 64;

/** The git dirs of the repository holding `folder` (empty outside a repository or when `.git` cannot be read). */
export function gitDirsOf(folder: string): string[] {
  let dir = resolve(folder);
  for (let level = 0; level < MAX_LEVELS; level++) {
    const dotGit = join(dir, '.git');
    const info = lstatSync(dotGit, { throwIfNoEntry: false });
    if (info?.isDirectory()) return [realpathSync(dotGit)];
    if (info?.isFile()) return linkedGitDirs(dir, dotGit);
    const parent = dirname(dir);
    if (parent === dir) return [];
    dir = parent;
  }
  return [];
}

/** `.git` as a file (`gitdir: <path>`): the worktree's git dir and the common dir its `commondir` names. */
function linkedGitDirs(dir: string, dotGit: string): string[] {
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '');
  if (!match) return [];
  const gitDir = realOrUndefined(resolve(dir, match[1]));
  if (!gitDir) return [];
  const commonText = readText(join(gitDir, 'commondir'))?.trim();
  const common = commonText ? realOrUndefined(resolve(gitDir, commonText)) : undefined;
  return common && common !== gitDir ? [gitDir, common] : [gitDir];
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    // Absent or unreadable: no linked git dir is granted (the command then cannot commit, and says so).
    if (['ENOENT', 'EACCES', 'EISDIR', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw e;
  }
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
