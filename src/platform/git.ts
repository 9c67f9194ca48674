// The real git binary as Jarvis's own features run it — Tower's worktrees, branches and merges (docs/tower.md), the
// look at modified files after a Bash command (docs/lsp.md) — without a terminal: no pager, no editor, no
// credential prompt, and no program the repository names (gitGuard.ts; docs/sandbox.md, "Jarvis's own git calls").
// Every call first lists the configuration git would read in that folder (one `git config` process, which runs
// nothing), empties the drivers the repository's own config defines, and runs with the neutral settings.
import { execFile } from 'node:child_process';
import { drivers, guardArguments, parseGitConfigList, type RepositoryDriver } from './gitGuard';
import { nonInteractiveEnv } from './processes';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The repository's own drivers this call ran without (they are named when the call fails). */
  emptied?: RepositoryDriver[];
  /** The time limit ended it. */
  timedOut?: boolean;
}

/** A git command that failed: the message names the command, the folder and what git said. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly cwd: string,
    readonly result: GitResult,
  ) {
    const said = (result.stderr || result.stdout).trim() || `exit code ${result.code}`;
    super(`git ${args.join(' ')} failed in ${cwd}: ${said}${emptiedNote(result.emptied)}`);
  }
}

/** Why a call may have failed: a driver of the repository's own config was not run (empty when none was). */
export function emptiedNote(found: readonly RepositoryDriver[] | undefined): string {
  if (!found?.length) return '';
  const named = found.map((d) => `${d.key} = ${d.value}${d.file ? ` (${d.file})` : ''}`).join('; ');
  return (
    ` (Jarvis runs git without the programs a repository's own config names, and this one names ${named}; ` +
    'see docs/sandbox.md, "Jarvis\'s own git calls")'
  );
}

const MAX_OUTPUT = 64 * 1024 * 1024;
/** Listing the configuration reads files only; a config that includes a FIFO or a slow disk must not hang us. */
const CONFIG_LIST_TIMEOUT_MS = 10_000;

export interface GitOptions {
  signal?: AbortSignal;
  /** Ends the call after this long (`timedOut` is then set). */
  timeoutMs?: number;
  maxBuffer?: number;
  /** What git starts from (the session's environment: tools/sessionEnv.ts); default process.env. */
  env?: Readonly<NodeJS.ProcessEnv>;
}

function execGit(args: readonly string[], cwd: string, opts: GitOptions): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      {
        cwd,
        env: nonInteractiveEnv(opts.env),
        maxBuffer: opts.maxBuffer ?? MAX_OUTPUT,
        signal: opts.signal,
        timeout: opts.timeoutMs,
        windowsHide: true,
      },
      (err, stdout, stderr) => {
        const failure = err as (NodeJS.ErrnoException & { killed?: boolean }) | null;
        if (failure && typeof failure.code === 'string' && failure.code !== 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
          reject(
            new Error(
              failure.code === 'ENOENT'
                ? 'git is not installed or not on PATH; this feature needs the git binary'
                : `git ${args.join(' ')} could not run: ${failure.message}`,
            ),
          );
          return;
        }
        const code = failure ? (typeof failure.code === 'number' ? failure.code : 1) : 0;
        const result: GitResult = { code, stdout: String(stdout), stderr: String(stderr) };
        if (failure?.killed && opts.timeoutMs !== undefined && !opts.signal?.aborted) result.timedOut = true;
        resolve(result);
      },
    );
  });
}

/**
 * Runs `git args` in `cwd` with the repository's programs turned off; resolves with its exit code and output
 * (never rejects for a non-zero exit). A configuration git cannot read fails the call as git itself would.
 */
export async function runGit(args: readonly string[], cwd: string, opts: GitOptions = {}): Promise<GitResult> {
  const listed = await execGit(['--no-pager', 'config', '--list', '--show-scope', '--show-origin', '-z'], cwd, {
    ...opts,
    timeoutMs: Math.min(opts.timeoutMs ?? CONFIG_LIST_TIMEOUT_MS, CONFIG_LIST_TIMEOUT_MS),
  });
  if (listed.code !== 0) return listed;
  const { config, found } = drivers(parseGitConfigList(listed.stdout, cwd), cwd);
  const result = await execGit([...guardArguments(config), ...args], cwd, opts);
  return found.length ? { ...result, emptied: found } : result;
}

/** Runs `git args` and returns its trimmed stdout; throws GitError on a non-zero exit. */
export async function git(
  args: readonly string[],
  cwd: string,
  signal?: AbortSignal,
  env?: Readonly<NodeJS.ProcessEnv>,
): Promise<string> {
  const result = await runGit(args, cwd, { signal, env });
  if (result.code !== 0) throw new GitError(args, cwd, result);
  return result.stdout.trim();
}
