// A repository's config names a program in the workspace; Jarvis's own git calls never run it (docs/sandbox.md,
// "Jarvis's own git calls"; issue 43's corpus). Each row: {name, setup: what is planted (in the repository, a
// nested one, a linked worktree, an included file, the global config), attack: the plain git command a user's
// next action runs, which runs the planted program — proved first, in a copy of the same repository —, then the
// Jarvis feature that calls git on it, check: what the feature must still do}. Both as root and as an unprivileged
// user, each in repositories that user owns. The planted program appends to a canary outside the repository.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { handOver, runAsUser, sandboxTestUsers, type TestUser } from '../helpers/sandboxUsers';
import { all, attributes, config, envFor, hook, place, touchTracked, type Place } from '../helpers/gitAttackPlaces';
import { bundleGitFeatures, type FeatureResult, type GitFeatures } from '../helpers/gitFeatures';

interface Row {
  name: string;
  setup: (p: Place) => void;
  /** The plain git command that runs the planted program (and so proves the attack): args, folder, stdin. */
  attack: (p: Place) => { args: string[]; cwd?: string; input?: string; tty?: boolean };
  /** The Jarvis feature: its name in helpers/gitFeatures.ts and its arguments. */
  feature: (p: Place) => { name: string; args: unknown[]; cwd?: string };
  /** What the feature must return (its legitimate work is done), given the result. */
  check: (r: FeatureResult, p: Place) => void;
}

const users = sandboxTestUsers('git-guard');
let features: GitFeatures;
beforeAll(() => {
  features = bundleGitFeatures();
});

const ok = (r: FeatureResult) => {
  if (!r.ok) throw new Error(`the feature failed: ${r.error}`);
  return r.value;
};
const status = { args: ['status', '--porcelain'] };
const changed = (p: Place) => ({ name: 'hasTrackedChanges', args: [p.repo] });
const clean = (r: FeatureResult) => expect(ok(r)).toBe(false);
const dirty = (r: FeatureResult) => expect(ok(r)).toBe(true);
const worktree = (p: Place) => ({
  name: 'addMissionWorktree',
  args: [p.repo, join(p.root, 'wt-m'), 'mission', 'main'],
});
const made = (r: FeatureResult, p: Place) => {
  ok(r);
  expect(readFileSync(join(p.root, 'wt-m', 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
};
const merge = (p: Place) => ({ name: 'mergeBranch', args: [p.repo, 'side', 'merge side'] });
const merged = (r: FeatureResult, p: Place) => {
  ok(r);
  expect(p.git(['log', '-1', '--format=%s'])).toBe('merge side');
  expect(readFileSync(join(p.repo, 'a.txt'), 'utf8')).toBe('one\ntwo\nSIDE\n');
};
const nestedFsmonitor = (p: Place) => {
  const sub = join(p.repo, 'vendor', 'lib');
  mkdirSync(sub, { recursive: true });
  p.own();
  p.git(['init', '-q', '-b', 'main'], sub);
  writeFileSync(join(sub, 'x.txt'), 'x\n');
  p.git(['add', '-A'], sub);
  p.git(['commit', '-q', '-m', 'x'], sub);
  p.git(['config', 'core.fsmonitor', p.evil], sub);
};

const rows: Row[] = [
  {
    name: 'core.fsmonitor in the repository config',
    setup: config('core.fsmonitor', (p) => p.evil),
    attack: () => status,
    feature: changed,
    check: clean,
  },
  {
    name: 'core.fsmonitor in a nested repository a command created',
    setup: nestedFsmonitor,
    attack: (p) => ({ ...status, cwd: join(p.repo, 'vendor', 'lib') }),
    feature: (p) => ({ name: 'bashSnapshot', args: [join(p.repo, 'vendor', 'lib')] }),
    check: (r) => expect(ok(r)).toEqual({ git: true, files: [], problem: null }),
  },
  {
    name: 'include.path naming a workspace file that sets core.fsmonitor',
    setup: (p) => {
      writeFileSync(join(p.repo, 'tools', 'extra.inc'), `[core]\n\tfsmonitor = ${p.evil}\n`);
      p.git(['config', 'include.path', join(p.repo, 'tools', 'extra.inc')]);
    },
    attack: () => status,
    feature: changed,
    check: clean,
  },
  {
    name: 'includeIf gitdir: naming a workspace file that sets core.hooksPath',
    setup: (p) => {
      hook('post-checkout', (q) => join(q.repo, 'tools', 'hooks'))(p);
      writeFileSync(join(p.repo, 'tools', 'cond.inc'), `[core]\n\thooksPath = ${join(p.repo, 'tools', 'hooks')}\n`);
      p.git(['config', `includeIf.gitdir:${p.repo}/.git.path`, join(p.repo, 'tools', 'cond.inc')]);
    },
    attack: (p) => ({ args: ['worktree', 'add', '-q', '-b', 'plain', join(p.root, 'wt-plain'), 'main'] }),
    feature: worktree,
    check: made,
  },
  {
    name: "a linked worktree's own config (extensions.worktreeConfig)",
    setup: (p) => {
      p.git(['worktree', 'add', '-q', join(p.root, 'linked'), 'side']);
      p.git(['config', 'extensions.worktreeConfig', 'true']);
      p.git(['config', '--worktree', 'core.fsmonitor', p.evil], join(p.root, 'linked'));
    },
    attack: (p) => ({ ...status, cwd: join(p.root, 'linked') }),
    feature: (p) => ({ name: 'bashSnapshot', args: [join(p.root, 'linked')] }),
    check: (r) => expect(ok(r)).toMatchObject({ git: true, problem: null }),
  },
  {
    name: "a linked worktree's commondir pointing at a git dir the command made",
    setup: (p) => {
      p.git(['worktree', 'add', '-q', join(p.root, 'linked'), 'side']);
      const evil = join(p.repo, 'tools', 'other');
      p.git(['init', '-q', '-b', 'main', evil]);
      p.git(['config', 'core.fsmonitor', p.evil], evil);
      writeFileSync(join(p.repo, '.git', 'worktrees', 'linked', 'commondir'), `${join(evil, '.git')}\n`);
    },
    attack: (p) => ({ ...status, cwd: join(p.root, 'linked') }),
    feature: (p) => ({ name: 'bashSnapshot', args: [join(p.root, 'linked')] }),
    check: (r) => expect(ok(r)).toMatchObject({ problem: null }),
  },
  {
    name: 'a .git file in a subfolder naming a git dir with core.fsmonitor',
    setup: (p) => {
      const evil = join(p.repo, 'tools', 'other');
      p.git(['init', '-q', '-b', 'main', evil]);
      p.git(['config', 'core.fsmonitor', p.evil], evil);
      mkdirSync(join(p.repo, 'pkg'));
      writeFileSync(join(p.repo, 'pkg', '.git'), `gitdir: ${join(evil, '.git')}\n`);
    },
    attack: (p) => ({ ...status, cwd: join(p.repo, 'pkg') }),
    feature: (p) => ({ name: 'bashSnapshot', args: [join(p.repo, 'pkg')] }),
    check: (r) => expect(ok(r)).toMatchObject({ problem: null }),
  },
  {
    name: 'core.hooksPath naming a workspace folder with post-checkout',
    setup: all(
      hook('post-checkout', (p) => join(p.repo, 'tools', 'hooks')),
      (p) => p.git(['config', 'core.hooksPath', join(p.repo, 'tools', 'hooks')]),
    ),
    attack: (p) => ({ args: ['worktree', 'add', '-q', '-b', 'plain', join(p.root, 'wt-plain'), 'main'] }),
    feature: worktree,
    check: made,
  },
  {
    name: '.git/hooks/post-checkout on a review worktree',
    setup: hook('post-checkout'),
    attack: (p) => ({ args: ['worktree', 'add', '-q', '--detach', join(p.root, 'wt-plain'), 'side'] }),
    feature: (p) => ({ name: 'addReviewWorktree', args: [p.repo, join(p.root, 'wt-r'), 'side'] }),
    check: (r, p) => (ok(r), expect(readFileSync(join(p.root, 'wt-r', 'a.txt'), 'utf8')).toContain('SIDE')),
  },
  {
    name: '.git/hooks/reference-transaction on deleting a branch',
    setup: hook('reference-transaction'),
    attack: () => ({ args: ['branch', '-D', 'side'] }),
    feature: (p) => ({ name: 'deleteBranch', args: [p.repo, 'side'] }),
    check: (r, p) => (ok(r), expect(p.git(['branch', '--list', 'side'])).toBe('')),
  },
  {
    name: 'pre-merge-commit and post-merge hooks',
    setup: all(hook('pre-merge-commit'), hook('post-merge')),
    attack: () => ({ args: ['merge', '--no-ff', '--no-edit', '-m', 'plain', 'side'] }),
    feature: merge,
    check: merged,
  },
  {
    name: 'commit.gpgSign with gpg.program on a merge commit',
    setup: all(
      config('commit.gpgSign', () => 'true'),
      config('gpg.program', (p) => p.evil),
    ),
    attack: () => ({ args: ['merge', '--no-ff', '--no-edit', '-m', 'plain', 'side'] }),
    feature: merge,
    check: merged,
  },
  {
    name: 'a merge driver for the merged file',
    setup: all(
      attributes('a.txt merge=pick'),
      config('merge.pick.driver', (p) => `${p.evil} %O %A %B`),
      (p) => {
        // Both sides change the file, so git needs its merge driver.
        writeFileSync(join(p.repo, 'a.txt'), 'ONE\ntwo\nthree\n');
        p.git(['commit', '-q', '-am', 'main edits a.txt']);
      },
    ),
    attack: () => ({ args: ['merge', '--no-ff', '--no-edit', '-m', 'plain', 'side'] }),
    feature: merge,
    // The driver is not run; git's own merge cannot stand in for it, so the merge fails, naming the key.
    check: (r) => {
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toMatch(/failed and was undone[\s\S]*names merge\.pick\.driver = /);
    },
  },
  {
    name: 'a smudge filter on checkout',
    setup: all(
      attributes('*.txt filter=fx'),
      config('filter.fx.smudge', (p) => p.evilFilter),
    ),
    attack: (p) => ({ args: ['worktree', 'add', '-q', '-b', 'plain', join(p.root, 'wt-plain'), 'main'] }),
    feature: worktree,
    check: made,
  },
  {
    name: 'a clean filter on status',
    setup: all(
      attributes('*.txt filter=fx'),
      config('filter.fx.clean', (p) => p.evilFilter),
      touchTracked,
    ),
    attack: () => status,
    feature: changed,
    check: dirty,
  },
  {
    name: 'a required long-running filter process',
    setup: all(
      attributes('*.txt filter=fx'),
      config('filter.fx.process', (p) => p.evilFilter),
      config('filter.fx.required', () => 'true'),
      touchTracked,
    ),
    attack: () => status,
    feature: changed,
    check: dirty,
  },
  {
    name: 'a diff textconv driver',
    setup: all(
      attributes('*.txt diff=tx'),
      config('diff.tx.textconv', (p) => p.evilFilter),
    ),
    attack: () => ({ args: ['diff', 'main...side'] }),
    feature: (p) => ({ name: 'changedFiles', args: [p.repo, 'main', 'side'] }),
    check: (r) => expect(ok(r)).toEqual(['a.txt']),
  },
  {
    name: 'a diff driver command',
    setup: all(
      attributes('*.txt diff=tx'),
      config('diff.tx.command', (p) => p.evil),
    ),
    attack: () => ({ args: ['diff', 'main...side'] }),
    feature: (p) => ({ name: 'changedFiles', args: [p.repo, 'main', 'side'] }),
    check: (r) => expect(ok(r)).toEqual(['a.txt']),
  },
  {
    name: 'diff.external',
    setup: config('diff.external', (p) => p.evil),
    attack: () => ({ args: ['diff', 'main...side'] }),
    feature: (p) => ({ name: 'changedFiles', args: [p.repo, 'main', 'side'] }),
    check: (r) => expect(ok(r)).toEqual(['a.txt']),
  },
  {
    name: 'core.pager',
    setup: config('core.pager', (p) => p.evil),
    attack: () => ({ args: ['log', '-1'], tty: true }),
    feature: (p) => ({ name: 'listWorktrees', args: [p.repo] }),
    check: (r, p) => expect(ok(r)).toEqual([p.repo]),
  },
  {
    name: 'pager.status',
    setup: config('pager.status', (p) => p.evil),
    attack: () => ({ args: ['status'], tty: true }),
    feature: changed,
    check: clean,
  },
  {
    name: 'core.editor on a merge commit',
    setup: config('core.editor', (p) => p.evil),
    attack: () => ({ args: ['merge', '--no-ff', 'side'], tty: true }),
    feature: merge,
    check: merged,
  },
  {
    name: 'core.sshCommand with an ssh remote',
    setup: all(
      config('core.sshCommand', (p) => p.evil),
      (p) => p.git(['remote', 'add', 'up', 'ssh://example.invalid/x']),
    ),
    attack: () => ({ args: ['fetch', 'up'] }),
    feature: changed,
    check: clean,
  },
  {
    name: 'protocol.ext.allow=always with an ext:: remote',
    setup: all(
      config('protocol.ext.allow', () => 'always'),
      (p) => p.git(['remote', 'add', 'up', `ext::${p.evil} %S`]),
    ),
    attack: () => ({ args: ['fetch', 'up'] }),
    feature: changed,
    check: clean,
  },
  {
    name: 'credential.helper',
    setup: config('credential.helper', (p) => p.evil),
    attack: () => ({ args: ['credential', 'fill'], input: 'protocol=https\nhost=example.invalid\n\n' }),
    feature: merge,
    check: merged,
  },
  {
    name: 'core.askPass',
    setup: config('core.askPass', (p) => p.evil),
    attack: () => ({ args: ['credential', 'fill'], input: 'protocol=https\nhost=example.invalid\n\n' }),
    feature: merge,
    check: merged,
  },
  {
    name: 'a global filter whose program is a path inside the repository',
    setup: all(attributes('*.txt filter=gx'), touchTracked, (p) =>
      writeFileSync(join(p.home, '.gitconfig'), `[filter "gx"]\n\tclean = ./tools/evil-filter.sh\n`, { flag: 'a' }),
    ),
    attack: () => status,
    feature: changed,
    check: dirty,
  },
];

function plain(user: TestUser, p: Place, a: ReturnType<Row['attack']>) {
  const args = a.tty ? ['-qec', `git ${a.args.join(' ')}`, '/dev/null'] : a.args;
  return runAsUser(user, a.tty ? 'script' : 'git', args, {
    cwd: a.cwd ?? p.repo,
    env: envFor(p.home),
    input: a.input ?? '',
  });
}

describe.each(users)("Jarvis's own git calls never run a repository's programs, as $label", (user) => {
  it.each(rows)('$name', { timeout: 60_000 }, (row) => {
    // The attack is real: the plain command a user runs next runs the planted program.
    const proof = place(user);
    row.setup(proof);
    handOver(user, proof.root);
    plain(user, proof, row.attack(proof));
    expect(existsSync(proof.canary), `the plain command ran no planted program`).toBe(true);

    const p = place(user);
    row.setup(p);
    handOver(user, p.root);
    const f = row.feature(p);
    const result = features.call(user, f.name, f.args, { cwd: f.cwd ?? p.repo, env: envFor(p.home) });
    expect(existsSync(p.canary) ? readFileSync(p.canary, 'utf8') : '', 'a planted program ran').toBe('');
    row.check(result, p);
    rmSync(p.root, { recursive: true, force: true });
  });

  it("the user's own global filter outside the repository still runs (git lfs install's kind)", () => {
    const p = place(user);
    attributes('*.txt filter=lfs')(p);
    touchTracked(p);
    const tool = join(p.home, 'lfs-filter.sh');
    writeFileSync(tool, `#!/bin/sh\necho ran >> ${JSON.stringify(p.canary)}\ncat\n`);
    chmodSync(tool, 0o755);
    writeFileSync(join(p.home, '.gitconfig'), `[filter "lfs"]\n\tclean = ${tool}\n`, { flag: 'a' });
    handOver(user, p.root);
    const result = features.call(user, 'hasTrackedChanges', [p.repo], { cwd: p.repo, env: envFor(p.home) });
    expect(ok(result)).toBe(true);
    expect(readFileSync(p.canary, 'utf8')).toContain('ran');
  });
});
