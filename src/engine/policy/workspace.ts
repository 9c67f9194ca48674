// The workspace: the folders a session's tools work in (docs/approvals.md "Sensitive files and the
// workspace") — the working folder, the folders added with --add-dir, and the session's scratch folder
// (plan files, saved tool outputs; never the rest of the session folder, where the journal lives: docs/sessions.md,
// "The scratch folder") — plus folders the tools may only read: the folders of the loaded
// skills (their instructions point at files beside them). Roots are canonical (symlinks resolved), as
// the file tools report the paths they touch, so `../x`, `/abs/x` and a link pointing out of the tree
// all get the same answer.
import type { ToolAccess } from '../../tools/defineTool';
import { canonicalPath, isWithin } from '../../tools/file/pathPolicy';

export interface Workspace {
  /** Folders the tools may read and write. */
  roots: readonly string[];
  /** Folders the tools may only read. */
  readOnly: readonly string[];
  /**
   * Files only their own tools write (Tower mode's `.tower/`, docs/tower.md): the reason any other
   * tool's write there is refused, or undefined for a path that is not guarded.
   */
  guardedWrite?: (path: string) => string | undefined;
}

function canonicalSet(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => canonicalPath(p)))];
}

export function workspaceOf(parts: {
  cwd: string;
  additionalDirs?: readonly string[];
  /** The session's scratch folder (plan files, saved outputs); never the session folder itself. */
  scratchDir?: string;
  readOnly?: readonly string[];
  guardedWrite?: (path: string) => string | undefined;
}): Workspace {
  const roots = canonicalSet([
    parts.cwd,
    ...(parts.additionalDirs ?? []),
    ...(parts.scratchDir ? [parts.scratchDir] : []),
  ]);
  const readOnly = canonicalSet(parts.readOnly ?? []).filter((dir) => !roots.some((root) => isWithin(dir, root)));
  return { roots, readOnly, ...(parts.guardedWrite ? { guardedWrite: parts.guardedWrite } : {}) };
}

/** The first file or folder a call touches outside the workspace (a write into a read-only folder counts); commands (`exec`) are not paths. */
export function firstOutsideWorkspace(accesses: readonly ToolAccess[], workspace: Workspace): string | undefined {
  for (const access of accesses) {
    if (access.kind === 'exec') continue;
    const allowed = access.kind === 'write' ? workspace.roots : [...workspace.roots, ...workspace.readOnly];
    if (!allowed.some((root) => isWithin(access.path, root))) return access.path;
  }
  return undefined;
}
