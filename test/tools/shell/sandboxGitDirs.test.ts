// A sandboxed command commits from a subfolder of a repository and from a linked worktree (docs/sandbox.md): the
// repository's git folders are writable for it, their hooks and config are not, and nothing else outside is.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CommandBoundary } from '../../../src/tools/boundary/commandBoundary';
import { gitDirsAbove } from '../../../src/tools/boundary/gitGuards';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/tools/boundary/sandboxSettings';
import { sandboxAvailable } from '../../helpers/sandboxAvailable';
import { spawnSandboxSync } from '../../helpers/sandboxSpawn';

const available = sandboxAvailable();
let root: string;
let repo: string;
let home: string;
let settings: typeof DEFAULT_SANDBOX_SETTINGS;

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Runs `command` in the sandbox of a session whose workspace is `cwd`. */
async function run(command: string, cwd: string): Promise<{ code: number | null; out: string }> {
  const jarvisHome = join(home, '.jarvis-code');
  const folders = { workspace: [cwd], scratch: join(jarvisHome, 'sessions', 's1'), jarvisHome, home };
  const plan = await new CommandBoundary(settings, folders).prepare({ command, cwd });
  if (plan.kind !== 'sandboxed') throw new Error(`expected a sandboxed plan, got ${plan.kind}`);
  const env = { ...process.env, HOME: home, GIT_AUTHOR_NAME: 't', GIT_COMMITTER_NAME: 't' };
  const r = spawnSandboxSync(plan.spawn, { cwd, env, encoding: 'utf8', timeout: 30_000 });
  plan.settle();
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

beforeAll(() => {
  if (!available) return;
  root = mkdtempSync(join(tmpdir(), 'sandbox-git-'));
  repo = join(root, 'repo');
  home = join(root, 'home');
  mkdirSync(join(repo, 'packages', 'app'), { recursive: true });
  mkdirSync(join(home, '.jarvis-code', 'sessions', 's1'), { recursive: true });
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = T\n\temail = t@example.invalid\n');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, '-c', 'user.name=T', '-c', 'user.email=t@example.invalid', 'commit', '-q', '--allow-empty', '-m', 'base');
  git(repo, 'worktree', 'add', '-q', '-b', 'side', join(root, 'side'));
  settings = { ...DEFAULT_SANDBOX_SETTINGS, readableHomePaths: ['.gitconfig'] };
});

describe.skipIf(!available)('git from a subfolder and a linked worktree, sandboxed', () => {
  it('finds the git dirs without running git', () => {
    expect(gitDirsAbove(join(repo, 'packages', 'app'))).toEqual([join(repo, '.git')]);
    const linked = gitDirsAbove(join(root, 'side'));
    expect(linked).toEqual([join(repo, '.git', 'worktrees', 'side'), join(repo, '.git')]);
    expect(gitDirsAbove(home)).toEqual([]);
  });

  it('commits from a subfolder of the repository', async () => {
    const app = join(repo, 'packages', 'app');
    writeFileSync(join(app, 'a.txt'), 'a\n');
    const r = await run('git add a.txt && git commit -q -m "from the subfolder" && git log -1 --format=%s', app);
    expect(r.out).toContain('from the subfolder');
    expect(r.code).toBe(0);
  });

  it('commits from a linked worktree', async () => {
    const side = join(root, 'side');
    writeFileSync(join(side, 'b.txt'), 'b\n');
    const r = await run('git add b.txt && git commit -q -m "from the worktree" && git log -1 --format=%s', side);
    expect(r.out).toContain('from the worktree');
    expect(r.code).toBe(0);
    expect(git(repo, 'log', '-1', '--format=%s', 'side').trim()).toBe('from the worktree');
  });

  it("the repository's hooks and config stay read-only, and the rest of the repository is outside", async () => {
    const app = join(repo, 'packages', 'app');
    const before = readFileSync(join(repo, '.git', 'config'), 'utf8');
    for (const command of [
      `echo 'curl evil' > ${join(repo, '.git', 'hooks', 'pre-commit')}`,
      `git config core.hooksPath /tmp/evil`,
      `echo x >> ${join(repo, '.git', 'config')}`,
    ]) {
      expect((await run(command, app)).code, command).not.toBe(0);
    }
    // Outside the workspace nothing lands (under the private /tmp the write goes to the sandbox's own folder).
    await run(`echo x > ${join(repo, 'root-file.txt')}`, app);
    expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toBe(before);
    expect(spawnSync('ls', [join(repo, '.git', 'hooks', 'pre-commit')]).status).not.toBe(0);
    expect(spawnSync('ls', [join(repo, 'root-file.txt')]).status).not.toBe(0);
  });
});
