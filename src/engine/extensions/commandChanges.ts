// Which source files a foreground Bash command changed, for the check after it (docs/lsp.md "Diagnostics after Bash";
// lspDiagnostics.ts appends their new errors). Found cheaply and bounded, and only when a language server already runs:
// before the command, the size and mtime of the files the servers have open and of the tracked files git lists as
// modified (with their text); after it, the same again, plus the files git newly lists, whose text before was the
// index's.
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { runGit } from '../../platform/git';
import type { LspManager } from '../../platform/lsp/lspManager';

/** Files looked at per snapshot, files checked after a command, the size of one, and how long git may take. */
export const BASH_CHECK_MAX_FILES = 50;
export const BASH_CHECK_MAX_CHANGED = 10;
export const BASH_CHECK_MAX_FILE_BYTES = 1024 * 1024;
export const BASH_CHECK_GIT_TIMEOUT_MS = 2_000;

interface Seen {
  size: number;
  mtimeMs: number;
  /** The text before the command: the server's open copy, or the file's when git listed it as modified. */
  text: string;
}

export interface BashSnapshot {
  cwd: string;
  /** The session's environment, which git runs with (undefined: process.env). */
  env?: Readonly<NodeJS.ProcessEnv>;
  files: Map<string, Seen>;
  /** Whether git answered: then the files it newly lists after the command are checked too. */
  git: boolean;
  /** A git failure other than "not a repository", "no git" or its time limit: said in the result. */
  problem?: string;
}

type GitList = { paths: string[] } | { paths: undefined; problem?: string };

/** Tracked files under `cwd` whose working copy differs from the index (`git ls-files -m`), as absolute paths. */
async function modifiedTracked(cwd: string, env: Readonly<NodeJS.ProcessEnv> | undefined): Promise<GitList> {
  // Through platform/git.ts: no program the repository names (fsmonitor, filters) runs for this look, and it
  // takes no optional lock a command in the same repository may want.
  let result;
  try {
    result = await runGit(['ls-files', '-m', '-z'], cwd, {
      timeoutMs: BASH_CHECK_GIT_TIMEOUT_MS,
      maxBuffer: 1024 * 1024,
      env,
    });
  } catch (e) {
    // No git at all: only the open files are compared (docs/lsp.md).
    if (/not installed or not on PATH/.test((e as Error).message)) return { paths: undefined };
    throw e;
  }
  if (result.code === 0)
    return {
      paths: result.stdout
        .split('\0')
        .filter(Boolean)
        .map((p) => join(cwd, p)),
    };
  // Not a repository, or over the time limit: only the open files are compared (docs/lsp.md).
  if (result.code === 128 || result.timedOut) return { paths: undefined };
  return { paths: undefined, problem: `git ls-files failed: ${(result.stderr || `exit code ${result.code}`).trim()}` };
}

/** The index's text of `path` (a file git newly lists as modified was the index's before the command). */
async function indexText(
  cwd: string,
  path: string,
  env: Readonly<NodeJS.ProcessEnv> | undefined,
): Promise<string | undefined> {
  const rel = relative(cwd, path);
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  const result = await runGit(['show', '--no-textconv', `:./${rel}`], cwd, {
    timeoutMs: BASH_CHECK_GIT_TIMEOUT_MS,
    maxBuffer: BASH_CHECK_MAX_FILE_BYTES,
    env,
  });
  return result.code === 0 ? result.stdout : undefined;
}

async function statOf(path: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : undefined;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

async function textOf(path: string, size: number): Promise<string | undefined> {
  if (size > BASH_CHECK_MAX_FILE_BYTES) return undefined;
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Before a foreground command: undefined (and nothing done) when no language server runs. A file that cannot be
 * looked at (other than gone) ends the check, said in the result: the command itself runs as always.
 */
export async function snapshotBeforeBash(
  lsp: LspManager | undefined,
  cwd: string,
  env?: Readonly<NodeJS.ProcessEnv>,
): Promise<BashSnapshot | undefined> {
  if (!lsp || !lsp.anyRunning()) return undefined;
  try {
    return await snapshot(lsp, cwd, env);
  } catch (e) {
    return { cwd, env, files: new Map(), git: false, problem: (e as Error).message };
  }
}

async function snapshot(
  lsp: LspManager,
  cwd: string,
  env: Readonly<NodeJS.ProcessEnv> | undefined,
): Promise<BashSnapshot> {
  const files = new Map<string, Seen>();
  for (const doc of lsp.openDocuments().slice(0, BASH_CHECK_MAX_FILES)) {
    const s = await statOf(doc.path);
    if (s) files.set(doc.path, { ...s, text: doc.text });
  }
  const git = await modifiedTracked(cwd, env);
  for (const path of (git.paths ?? []).filter((p) => lsp.runningClientFor(p)).slice(0, BASH_CHECK_MAX_FILES)) {
    if (files.has(path)) continue;
    const s = await statOf(path);
    const text = s && (await textOf(path, s.size));
    if (s && text !== undefined) files.set(path, { ...s, text });
  }
  return { cwd, env, files, git: git.paths !== undefined, ...(git.paths ? {} : { problem: git.problem }) };
}

/** The files the command changed, each with its text before and after (at most BASH_CHECK_MAX_CHANGED). */
export async function changedFiles(
  lsp: LspManager,
  snap: BashSnapshot,
): Promise<Array<{ path: string; before: string; after: string }>> {
  const changed: Array<{ path: string; before: string; after: string }> = [];
  const consider = async (path: string, before: string | undefined, seen?: Seen) => {
    if (changed.length >= BASH_CHECK_MAX_CHANGED || before === undefined) return;
    const now = await statOf(path);
    if (!now || (seen && now.size === seen.size && now.mtimeMs === seen.mtimeMs)) return;
    const after = await textOf(path, now.size);
    if (after !== undefined && after !== before) changed.push({ path, before, after });
  };
  for (const [path, seen] of snap.files) await consider(path, seen.text, seen);
  if (snap.git) {
    const after = await modifiedTracked(snap.cwd, snap.env);
    const fresh = (after.paths ?? []).filter((p) => !snap.files.has(p) && lsp.runningClientFor(p));
    for (const path of fresh.slice(0, BASH_CHECK_MAX_CHANGED))
      await consider(path, await indexText(snap.cwd, path, snap.env));
  }
  return changed;
}
