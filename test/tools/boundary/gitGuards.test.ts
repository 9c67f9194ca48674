// What the trust boundary reads from git (docs/trust-boundary.md "Code that runs later"): which config keys name a
// program or a file git runs later, which keys a repository made during a command may hold, what is wrong with a new
// git entry, and that moving a created path aside never follows a link out of its root.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configProblems, pathsNamedBy } from '../../../src/tools/boundary/gitConfig';
import { newGitEntryProblems } from '../../../src/tools/boundary/gitGuards';
import { settleSnapshot, takeSnapshot } from '../../../src/tools/boundary/runsLater';

const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}
function dir(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), 'git-guards-')));
}

describe('config keys', () => {
  it.each([
    ['core.repositoryformatversion', '0', true],
    ['core.bare', 'false', true],
    ['core.worktree', '../../sub', true],
    ['remote.origin.url', 'https://example.invalid/r.git', true],
    ['remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*', true],
    ['branch.main.merge', 'refs/heads/main', true],
    ['submodule.lib.update', 'rebase', true],
    ['core.fsmonitor', 'touch /tmp/x', false],
    ['core.hookspath', '/tmp/h', false],
    ['core.sshcommand', 'sh -c x', false],
    ['remote.origin.url', 'ext::sh -c x', false],
    ['remote.origin.uploadpack', 'x', false],
    ['filter.x.clean', 'x', false],
    ['alias.st', '!touch x', false],
    ['include.path', '../x', false],
    ['submodule.lib.update', '!touch x', false],
    ['credential.helper', 'x', false],
  ] as const)('%s = %s is harmless: %s', (key, value, harmless) => {
    expect(configProblems('c', [[key, value]])).toHaveLength(harmless ? 0 : 1);
  });

  it('names the files a config makes git run or read', () => {
    const named = pathsNamedBy([
      ['include.path', '../team.gitconfig'],
      ['includeif.gitdir:~/w/.path', '~/w.gitconfig'],
      ['core.hookspath', '.githooks'],
      ['filter.strip.clean', './scripts/strip.sh %f'],
      ['alias.up', '!./tools/up.sh --all'],
      ['core.fsmonitor', '"/opt/fs monitor" --x'],
      ['core.pager', 'less'],
      ['user.name', './not-a-program'],
    ]);
    expect(named.map((n) => [n.key, n.path, n.base])).toEqual([
      ['include.path', '../team.gitconfig', 'config'],
      ['includeif.gitdir:~/w/.path', '~/w.gitconfig', 'config'],
      ['core.hookspath', '.githooks', 'worktree'],
      ['filter.strip.clean', './scripts/strip.sh', 'worktree'],
      ['alias.up', './tools/up.sh', 'worktree'],
      ['core.fsmonitor', '/opt/fs monitor', 'worktree'],
    ]);
  });
});

describe('a git entry made during a command', () => {
  it('git init is clean', () => {
    const d = dir();
    git(d, 'init', '-q');
    expect(newGitEntryProblems(join(d, '.git'), new Set())).toEqual([]);
  });

  it.each([
    ['a hook that is not a sample', (g: string) => writeFileSync(join(g, 'hooks', 'pre-commit'), '#!/bin/sh\n')],
    ['info/attributes', (g: string) => writeFileSync(join(g, 'info', 'attributes'), '* filter=x\n')],
    ['a commondir', (g: string) => writeFileSync(join(g, 'commondir'), '../elsewhere\n')],
    ['core.fsmonitor', (g: string) => git(join(g, '..'), 'config', 'core.fsmonitor', 'touch x')],
    ['a config git cannot read', (g: string) => writeFileSync(join(g, 'config'), '[core\n')],
  ])('is refused with %s', (_name, plant) => {
    const d = dir();
    git(d, 'init', '-q');
    plant(join(d, '.git'));
    expect(newGitEntryProblems(join(d, '.git'), new Set()).length).toBeGreaterThan(0);
  });

  it('a .git link is refused; a linked worktree of a known repository is clean', () => {
    const d = dir();
    git(d, 'init', '-q', '-b', 'main');
    git(d, '-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-q', '--allow-empty', '-m', 'x');
    git(d, 'worktree', 'add', '-q', '-b', 'side', join(d, 'wt'));
    expect(newGitEntryProblems(join(d, 'wt', '.git'), new Set([join(d, '.git')]))).toEqual([]);
    mkdirSync(join(d, 'sub'));
    symlinkSync(join(d, '.git'), join(d, 'sub', '.git'));
    expect(newGitEntryProblems(join(d, 'sub', '.git'), new Set([join(d, '.git')]))).toHaveLength(1);
  });
});

describe('moving a created path aside', () => {
  it('moves the link a command made, never what it points to', () => {
    const root = dir();
    const ws = join(root, 'ws');
    const outside = join(root, 'outside');
    mkdirSync(ws);
    mkdirSync(outside);
    writeFileSync(join(outside, 'settings.json'), 'the user’s own\n');
    const guarded = { root: ws, path: join(ws, '.claude', 'settings.json'), why: 'hooks' };
    const snapshot = takeSnapshot([guarded], []);
    symlinkSync(outside, join(ws, '.claude'));
    const moved = settleSnapshot(snapshot);
    expect(moved).toEqual([
      { path: join(ws, '.claude'), movedTo: join(ws, '.claude.quarantined-by-jarvis'), why: 'hooks' },
    ]);
    expect(lstatSync(join(ws, '.claude.quarantined-by-jarvis')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(outside, 'settings.json'), 'utf8')).toBe('the user’s own\n');
    expect(existsSync(join(ws, '.claude'))).toBe(false);
  });

  it('never replaces an earlier quarantined copy', () => {
    const ws = dir();
    const guarded = { root: ws, path: join(ws, '.mcp.json'), why: 'servers' };
    for (const n of [1, 2]) {
      const snapshot = takeSnapshot([guarded], []);
      writeFileSync(join(ws, '.mcp.json'), `plant ${n}`);
      settleSnapshot(snapshot);
    }
    expect(readFileSync(join(ws, '.mcp.json.quarantined-by-jarvis'), 'utf8')).toBe('plant 1');
    expect(readFileSync(join(ws, '.mcp.json.quarantined-by-jarvis-2'), 'utf8')).toBe('plant 2');
  });
});
