// The git entries of a session's workspace as the trust boundary keeps them (docs/trust-boundary.md "Git"): those
// found by the first walk are the user's and are guarded as they are; one that appears while a sandboxed command runs
// is checked (gitGuards.ts newGitEntryProblems) and, when git would run something from it, moved aside and reported;
// a clean one (`git init`, `git worktree add`) is guarded from the next command on.
import { lstatSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gitDirsAbove, linkedGitDirs, newGitEntryProblems, runsLaterInGitDir } from './gitGuards';
import { insideAny } from './boundaryPolicy';
import { quarantine, type GuardedPath, type Quarantined } from './runsLater';

export class GitTracker {
  /** Accepted git entries (`.git` folders and files, folders git reads as repositories) inside the workspace. */
  private readonly known = new Set<string>();
  private readonly guardCache = new Map<string, { stamp: string; guarded: GuardedPath[] }>();

  constructor(private readonly home: string) {}

  accept(entries: Iterable<string>): void {
    for (const entry of entries) this.known.add(entry);
  }

  isKnown(entry: string): boolean {
    return this.known.has(entry);
  }

  /** The git dirs an accepted entry stands for, and the top of the worktree each belongs to. */
  private gitDirs(): Array<{ gitDir: string; top?: string }> {
    const dirs: Array<{ gitDir: string; top?: string }> = [];
    for (const entry of this.known) {
      const st = lstatSync(entry, { throwIfNoEntry: false });
      if (!st) continue;
      if (basename(entry) !== '.git') dirs.push({ gitDir: entry });
      else if (st.isDirectory()) dirs.push({ gitDir: entry, top: dirname(entry) });
      else if (st.isFile()) for (const gitDir of linkedGitDirs(dirname(entry), entry)) dirs.push({ gitDir });
    }
    return dirs;
  }

  /**
   * What git runs later from every git dir the session knows — the repositories above the workspace folders and the
   * accepted entries inside — that lies inside a writable folder; each `.git` file of a linked worktree or submodule
   * too. Cached per git dir until its config changes (reading a config runs git).
   */
  guarded(writable: readonly string[], repositoryTops: readonly string[]): GuardedPath[] {
    const found: GuardedPath[] = [];
    const dirs = [...this.gitDirs()];
    for (const top of repositoryTops) for (const gitDir of gitDirsAbove(top)) dirs.push({ gitDir });
    const seen = new Set<string>();
    for (const { gitDir, top } of dirs) {
      if (seen.has(gitDir)) continue;
      seen.add(gitDir);
      found.push(...this.guardedIn(gitDir, top));
    }
    for (const entry of this.known)
      if (basename(entry) === '.git' && lstatSync(entry, { throwIfNoEntry: false })?.isFile())
        found.push({ root: dirname(entry), path: entry, why: 'git follows it to a git dir' });
    return found
      .map((g) => ({ ...g, root: writable.find((w) => insideAny(g.path, [w])) ?? '' }))
      .filter((g) => g.root !== '');
  }

  private guardedIn(gitDir: string, top: string | undefined): GuardedPath[] {
    const stamp = configStamp(gitDir);
    const cached = this.guardCache.get(gitDir);
    if (cached?.stamp === stamp) return cached.guarded;
    const guarded = runsLaterInGitDir(gitDir, top, this.home).map((r) => ({ root: '', ...r }));
    this.guardCache.set(gitDir, { stamp, guarded });
    return guarded;
  }

  /**
   * Git entries present now but not when a command started (`atStart`: their gitEntryIdentity): each is checked; one git would run something from is
   * moved aside (a folder git reads as a repository loses its HEAD instead), a clean one is accepted.
   */
  check(current: readonly string[], atStart: ReadonlySet<string>): Quarantined[] {
    const moved: Quarantined[] = [];
    const knownDirs = new Set(this.gitDirs().map((d) => d.gitDir));
    for (const entry of current) {
      if (atStart.has(gitEntryIdentity(entry))) continue;
      const problems = newGitEntryProblems(entry, knownDirs);
      if (problems.length === 0) {
        this.known.add(entry);
        continue;
      }
      this.known.delete(entry);
      const why = `git would run or read it later (${problems.slice(0, 3).join('; ')})`;
      moved.push(quarantine(basename(entry) === '.git' ? entry : join(entry, 'HEAD'), why));
    }
    return moved;
  }
}

/**
 * A git entry by path and inode: one swapped for another under the same name (the folder holding it renamed away and
 * a new one made) is a new entry.
 */
export function gitEntryIdentity(entry: string): string {
  const st = lstatSync(entry, { throwIfNoEntry: false });
  return `${entry}\0${st ? `${st.dev}:${st.ino}` : 'gone'}`;
}

/** What the cached guards of a git dir depend on: its config, and which linked worktrees and submodules it has. */
function configStamp(gitDir: string): string {
  return ['config', 'worktrees', 'modules']
    .map((name) => {
      const st = statSync(join(gitDir, name), { throwIfNoEntry: false });
      return st ? `${st.ino}:${st.mtimeMs}:${st.size}` : 'none';
    })
    .join('|');
}
