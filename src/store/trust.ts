// Workspace trust (docs/ui.md): whether the user trusts a folder, asked once per workspace on the first interactive
// launch, kept under the data root (trustFile.ts), never inside the folder. Trust covers the project MCP files and
// the files their servers are started with as they were when the user said yes: the entry keeps their digests,
// and a server whose file or launch file differs is not started until the user approves it again (docs/sandbox.md,
// "Files that run later"; docs/mcp.md, "Workspace trust"; mcpTrust.ts judges, mcpLaunch.ts finds the files).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_COMPAT, type CompatSettings } from './compat';
import { projectMcpSnapshot, readProjectMcpServers } from './mcpConfig';
import { sha256 } from './mcpLaunch';
import type { McpTrustSnapshot } from './mcpTrust';
import { projectRoot } from './paths';
import { readTrustFile, writeTrustFile, type TrustEntry } from './trustFile';

export { isWorkspaceTrusted, trustFilePath, workspaceTrust, type TrustEntry } from './trustFile';

/** The project MCP files a folder may have: `.jarvis-code/mcp.json` there and `.mcp.json` at its repository root. */
export function projectMcpFiles(workDir: string): string[] {
  return [join(resolve(workDir), '.jarvis-code', 'mcp.json'), join(projectRoot(resolve(workDir)), '.mcp.json')];
}

/** SHA-256 of the file's bytes, or undefined when it cannot be read (missing, a folder, no permission). */
export function fileDigest(path: string): string | undefined {
  try {
    return sha256(readFileSync(path));
  } catch {
    return undefined;
  }
}

/**
 * Whether `file` (a project MCP file of `workDir`) holds what the user trusted: the folder is trusted and the
 * digest of its bytes (`digest`, from the read the caller parsed; else one read here) is the recorded one.
 */
export function mcpFileApproved(home: string, workDir: string, file: string, digest = fileDigest(file)): boolean {
  const entry = readTrustFile(home).workspaces[resolve(workDir)];
  if (entry?.trusted !== true) return false;
  return digest !== undefined && entry.mcpFiles?.[resolve(file)] === digest;
}

/**
 * Records the decision (atomically: a crash never leaves a half-written file). Trusting records `snapshot` — what
 * the user was shown (LoadedMcpServers.snapshot) — or, without one, the project MCP files and launch files as they
 * are now: their servers may start until those bytes change.
 */
export function setWorkspaceTrust(
  home: string,
  workDir: string,
  trusted: boolean,
  now = new Date(),
  snapshot?: McpTrustSnapshot,
  compat: CompatSettings = DEFAULT_COMPAT,
): void {
  const file = readTrustFile(home);
  const entry: TrustEntry = { trusted, decidedAt: now.toISOString() };
  if (trusted) {
    const recorded = snapshot ?? projectMcpSnapshot(workDir, compat);
    entry.mcpFiles = recorded.files;
    entry.mcpLaunch = recorded.launch;
  }
  file.workspaces[resolve(workDir)] = entry;
  writeTrustFile(home, file);
}

/**
 * After `jarvis mcp add|remove --scope project` wrote `path`: records the digest of the bytes it wrote
 * (`writtenDigest`), but only when its content was approved before the write (`wasApproved`), so a change nobody
 * approved is never approved by the way. The
 * launch files of the server the user just added (`added`) are recorded as they are now; every other launch file
 * keeps the digest it had (a launch file changed meanwhile stays unapproved).
 */
export function recordMcpFileWrite(
  home: string,
  workDir: string,
  path: string,
  wasApproved: boolean,
  writtenDigest: string,
  added?: string,
): void {
  if (!wasApproved) return;
  const file = readTrustFile(home);
  const entry = file.workspaces[resolve(workDir)];
  if (entry?.trusted !== true) return;
  entry.mcpFiles = { ...entry.mcpFiles, [resolve(path)]: writtenDigest };
  const addedServer = readProjectMcpServers(workDir).find((s) => s.name === added && s.file === resolve(path));
  for (const f of addedServer?.launch?.files ?? []) entry.mcpLaunch = { ...entry.mcpLaunch, [f.path]: f.digest };
  writeTrustFile(home, file);
}
