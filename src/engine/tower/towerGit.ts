// The repository operations of Tower mode, all through the real git binary (platform/git.ts, which runs none of
// the programs a repository's config names: docs/sandbox.md, "Jarvis's own git calls"): worktrees and branches for
// missions, detached worktrees for reviews, the files a branch changed, and the merge into the base branch.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { emptiedNote, git, runGit } from '../../platform/git';

export async function repoRootOf(cwd: string): Promise<string> {
  try {
    return await git(['rev-parse', '--show-toplevel'], cwd);
  } catch {
    throw new Error(
      `${cwd} is not inside a git repository; Tower mode works on a git repository (run \`git init\` and commit first).`,
    );
  }
}

export async function currentBranch(repo: string): Promise<string> {
  const result = await runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], repo);
  if (result.code !== 0)
    throw new Error('HEAD is detached; check out the branch Tower should merge into, then call TowerInit again.');
  return result.stdout.trim();
}

export async function tipOf(repo: string, ref: string): Promise<string> {
  return git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], repo);
}

export async function branchExists(repo: string, branch: string): Promise<boolean> {
  return (await runGit(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], repo)).code === 0;
}

/** Keeps `.tower/` out of `git status` without touching the user's .gitignore (the repository's info/exclude). */
export async function excludeTowerDir(repo: string): Promise<void> {
  const raw = await git(['rev-parse', '--git-path', 'info/exclude'], repo);
  const path = isAbsolute(raw) ? raw : resolve(repo, raw);
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (existing.split('\n').some((l) => l.trim() === '/.tower/')) return;
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, `${existing && !existing.endsWith('\n') ? '\n' : ''}/.tower/\n`);
}

/** A new worktree at `path` on a new branch `branch` from `base` (an existing branch is reused). */
export async function addMissionWorktree(repo: string, path: string, branch: string, base: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const args = (await branchExists(repo, branch))
    ? ['worktree', 'add', path, branch]
    : ['worktree', 'add', '-b', branch, path, base];
  await git(args, repo);
}

/** A detached worktree at `commit`, for a reviewer: it reads the branch as it was when the review was assigned. */
export async function addReviewWorktree(repo: string, path: string, commit: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  await git(['worktree', 'add', '--detach', path, commit], repo);
}

/** Removes a worktree (uncommitted changes in it are discarded); a folder git no longer knows is deleted too. */
export async function removeWorktree(repo: string, path: string): Promise<void> {
  const result = await runGit(['worktree', 'remove', '--force', '--force', path], repo);
  if (result.code !== 0 && existsSync(path)) rmSync(path, { recursive: true, force: true });
  await runGit(['worktree', 'prune'], repo);
}

/** The worktrees git knows of, as absolute paths. */
export async function listWorktrees(repo: string): Promise<string[]> {
  const out = await git(['worktree', 'list', '--porcelain'], repo);
  return out
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length));
}

/** Files the branch changed since it left `base` (renames count by both names). */
export async function changedFiles(repo: string, base: string, branch: string): Promise<string[]> {
  const out = await git(['diff', '--name-only', '-z', '--no-renames', `${base}...${branch}`], repo);
  return out.split('\0').filter(Boolean);
}

export async function trackedFiles(repo: string): Promise<string[]> {
  return (await git(['ls-files', '-z'], repo)).split('\0').filter(Boolean);
}

/** Whether the working tree has changes to tracked files (a merge would mix them in). */
export async function hasTrackedChanges(repo: string): Promise<boolean> {
  return (await git(['status', '--porcelain', '--untracked-files=no'], repo)).length > 0;
}

/** Merges `branch` into the checked-out base branch with a merge commit; a conflict is aborted and reported. */
export async function mergeBranch(repo: string, branch: string, message: string): Promise<string> {
  const result = await runGit(['merge', '--no-ff', '--no-edit', '-m', message, branch], repo);
  if (result.code !== 0) {
    await runGit(['merge', '--abort'], repo);
    const said = (result.stdout + result.stderr).trim().split('\n').slice(0, 12).join('\n');
    throw new Error(
      `merging ${branch} failed and was undone:\n${said}${emptiedNote(result.emptied)}\nAsk the mission's worker to rebase its branch on the base branch (TowerSend), then review again.`,
    );
  }
  return tipOf(repo, 'HEAD');
}

export async function deleteBranch(repo: string, branch: string): Promise<void> {
  await runGit(['branch', '-D', branch], repo);
}
