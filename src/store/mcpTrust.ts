// Which project MCP servers a trusted folder may start (docs/mcp.md, "Workspace trust"): those whose mcp.json bytes
// and launch files (mcpLaunch.ts) are exactly the ones the user approved. Everything is judged from the one read
// of each file that the servers were parsed from (or, for a launch file, its one read when the servers were
// loaded); a server whose file or launch file differs, is new, or cannot be read is held back, and the files that
// differ are named.
import type { McpServerConfig } from './mcpConfig';
import { digestFiles, launchPaths } from './mcpLaunch';
import type { TrustEntry } from './trustFile';

/** What a yes records: each project MCP file's digest and each launch file's, as they were read. */
export interface McpTrustSnapshot {
  files: Record<string, string>;
  launch: Record<string, string>;
}

/** A file that differs from what was approved, and the servers it holds back. */
export interface McpChange {
  file: string;
  servers: string[];
}

/**
 * Project stdio servers with their launch files digested (one read each), relative to the workspace `roots`. A
 * launch file that cannot be read leaves `launch.unreadable` set: such a server is never approved.
 */
export function withLaunchFiles(
  servers: readonly McpServerConfig[],
  roots: readonly string[],
  env: NodeJS.ProcessEnv,
  projectDir: string,
): McpServerConfig[] {
  return servers.map((s) => {
    if (s.transport !== 'stdio') return s;
    const spec = { command: s.command, args: s.args, cwd: s.cwd ?? projectDir, path: s.env.PATH ?? env.PATH };
    const paths = launchPaths(spec, roots);
    const files = digestFiles(paths);
    return { ...s, launch: files ? { roots: [...roots], files } : { roots: [...roots], files: [], unreadable: paths } };
  });
}

/**
 * The files of `server` that differ from what `entry` approved (empty: approved). A server of one of `ownFiles` (the
 * user's own files, out of every sandbox's reach: `~/.claude.json`) needs no digest of that file, only of its
 * launch files.
 */
function differences(entry: TrustEntry | undefined, server: McpServerConfig, ownFiles: readonly string[]): string[] {
  const out: string[] = [];
  const approvedFile = ownFiles.includes(server.file)
    ? entry?.trusted === true
    : server.fileDigest !== undefined && entry?.mcpFiles?.[server.file] === server.fileDigest;
  if (!approvedFile) out.push(server.file);
  for (const path of server.launch?.unreadable ?? []) out.push(path);
  for (const f of server.launch?.files ?? []) if (entry?.mcpLaunch?.[f.path] !== f.digest) out.push(f.path);
  return out;
}

export function judgeProjectServers(
  entry: TrustEntry | undefined,
  servers: readonly McpServerConfig[],
  ownFiles: readonly string[] = [],
): { approved: McpServerConfig[]; changed: McpServerConfig[]; changes: McpChange[] } {
  const approved: McpServerConfig[] = [];
  const changed: McpServerConfig[] = [];
  const byFile = new Map<string, string[]>();
  for (const s of servers) {
    const files = differences(entry, s, ownFiles);
    if (!files.length) {
      approved.push(s);
      continue;
    }
    changed.push(s);
    for (const f of files) byFile.set(f, [...(byFile.get(f) ?? []), s.name]);
  }
  return { approved, changed, changes: [...byFile].map(([file, names]) => ({ file, servers: names })) };
}

/** What trusting these servers records (their files as read, and the digests of the project files read). */
export function snapshotOf(
  servers: readonly McpServerConfig[],
  fileDigests: Readonly<Record<string, string>>,
): McpTrustSnapshot {
  const launch: Record<string, string> = {};
  for (const s of servers) for (const f of s.launch?.files ?? []) launch[f.path] = f.digest;
  return { files: { ...fileDigests }, launch };
}
