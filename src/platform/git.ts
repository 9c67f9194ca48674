// The real git binary, run without a terminal: no pager, no editor, no credential prompt. Used where
// a feature needs repository operations (Tower mode's worktrees, branches and merges; docs/tower.md).
import { execFile } from 'node:child_process';
import { nonInteractiveEnv } from './processes';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A git command that failed: the message names the command, the folder and what git said. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly cwd: string,
    readonly result: GitResult,
  ) {
    const said = (result.stderr || result.stdout).trim() || `exit code ${result.code}`;
    super(`git ${args.join(' ')} failed in ${cwd}: ${said}`);
  }
}

const MAX_OUTPUT = 64 * 1024 * 1024;

/** Runs `git args` in `cwd`; resolves with its exit code and output (never rejects for a non-zero exit). */
export function runGit(args: readonly string[], cwd: string, signal?: AbortSignal): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      { cwd, env: nonInteractiveEnv(), maxBuffer: MAX_OUTPUT, signal, windowsHide: true },
      (err, stdout, stderr) => {
        if (err && typeof (err as NodeJS.ErrnoException).code === 'string') {
          const code = (err as NodeJS.ErrnoException).code;
          reject(
            new Error(
              code === 'ENOENT'
                ? 'git is not installed or not on PATH; Tower mode needs the git binary'
                : `git ${args.join(' ')} could not run: ${err.message}`,
            ),
          );
          return;
        }
        const exit = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code: exit, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** Runs `git args` and returns its trimmed stdout; throws GitError on a non-zero exit. */
export async function git(args: readonly string[], cwd: string, signal?: AbortSignal): Promise<string> {
  const result = await runGit(args, cwd, signal);
  if (result.code !== 0) throw new GitError(args, cwd, result);
  return result.stdout.trim();
}
