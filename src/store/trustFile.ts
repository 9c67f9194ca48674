// The trust file (docs/ui.md, "Workspace trust"): one small JSON file under the data root with each folder's
// decision, so that a folder's trust never depends on anything inside the folder itself (a repository cannot trust
// itself). Written atomically; a damaged file trusts nothing. What the entries mean is trust.ts's and mcpTrust.ts's.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { mkdirPrivateSync, replacePrivateFileSync } from './privateFiles';

export interface TrustEntry {
  trusted: boolean;
  decidedAt: string;
  /**
   * SHA-256 of each project MCP file and Claude Code project settings file (hooks) that existed when the folder was
   * trusted, by absolute path. Entries written before digests existed have none: their files count as changed (asked
   * again; never used in print mode).
   */
  mcpFiles?: Record<string, string>;
  /**
   * SHA-256 of each file the project MCP servers are started with (program, file arguments inside the workspace:
   * mcpLaunch.ts), by absolute path, as they were when the user approved them. Missing: those servers count as
   * changed.
   */
  mcpLaunch?: Record<string, string>;
}

interface TrustFile {
  version: 1;
  workspaces: Record<string, TrustEntry>;
}

export function trustFilePath(home: string): string {
  return join(home, 'trusted_workspaces.json');
}

export function readTrustFile(home: string): TrustFile {
  try {
    const parsed = JSON.parse(readFileSync(trustFilePath(home), 'utf8')) as Partial<TrustFile>;
    if (parsed && typeof parsed.workspaces === 'object' && parsed.workspaces)
      return { version: 1, workspaces: parsed.workspaces };
  } catch {
    // missing or unreadable: nothing has been decided yet, so the prompt asks again
  }
  return { version: 1, workspaces: {} };
}

export function writeTrustFile(home: string, file: TrustFile): void {
  const path = trustFilePath(home);
  mkdirPrivateSync(dirname(path));
  replacePrivateFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
}

/** The stored decision for this folder, or undefined when the user was never asked. */
export function workspaceTrust(home: string, workDir: string): TrustEntry | undefined {
  return readTrustFile(home).workspaces[resolve(workDir)];
}

export function isWorkspaceTrusted(home: string, workDir: string): boolean {
  return workspaceTrust(home, workDir)?.trusted === true;
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path; // not there (yet): judged by its name
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
