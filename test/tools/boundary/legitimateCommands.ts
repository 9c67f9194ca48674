// The legitimate forms of what the attack corpus (attackCorpus.ts) attacks (docs/trust-boundary.md): commits from
// the workspace, a subfolder, a linked worktree and a nested repository, a new repository, a worktree, a clone, a
// package's tests and a build — each must work through the trust boundary with nothing moved aside.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureEnv, git, write, type AttackFixture } from './attackCorpus';

/** What the same kinds of commands do legitimately: each must work through the boundary, nothing moved aside. */
export interface LegitimateCase {
  name: string;
  setup?(fx: AttackFixture): void;
  command: string;
  cwd?(fx: AttackFixture): string;
  /** What is wrong after it ran (undefined: it worked). */
  check(fx: AttackFixture, output: string): string | undefined;
}

const committed = (fx: AttackFixture, cwd: string, subject: string) => {
  const r = spawnSync('git', ['log', '-1', '--format=%s'], { cwd, encoding: 'utf8', env: fixtureEnv(fx) });
  return r.stdout.trim() === subject
    ? undefined
    : `the last commit in ${cwd} is "${r.stdout.trim()}", not "${subject}"`;
};

export const LEGITIMATE: LegitimateCase[] = [
  {
    name: 'git commit in the workspace',
    command: 'echo b > b.txt && git add b.txt && git commit -q -m "from the workspace"',
    check: (fx) => committed(fx, fx.ws, 'from the workspace'),
  },
  {
    name: 'git commit from a subfolder',
    setup: (fx) => mkdirSync(join(fx.ws, 'src', 'app'), { recursive: true }),
    cwd: (fx) => join(fx.ws, 'src', 'app'),
    command: 'echo c > c.txt && git add c.txt && git commit -q -m "from a subfolder"',
    check: (fx) => committed(fx, fx.ws, 'from a subfolder'),
  },
  {
    name: 'git commit in a linked worktree inside the workspace',
    setup: (fx) => git(fx, fx.ws, 'worktree', 'add', '-q', '-b', 'side', join(fx.ws, 'wt')),
    command: 'cd wt && echo d > d.txt && git add d.txt && git commit -q -m "from the worktree"',
    check: (fx) => committed(fx, join(fx.ws, 'wt'), 'from the worktree'),
  },
  {
    name: 'git commit in a nested repository',
    setup: (fx) => {
      mkdirSync(join(fx.ws, 'vendor', 'lib'), { recursive: true });
      git(fx, join(fx.ws, 'vendor', 'lib'), 'init', '-q');
    },
    command: 'cd vendor/lib && echo e > e.txt && git add e.txt && git commit -q -m "in the nested one"',
    check: (fx) => committed(fx, join(fx.ws, 'vendor', 'lib'), 'in the nested one'),
  },
  {
    name: 'git init of a new repository, and a commit in it',
    command: 'mkdir newproj && cd newproj && git init -q && echo f > f.txt && git add f.txt && git commit -q -m new',
    check: (fx) =>
      existsSync(join(fx.ws, 'newproj', '.git', 'HEAD'))
        ? committed(fx, join(fx.ws, 'newproj'), 'new')
        : 'newproj/.git is gone',
  },
  {
    name: 'git worktree add inside the workspace, and a commit in it',
    command: 'git worktree add -q -b feature wt2 && cd wt2 && echo g > g.txt && git add g.txt && git commit -q -m wt2',
    check: (fx) =>
      existsSync(join(fx.ws, 'wt2', '.git')) ? committed(fx, join(fx.ws, 'wt2'), 'wt2') : 'wt2/.git is gone',
  },
  {
    name: 'git clone of a local repository into the workspace',
    command: 'git clone -q "$PWD" copy && git -C copy log -1 --format=%s',
    check: (fx, out) =>
      existsSync(join(fx.ws, 'copy', '.git', 'HEAD')) && out.includes('first') ? undefined : 'the clone is gone',
  },
  {
    name: 'npm test of a fixture package',
    setup: (fx) => {
      write(
        join(fx.ws, 'package.json'),
        JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'node t.js' } }),
      );
      write(join(fx.ws, 't.js'), "require('fs').writeFileSync('result.txt', 'ok'); console.log('1 passed');\n");
    },
    command: 'npm test',
    check: (fx, out) =>
      out.includes('1 passed') && readFileSync(join(fx.ws, 'result.txt'), 'utf8') === 'ok' ? undefined : out,
  },
  {
    name: 'a build writing its output',
    command: "mkdir -p dist && node -e \"require('fs').writeFileSync('dist/app.js', 'built')\" && cat dist/app.js",
    check: (_fx, out) => (out.includes('built') ? undefined : out),
  },
];
