// Workspace trust (docs/ui.md): whether the user trusts a folder, asked once per workspace on the first interactive
// launch, kept under the data root (trustFile.ts), never inside the folder. Trust covers the project MCP files, the
// files their servers are started with and Claude Code's project settings (their hooks) as they were when the user
// said yes: the entry keeps their digests, and a server or a settings file whose bytes differ is not used until the
// user approves it again (docs/sandbox.md, "Files that run later"; docs/mcp.md, "Workspace trust"; docs/hooks.md;
// mcpTrust.ts judges servers, mcpLaunch.ts finds their launch files).
import { join, resolve } from 'node:path';
import { DEFAULT_COMPAT, type CompatSettings } from './compat';
import { readProjectMcp, readProjectMcpServers } from './mcpConfig';
import { readRegularFile, sha256 } from './mcpLaunch';
import type { McpTrustSnapshot } from './mcpTrust';
import { projectRoot } from './paths';
import { readTrustFile, writeTrustFile, type TrustEntry } from './trustFile';

export { isCheckoutTrusted, isWorkspaceTrusted, trustFilePath, workspaceTrust, type TrustEntry } from './trustFile';

/** Claude Code's project settings, whose hooks run commands: `.claude/settings.json` and `settings.local.json`. */
export function projectHookFiles(workDir: string): string[] {
  const root = join(projectRoot(resolve(workDir)), '.claude');
  return [join(root, 'settings.json'), join(root, 'settings.local.json')];
}

/**
 * What trusting a folder lets Jarvis do there, in the words the trust question, `jarvis trust` and `--trust` show
 * (docs/ui.md "Workspace trust"). Everything else works the same in an untrusted folder.
 */
export const TRUST_ENABLES: readonly string[] = [
  'start the project MCP servers of .jarvis-code/mcp.json and .mcp.json, as those files are now ' +
    '(a later change is asked about again)',
  'start language servers for the files of this checkout (diagnostics after edits, the Lsp tool); they run the ' +
    "project's own tools, inside the sandbox where it runs",
  'read and write the project memory (.jarvis-code/memory.jsonl)',
  'run the hooks of its Claude Code project settings (.claude/settings.json, settings.local.json) with [compat] ' +
    'claude on, as those files are now (a later change is asked about again)',
];

/** SHA-256 of the file's bytes, or undefined when it is no regular file that can be read (missing, a FIFO…). */
export function fileDigest(path: string): string | undefined {
  const bytes = readRegularFile(path);
  return bytes && sha256(bytes);
}

/** Digests of the project's Claude Code settings files as they are now (one read each; absent ones left out). */
function projectHookDigests(workDir: string): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const file of projectHookFiles(workDir)) {
    const digest = fileDigest(file);
    if (digest !== undefined) digests[file] = digest;
  }
  return digests;
}

/**
 * Whether `file` (a project MCP or hook file of `workDir`) holds what the user trusted: the folder is trusted and the
 * digest of its bytes (`digest`, from the read the caller parsed; else one read here) is the recorded one. A file
 * that cannot be read, or has no record, is not approved.
 */
export function mcpFileApproved(home: string, workDir: string, file: string, digest = fileDigest(file)): boolean {
  const entry = readTrustFile(home).workspaces[resolve(workDir)];
  if (entry?.trusted !== true) return false;
  return digest !== undefined && entry.mcpFiles?.[resolve(file)] === digest;
}

/** What a yes records: the MCP snapshot and, when the question read them, the settings files whose hooks it showed. */
export interface TrustSnapshot extends McpTrustSnapshot {
  hookFiles?: Record<string, string>;
}

/**
 * Records the decision (atomically: a crash never leaves a half-written file). Trusting records `snapshot` — what
 * the user was shown (LoadedMcpServers.snapshot, and the settings files the question read) — or, for what it does
 * not hold, the project MCP files, launch files and settings files as they are now: their servers and hooks may
 * run until those bytes change.
 */
export function setWorkspaceTrust(
  home: string,
  workDir: string,
  trusted: boolean,
  now = new Date(),
  snapshot?: TrustSnapshot,
  compat: CompatSettings = DEFAULT_COMPAT,
): void {
  const file = readTrustFile(home);
  const entry: TrustEntry = { trusted, decidedAt: now.toISOString() };
  if (trusted) {
    const mcp = snapshot ?? readProjectMcp(workDir, compat).snapshot;
    entry.mcpFiles = { ...mcp.files, ...(snapshot?.hookFiles ?? projectHookDigests(workDir)) };
    entry.mcpLaunch = mcp.launch;
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
