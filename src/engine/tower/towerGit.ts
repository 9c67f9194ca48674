// The repository operations of Tower mode, all through the real git binary (platform/git.ts, which runs none of
// the programs a repository's config names: docs/sandbox.md, "Jarvis's own git calls"): worktrees and branches for
// missions, detached worktrees for reviews, the files a branch changed, and the merge into the base branch. Every call
// runs with the session's environment (tools/sessionEnv.ts).
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { emptiedNote, git, runGit, type GitResult } from '../../platform/git';

export class TowerGit {
  /** `env`: what git starts from (the session's environment); default process.env. */
  constructor(private readonly env?: Readonly<NodeJS.ProcessEnv>) {}

  private run(args: readonly string[], cwd: string): Promise<GitResult> {
    return runGit(args, cwd, { env: this.env });
  }

  private git(args: readonly string[], cwd: string): Promise<string> {
    return git(args, cwd, undefined, this.env);
  }

  async repoRootOf(cwd: string): Promise<string> {
    try {
      return await this.git(['rev-parse', '--show-toplevel'], cwd);
    } catch {
      throw new Error(
        `${cwd} is not inside a git repository; Tower mode works on a git repository (run \`git init\` and commit first).`,
      );
    }
  }

  async currentBranch(repo: string): Promise<string> {
    const result = await this.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], repo);
    if (result.code !== 0)
      throw new Error('HEAD is detached; check out the branch Tower should merge into, then call TowerInit again.');
    return result.stdout.trim();
  }

  async tipOf(repo: string, ref: string): Promise<string> {
    return this.git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], repo);
  }

  async branchExists(repo: string, branch: string): Promise<boolean> {
    return (await this.run(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], repo)).code === 0;
  }

  /** Keeps `.tower/` out of `git status` without touching the user's .gitignore (the repository's info/exclude). */
  async excludeTowerDir(repo: string): Promise<void> {
    const raw = await this.git(['rev-parse', '--git-path', 'info/exclude'], repo);
    const path = isAbsolute(raw) ? raw : resolve(repo, raw);
    const existing = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (existing.split('\n').some((l) => l.trim() === '/.tower/')) return;
    mkdirSync(dirname(path), { recursive: true });
    appendFileSync(path, `${existing && !existing.endsWith('\n') ? '\n' : ''}/.tower/\n`);
  }

  /** A new worktree at `path` on a new branch `branch` from `base` (an existing branch is reused). */
  async addMissionWorktree(repo: string, path: string, branch: string, base: string): Promise<void> {
    mkdirSync(dirname(path), { recursive: true });
    const args = (await this.branchExists(repo, branch))
      ? ['worktree', 'add', path, branch]
      : ['worktree', 'add', '-b', branch, path, base];
    await this.git(args, repo);
  }

  /** A detached worktree at `commit`, for a reviewer: it reads the branch as it was when the review was assigned. */
  async addReviewWorktree(repo: string, path: string, commit: string): Promise<void> {
    mkdirSync(dirname(path), { recursive: true });
    await this.git(['worktree', 'add', '--detach', path, commit], repo);
  }

  /** Removes a worktree (uncommitted changes in it are discarded); a folder git no longer knows is deleted too. */
  async removeWorktree(repo: string, path: string): Promise<void> {
    const result = await this.run(['worktree', 'remove', '--force', '--force', path], repo);
    if (result.code !== 0 && existsSync(path)) rmSync(path, { recursive: true, force: true });
    await this.run(['worktree', 'prune'], repo);
  }

  /** The worktrees git knows of, as absolute paths. */
  async listWorktrees(repo: string): Promise<string[]> {
    const out = await this.git(['worktree', 'list', '--porcelain'], repo);
    return out
      .split('\n')
      .filter((l) => l.startsWith('worktree '))
      .map((l) => l.slice('worktree '.length));
  }

  /** Files the branch changed since it left `base` (renames count by both names). */
  async changedFiles(repo: string, base: string, branch: string): Promise<string[]> {
    const out = await this.git(['diff', '--name-only', '-z', '--no-renames', `${base}...${branch}`], repo);
    return out.split('\0').filter(Boolean);
  }

  async trackedFiles(repo: string): Promise<string[]> {
    return (await this.git(['ls-files', '-z'], repo)).split('\0').filter(Boolean);
  }

  /** Whether the working tree has changes to tracked files (a merge would mix them in). */
  async hasTrackedChanges(repo: string): Promise<boolean> {
    return (await this.git(['status', '--porcelain', '--untracked-files=no'], repo)).length > 0;
  }

  /** Merges `branch` into the checked-out base branch with a merge commit; a conflict is aborted and reported. */
  async mergeBranch(repo: string, branch: string, message: string): Promise<string> {
    const result = await this.run(['merge', '--no-ff', '--no-edit', '-m', message, branch], repo);
    if (result.code !== 0) {
      await this.run(['merge', '--abort'], repo);
      const said = (result.stdout + result.stderr).trim().split('\n').slice(0, 12).join('\n');
      throw new Error(
        `merging ${branch} failed and was undone:\n${said}${emptiedNote(result.emptied)}\nAsk the mission's worker to rebase its branch on the base branch (TowerSend), then review again.`,
      );
    }
    return this.tipOf(repo, 'HEAD');
  }

  async deleteBranch(repo: string, branch: string): Promise<void> {
    await this.run(['branch', '-D', branch], repo);
  }
}
