// A real git repository for Tower tests: one commit on `main`, with an identity so agents can commit.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();
}

export function writeIn(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/** A repository at `<tmp>/repo` with src/api, src/ui and README.md committed on `main`. */
export function makeRepo(): string {
  const repo = join(realpathSync(mkdtempSync(join(tmpdir(), 'tower-'))), 'repo');
  mkdirSync(repo, { recursive: true });
  gitIn(repo, 'init', '-q', '-b', 'main');
  gitIn(repo, 'config', 'user.name', 'Tower Test');
  gitIn(repo, 'config', 'user.email', 'tower@test.invalid');
  gitIn(repo, 'config', 'commit.gpgsign', 'false');
  writeIn(repo, 'README.md', '# demo\n');
  writeIn(repo, 'src/api/server.ts', 'export const port = 1;\n');
  writeIn(repo, 'src/ui/view.ts', 'export const view = 1;\n');
  gitIn(repo, 'add', '-A');
  gitIn(repo, 'commit', '-q', '-m', 'initial');
  return repo;
}

/** Commits `files` on `branch` in worktree `wt`. */
export function commitIn(wt: string, files: Record<string, string>, message = 'work'): string {
  for (const [rel, text] of Object.entries(files)) writeIn(wt, rel, text);
  gitIn(wt, 'add', '-A');
  gitIn(wt, 'commit', '-q', '-m', message);
  return gitIn(wt, 'rev-parse', 'HEAD');
}
