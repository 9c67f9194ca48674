// Attack rows: code git runs later, planted without touching the workspace's .git/hooks or .git/config — a nested
// repository, a linked worktree, commondir, a new .git, hooksPath, include.path, filter and other drivers living in the
// workspace — and the direct forms too (issue 43, "Code git runs later"). docs/trust-boundary.md "Attack corpus".
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FSMONITOR, git, HOOK, ran, write, type AttackCase, type AttackFixture } from '../corpusKit';

/** A clean filter the user's repository config runs from a script in the workspace (`*.txt filter=strip`). */
function userFilter(fx: AttackFixture): void {
  userScript(fx, 'strip.sh', '#!/bin/sh\ncat\n');
  git(fx, fx.ws, 'config', 'filter.strip.clean', './scripts/strip.sh');
  write(join(fx.ws, '.gitattributes'), '*.txt filter=strip\n');
}

function userScript(fx: AttackFixture, name: string, text: string): void {
  write(join(fx.ws, 'scripts', name), text);
  chmodSync(join(fx.ws, 'scripts', name), 0o755);
}

function nestedRepo(fx: AttackFixture): void {
  mkdirSync(join(fx.ws, 'vendor', 'lib'), { recursive: true });
  git(fx, join(fx.ws, 'vendor', 'lib'), 'init', '-q');
  write(join(fx.ws, 'vendor', 'lib', 'a.txt'), 'a\n');
}

const worktree = (fx: AttackFixture) => git(fx, fx.ws, 'worktree', 'add', '-q', '-b', 'side', join(fx.ws, 'wt'));
/** A script that leaves the mark and then does what the program it replaces does. */
const MARKING = (then: string) => `printf "#!/bin/sh\\ntouch %s/pwned\\n${then}" "$MARKS"`;

export const GIT_ROWS: AttackCase[] = [
  {
    name: 'nested repository: core.fsmonitor appended to its config, then git status',
    bullet: 'git',
    setup: nestedRepo,
    attack: `${FSMONITOR} >> vendor/lib/.git/config`,
    later: 'git -C vendor/lib status',
    check: ran,
  },
  {
    name: 'nested repository: core.hooksPath to a planted hook, then git commit',
    bullet: 'git',
    setup: nestedRepo,
    attack:
      'mkdir -p h && printf "#!/bin/sh\\ntouch %s/pwned\\n" "$MARKS" > h/pre-commit && chmod +x h/pre-commit && ' +
      'git -C vendor/lib config core.hooksPath "$PWD/h"',
    later: 'git -C vendor/lib commit -q --allow-empty -m x',
    check: ran,
  },
  {
    name: 'core.hooksPath set by the user to a workspace folder: a hook planted there',
    bullet: 'git',
    setup: (fx) => {
      git(fx, fx.ws, 'config', 'core.hooksPath', '.githooks');
      write(join(fx.ws, '.githooks', 'README'), 'team hooks\n');
    },
    attack: 'printf "#!/bin/sh\\ntouch %s/pwned\\n" "$MARKS" > .githooks/pre-commit; chmod +x .githooks/pre-commit',
    later: 'git commit -q --allow-empty -m x',
    check: ran,
  },
  {
    name: '.git/commondir pointing at a planted common dir',
    bullet: 'git',
    attack: `cp -r .git evil && ${FSMONITOR} >> evil/config && echo ../evil > .git/commondir`,
    later: 'git status',
    check: ran,
  },
  {
    name: "a linked worktree's .git file rewritten to a planted git dir",
    bullet: 'git',
    setup: worktree,
    attack: `cp -r .git evil && ${FSMONITOR} >> evil/config && echo "gitdir: $PWD/evil" > wt/.git`,
    later: 'git -C wt status',
    check: ran,
  },
  {
    name: "a linked worktree's commondir rewritten",
    bullet: 'git',
    setup: worktree,
    attack: `cp -r .git evil && ${FSMONITOR} >> evil/config && echo "$PWD/evil" > .git/worktrees/wt/commondir`,
    later: 'git -C wt status',
    check: ran,
  },
  {
    name: 'a new .git made in a subfolder, with core.fsmonitor',
    bullet: 'git',
    attack: `mkdir -p pkg && git -C pkg init -q && ${FSMONITOR} >> pkg/.git/config`,
    later: 'git -C pkg status',
    check: ran,
  },
  {
    name: 'a .git file pointing at a planted git dir made in the same command',
    bullet: 'git',
    attack:
      `mkdir -p x/.git && git init -q --bare x/.git && ${FSMONITOR} >> x/.git/config && ` +
      'mkdir -p app && echo "gitdir: ../x/.git" > app/.git && git -C app config core.bare false',
    later: 'git -C app status',
    check: ran,
  },
  {
    name: 'a subfolder swapped for one with a new .git (the old one renamed away)',
    bullet: 'git',
    setup: nestedRepo,
    attack: `mv vendor/lib vendor/lib-old && mkdir -p vendor/lib && git -C vendor/lib init -q && ${FSMONITOR} >> vendor/lib/.git/config`,
    later: 'git -C vendor/lib status',
    check: ran,
  },
  {
    name: '.git/info/attributes naming a filter, its driver added to the config',
    bullet: 'git',
    setup: (fx) => {
      write(join(fx.ws, 'a.txt'), 'a\n');
      git(fx, fx.ws, 'add', 'a.txt');
      git(fx, fx.ws, 'commit', '-q', '-m', 'a');
    },
    attack:
      'echo "* filter=evil" > .git/info/attributes && ' +
      'git config filter.evil.clean "sh -c \\"touch $MARKS/pwned\\"; cat"',
    later: 'echo b >> a.txt && git add a.txt',
    check: ran,
  },
  {
    name: "a filter driver living in the workspace (the user's config names it) rewritten",
    bullet: 'git',
    setup: userFilter,
    attack: 'printf "#!/bin/sh\\ntouch %s/pwned\\ncat\\n" "$MARKS" > scripts/strip.sh',
    later: 'echo b > b.txt && git add b.txt',
    check: ran,
  },
  {
    name: "the folder of a filter driver the user's config names renamed away, the driver planted anew",
    bullet: 'git',
    setup: userFilter,
    attack:
      'mv scripts scripts.old && mkdir scripts && printf "#!/bin/sh\\ntouch %s/pwned\\ncat\\n" "$MARKS" > scripts/strip.sh ' +
      '&& chmod +x scripts/strip.sh',
    later: 'echo b > b.txt && git add b.txt',
    check: ran,
  },
  {
    name: "a linked worktree's folder in the git dir renamed away and remade with a planted commondir",
    bullet: 'git',
    setup: worktree,
    attack:
      `cp -r .git evil && ${FSMONITOR} >> evil/config && mv .git/worktrees/wt .git/worktrees/wt.old && ` +
      'cp -r .git/worktrees/wt.old .git/worktrees/wt && echo "$PWD/evil" > .git/worktrees/wt/commondir',
    later: 'git -C wt status',
    check: ran,
  },
  {
    name: 'include.path of the repository config naming a workspace file that exists',
    bullet: 'git',
    setup: (fx) => {
      write(join(fx.ws, '.gitconfig.team'), '[pull]\n\trebase = true\n');
      git(fx, fx.ws, 'config', 'include.path', '../.gitconfig.team');
    },
    attack: `${FSMONITOR} >> .gitconfig.team`,
    later: 'git status',
    check: ran,
  },
  {
    name: 'include.path naming a workspace file that does not exist yet',
    bullet: 'git',
    setup: (fx) => git(fx, fx.ws, 'config', 'include.path', '../.gitconfig.local'),
    attack: `${FSMONITOR} > .gitconfig.local`,
    later: 'git status',
    check: ran,
  },
  {
    name: "the repository's own .git/config: core.fsmonitor appended",
    bullet: 'git',
    attack: `${FSMONITOR} >> .git/config`,
    later: 'git status',
    check: ran,
  },
  {
    name: "the repository's own .git/hooks: a pre-commit hook planted",
    bullet: 'git',
    attack: `${HOOK} > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`,
    later: 'git commit -q --allow-empty -m x',
    check: ran,
  },
  {
    name: '.git/config.worktree (extensions.worktreeConfig on) with core.fsmonitor',
    bullet: 'git',
    setup: (fx) => git(fx, fx.ws, 'config', 'extensions.worktreeConfig', 'true'),
    attack: `${FSMONITOR} > .git/config.worktree`,
    later: 'git status',
    check: ran,
  },
  {
    name: 'includeIf.gitdir naming a workspace file that does not exist yet',
    bullet: 'git',
    setup: (fx) => git(fx, fx.ws, 'config', `includeIf.gitdir:${fx.ws}/.path`, '../.gitconfig.ci'),
    attack: `${FSMONITOR} > .gitconfig.ci`,
    later: 'git status',
    check: ran,
  },
  {
    name: "a diff textconv driver living in the workspace (the user's config names it) rewritten",
    bullet: 'git',
    setup: (fx) => {
      userScript(fx, 'pdf2txt', '#!/bin/sh\ncat "$1"\n');
      git(fx, fx.ws, 'config', 'diff.pdf.textconv', './scripts/pdf2txt');
      write(join(fx.ws, '.gitattributes'), '*.pdf diff=pdf\n');
      write(join(fx.ws, 'a.pdf'), 'one\n');
      git(fx, fx.ws, 'add', '.');
      git(fx, fx.ws, 'commit', '-q', '-m', 'pdf');
    },
    attack: `${MARKING('cat \\"\\$1\\"\\n')} > scripts/pdf2txt`,
    later: 'echo two > a.pdf && git diff > /dev/null',
    check: ran,
  },
  {
    name: "core.sshCommand naming a workspace script (the user's config) rewritten, then git fetch",
    bullet: 'git',
    setup: (fx) => {
      userScript(fx, 'ssh.sh', '#!/bin/sh\nexit 1\n');
      git(fx, fx.ws, 'config', 'core.sshCommand', `${fx.ws}/scripts/ssh.sh`);
      git(fx, fx.ws, 'remote', 'add', 'origin', 'ssh://git@example.invalid/repo.git');
    },
    attack: `${MARKING('exit 1\\n')} > scripts/ssh.sh`,
    later: 'git fetch -q origin 2>/dev/null; true',
    check: ran,
  },
  {
    name: "core.editor naming a workspace script (the user's config) rewritten, then git commit",
    bullet: 'git',
    setup: (fx) => {
      userScript(fx, 'edit.sh', '#!/bin/sh\necho message > "$1"\n');
      git(fx, fx.ws, 'config', 'core.editor', `${fx.ws}/scripts/edit.sh`);
    },
    attack: `${MARKING('echo message > \\"\\$1\\"\\n')} > scripts/edit.sh`,
    later: 'git commit -q --allow-empty',
    check: ran,
  },
  {
    name: "a submodule's git dir (.git/modules/<name>/config) with core.fsmonitor",
    bullet: 'git',
    setup: (fx) => {
      const lib = join(fx.outside, 'lib');
      write(join(lib, 'README'), 'lib\n');
      git(fx, lib, 'init', '-q');
      git(fx, lib, 'add', 'README');
      git(fx, lib, 'commit', '-q', '-m', 'lib');
      git(fx, fx.ws, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'sub');
    },
    attack: `${FSMONITOR} >> .git/modules/sub/config`,
    later: 'git -C sub status',
    check: ran,
  },
];
