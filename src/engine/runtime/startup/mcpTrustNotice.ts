// What a session says about project MCP files — or files their servers are started with — that changed since the
// folder was trusted (docs/mcp.md, "Workspace trust"): their servers are not started, and the user is told which
// file changed and how to approve the new content.
import type { LoadedMcpServers } from '../../../store/mcpConfig';
import { displayPath } from '../../../store/paths';

export const APPROVE_HINT =
  'to approve it, run `jarvis` in this folder and accept the trust prompt that lists its servers';

/** One line per changed file, naming the file, the servers it holds back and how to approve it. */
export function changedMcpFileWarnings(mcp: Pick<LoadedMcpServers, 'changes' | 'changed'>): string[] {
  return mcp.changes.map(({ file, servers }) => {
    const configures = mcp.changed.some((s) => s.file === file);
    const which = configures ? 'its MCP servers were' : 'the MCP servers started with it were';
    return (
      `${displayPath(file)} changed since this workspace was trusted; ${which} not started: ` +
      `${servers.join(', ')} (${APPROVE_HINT})`
    );
  });
}

/** The changed files holding back `server` (for `jarvis mcp list` and the doctor). */
export function changedFilesOf(mcp: Pick<LoadedMcpServers, 'changes'>, server: string): string[] {
  return mcp.changes.filter((c) => c.servers.includes(server)).map((c) => displayPath(c.file));
}
