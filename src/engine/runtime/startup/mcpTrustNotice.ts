// What a session says about project MCP files that changed since the folder was trusted (docs/mcp.md,
// "Workspace trust"): their servers are not started, and the user is told how to approve the new content.
import type { LoadedMcpServers } from '../../../store/mcpConfig';
import { displayPath } from '../../../store/paths';

export const APPROVE_HINT =
  'to approve it, run `jarvis` in this folder and accept the trust prompt that lists its servers';

/** One line per changed file, naming the file, its servers and how to approve it. */
export function changedMcpFileWarnings(mcp: Pick<LoadedMcpServers, 'changed' | 'changedFiles'>): string[] {
  return mcp.changedFiles.map((file) => {
    const names = mcp.changed.filter((s) => s.file === file).map((s) => s.name);
    return (
      `${displayPath(file)} changed since this workspace was trusted; its MCP servers were not started: ` +
      `${names.join(', ')} (${APPROVE_HINT})`
    );
  });
}
