// Workspace trust (docs/ui.md): whether the user trusts a folder, asked once per workspace on the
// first interactive launch. Kept in one small JSON file under the data root so that a folder's
// trust never depends on anything inside the folder itself (a repository cannot trust itself).
// Trust covers the project MCP files as they were when the user said yes: each entry keeps a digest of
// them, and a file whose bytes differ is not started until the user approves it again (docs/sandbox.md,
// "Files that run later"; docs/mcp.md, "Workspace trust").
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, renameSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { projectRoot } from './paths';
import { mkdirPrivateSync, writePrivateFileSync } from './privateFiles';

export interface TrustEntry {
  trusted: boolean;
  decidedAt: string;
  /**
   * SHA-256 of each project MCP file that existed when the folder was trusted, by absolute path. Entries written
   * before digests existed have none: their files count as changed (asked again; never started in print mode).
   */
  mcpFiles?: Record<string, string>;
}

interface TrustFile {
  version: 1;
  workspaces: Record<string, TrustEntry>;
}

export function trustFilePath(home: string): string {
  return join(home, 'trusted_workspaces.json');
}

function readTrustFile(home: string): TrustFile {
  try {
    const parsed = JSON.parse(readFileSync(trustFilePath(home), 'utf8')) as Partial<TrustFile>;
    if (parsed && typeof parsed.workspaces === 'object' && parsed.workspaces)
      return { version: 1, workspaces: parsed.workspaces };
  } catch {
    // missing or unreadable: nothing has been decided yet, so the prompt asks again
  }
  return { version: 1, workspaces: {} };
}

function writeTrustFile(home: string, file: TrustFile): void {
  const path = trustFilePath(home);
  mkdirPrivateSync(dirname(path));
  const tmp = `${path}.${process.pid}.tmp`;
  writePrivateFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`);
  renameSync(tmp, path);
}

/** The stored decision for this folder, or undefined when the user was never asked. */
export function workspaceTrust(home: string, workDir: string): TrustEntry | undefined {
  return readTrustFile(home).workspaces[resolve(workDir)];
}

export function isWorkspaceTrusted(home: string, workDir: string): boolean {
  return workspaceTrust(home, workDir)?.trusted === true;
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
];

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const within = (path: string, folder: string) =>
  path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

/** Whether a folder strictly below `top`, at or above `dir`, holds its own `.git`: a checkout of its own. */
function nestedCheckout(dir: string, top: string): boolean {
  for (let d = dir; d !== top && within(d, top); d = dirname(d)) if (existsSync(join(d, '.git'))) return true;
  return false;
}

/**
 * Whether the checkout holding `folder` is trusted (docs/lsp.md "Trust"): the nearest decision recorded for `folder`
 * or a folder above it decides, unless a separate checkout (its own `.git`) lies between them — a repository cloned
 * or planted inside a trusted folder is not trusted by it. A folder no decision covers is not trusted.
 */
export function isCheckoutTrusted(home: string, folder: string): boolean {
  const target = realpathOr(resolve(folder));
  const decisions = Object.entries(readTrustFile(home).workspaces)
    .map(([path, entry]) => ({ path: realpathOr(path), trusted: entry?.trusted === true }))
    .filter((d) => within(target, d.path))
    .sort((a, b) => b.path.length - a.path.length);
  const nearest = decisions[0];
  return !!nearest && nearest.trusted && !nestedCheckout(target, nearest.path);
}

/** The project MCP files a folder may have: `.jarvis-code/mcp.json` there and `.mcp.json` at its repository root. */
export function projectMcpFiles(workDir: string): string[] {
  return [join(resolve(workDir), '.jarvis-code', 'mcp.json'), join(projectRoot(resolve(workDir)), '.mcp.json')];
}

/** SHA-256 of the file's bytes, or undefined when it cannot be read (missing, a folder, no permission). */
export function fileDigest(path: string): string | undefined {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return undefined;
  }
}

function currentDigests(workDir: string): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const file of projectMcpFiles(workDir)) {
    const digest = fileDigest(file);
    if (digest !== undefined) digests[file] = digest;
  }
  return digests;
}

/**
 * Whether `file` (a project MCP file of `workDir`) holds what the user trusted: the folder is trusted and the
 * file's digest is the recorded one. A file that cannot be read, or has no record, is not approved.
 */
export function mcpFileApproved(home: string, workDir: string, file: string): boolean {
  const entry = workspaceTrust(home, workDir);
  if (entry?.trusted !== true) return false;
  const digest = fileDigest(file);
  return digest !== undefined && entry.mcpFiles?.[resolve(file)] === digest;
}

/**
 * Records the decision (atomically: a crash never leaves a half-written file). Trusting records the digests of
 * the project MCP files as they are now: their servers may start until the bytes change.
 */
export function setWorkspaceTrust(home: string, workDir: string, trusted: boolean, now = new Date()): void {
  const file = readTrustFile(home);
  const entry: TrustEntry = { trusted, decidedAt: now.toISOString() };
  if (trusted) entry.mcpFiles = currentDigests(workDir);
  file.workspaces[resolve(workDir)] = entry;
  writeTrustFile(home, file);
}

/**
 * After `jarvis mcp add|remove --scope project` wrote `path`: records its new digest, but only when its content
 * was approved before the write (`wasApproved`), so a change nobody approved is never approved by the way.
 */
export function recordMcpFileWrite(home: string, workDir: string, path: string, wasApproved: boolean): void {
  if (!wasApproved) return;
  const file = readTrustFile(home);
  const entry = file.workspaces[resolve(workDir)];
  const digest = fileDigest(path);
  if (entry?.trusted !== true || digest === undefined) return;
  entry.mcpFiles = { ...entry.mcpFiles, [resolve(path)]: digest };
  writeTrustFile(home, file);
}
