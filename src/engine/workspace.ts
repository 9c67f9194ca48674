// The workspace: the folders a session's tools work in (docs/approvals.md "Outside the workspace") —
// the working folder, the folders added with --add-dir, and the session's own folder (plan files,
// saved tool outputs). Roots are canonical (symlinks resolved), as the file tools report the paths
// they touch, so `../x`, `/abs/x` and a link pointing out of the tree all get the same answer.
import type { ToolAccess } from '../tools/defineTool';
import { canonicalPath, isWithin } from '../tools/file/pathPolicy';

export function workspaceRoots(parts: { cwd: string; additionalDirs?: readonly string[]; sessionDir?: string }): string[] {
  const roots = [parts.cwd, ...(parts.additionalDirs ?? []), ...(parts.sessionDir ? [parts.sessionDir] : [])].map((p) => canonicalPath(p));
  return [...new Set(roots)];
}

/** The first file or folder a call touches outside every root; commands (`exec`) are not paths. */
export function firstOutsideWorkspace(accesses: readonly ToolAccess[], roots: readonly string[]): string | undefined {
  for (const access of accesses) {
    if (access.kind === 'exec') continue;
    if (!roots.some((root) => isWithin(access.path, root))) return access.path;
  }
  return undefined;
}
