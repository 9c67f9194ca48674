// The repositories of the git attack rows (test/platform/gitGuard.attacks.test.ts): a real repository owned by the
// row's user, with `main` and `side` branches, programs that record in a canary outside it when they run, and the
// small steps a row plants with (a config key, a hook, an attributes line).
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handOver, runAsUser, shareWithUsers, type TestUser } from './sandboxUsers';
import { tempDir } from './files';

export /** One row's folders: the repository, the user's home (global config), the canary and the planted programs. */
interface Place {
  root: string;
  repo: string;
  home: string;
  canary: string;
  /** A program that records that it ran (and reads nothing). */
  evil: string;
  /** The same, passing its input through (a filter). */
  evilFilter: string;
  git(args: string[], cwd?: string, input?: string): string;
  /** Gives the user everything under the row's folder again (after the test made folders there). */
  own(): void;
}

/** A fresh repository for `user`: `main` (a.txt, b.txt) and `side` (a.txt changed), owned by that user. */
export function place(user: TestUser): Place {
  const root = tempDir('jarvis-git-attack-');
  shareWithUsers(root);
  const p = {
    root,
    repo: join(root, 'repo'),
    home: join(root, 'home'),
    canary: join(root, 'canary'),
    evil: join(root, 'repo', 'tools', 'evil.sh'),
    evilFilter: join(root, 'repo', 'tools', 'evil-filter.sh'),
  };
  mkdirSync(join(p.repo, 'tools'), { recursive: true });
  mkdirSync(p.home);
  const record = `echo "$(basename "$0") $*" >> ${JSON.stringify(p.canary)}`;
  writeFileSync(p.evil, `#!/bin/sh\n${record}\nexit 0\n`);
  writeFileSync(p.evilFilter, `#!/bin/sh\n${record}\ncat\n`);
  chmodSync(p.evil, 0o755);
  chmodSync(p.evilFilter, 0o755);
  writeFileSync(join(p.home, '.gitconfig'), '[user]\n\tname = Row\n\temail = row@example.invalid\n');
  handOver(user, root);
  const env = envFor(p.home);
  const git = (args: string[], cwd = p.repo, input?: string) => {
    const r = runAsUser(user, 'git', args, { cwd, env, input });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${r.stderr}`);
    return r.stdout.trim();
  };
  git(['init', '-q', '-b', 'main']);
  writeFileSync(join(p.repo, 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(join(p.repo, '.gitignore'), 'tools/\n');
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'first']);
  git(['checkout', '-q', '-b', 'side']);
  writeFileSync(join(p.repo, 'a.txt'), 'one\ntwo\nSIDE\n');
  git(['commit', '-q', '-am', 'side']);
  git(['checkout', '-q', 'main']);
  writeFileSync(join(p.repo, 'b.txt'), 'main\n');
  git(['add', 'b.txt']);
  git(['commit', '-q', '-m', 'main']);
  handOver(user, root);
  return { ...p, git, own: () => handOver(user, root) };
}

export function envFor(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, LANG: 'C' };
}

export const config = (key: string, value: (p: Place) => string) => (p: Place) => p.git(['config', key, value(p)]);
export const hook =
  (name: string, dir = (p: Place) => join(p.repo, '.git', 'hooks')) =>
  (p: Place) => {
    mkdirSync(dir(p), { recursive: true });
    writeFileSync(join(dir(p), name), readFileSync(p.evil));
    chmodSync(join(dir(p), name), 0o755);
  };
export const attributes = (line: string) => (p: Place) => {
  writeFileSync(join(p.repo, '.gitattributes'), `${line}\n`);
  p.git(['add', '.gitattributes']);
  p.git(['commit', '-q', '-m', 'attributes']);
};
export const all =
  (...steps: Array<(p: Place) => void>) =>
  (p: Place) =>
    steps.forEach((s) => s(p));
export const touchTracked = (p: Place) => writeFileSync(join(p.repo, 'a.txt'), 'ONE\ntwo\nthree\n');
