// Where a rewind may put files back (docs/sessions.md, "Rewind"). The paths come from the journal's file history —
// input read back from disk — so each is checked before anything is read or written there: it must be a plain
// absolute path inside one of the workspace folders the rewind is given, and never inside a version-control folder
// (`.git`, `.hg`…, or any folder that is a git directory by its contents: a bare repository, the target of a `.git`
// file), where git or another tool would later run what it finds. The write itself goes below that workspace folder
// without following a link on the way (store/ownedFiles.ts).
import { lstatSync } from 'node:fs';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { pathBelow } from '../../store/ownedFiles';

/** Folders of version-control systems whose contents those tools run or obey. */
const VCS_CONTROL_DIRS = new Set(['.git', '.hg', '.svn', '.jj', '.sl', '.bzr', '_darcs', '.pijul']);

export type RestoreSpot = { root: string; rel: string } | { refused: string };

function isDir(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** A folder git would take for a repository's git directory: a HEAD file beside objects/ and refs/. */
function looksLikeGitDir(dir: string): boolean {
  return (
    lstatSync(join(dir, 'HEAD'), { throwIfNoEntry: false })?.isFile() === true &&
    isDir(join(dir, 'objects')) &&
    isDir(join(dir, 'refs'))
  );
}

/** Where `path` may be restored — the workspace folder holding it and the path below it — or why not. */
export function restoreSpot(path: unknown, roots: readonly string[]): RestoreSpot {
  if (typeof path !== 'string' || !isAbsolute(path) || normalize(path) !== path || path.includes('\0'))
    return { refused: 'its recorded path is not a plain absolute path' };
  const holding = roots
    .map((root) => ({ root, rel: pathBelow(root, path) }))
    .filter((r): r is { root: string; rel: string } => r.rel !== undefined)
    .sort((a, b) => b.root.length - a.root.length)[0];
  if (!holding)
    return {
      refused: `it is outside the workspace (${roots.join(', ')}); a rewind restores files only inside it (add a folder with --add-dir)`,
    };
  const steps = holding.rel.split(sep);
  if (steps.some((s) => VCS_CONTROL_DIRS.has(s.toLowerCase())))
    return { refused: 'it is inside a version-control folder (.git…), where a rewind never writes' };
  let dir = holding.root;
  for (const step of ['', ...steps]) {
    dir = step ? join(dir, step) : dir;
    // Nothing is read or written through a link on the way (or at the file itself): its target may be anywhere.
    if (step && lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink())
      return { refused: `${dir} is a symbolic link, which a rewind never follows` };
    if (dir !== path && looksLikeGitDir(dir))
      return { refused: `${dir} is a git directory (HEAD, objects, refs), where a rewind never writes` };
  }
  return holding;
}
