// The session's trust boundary (docs/trust-boundary.md): its facts for the approval stage, one policy whatever the
// command's working folder, masks kept current between commands without a walk, an agent's own folder, and a refusal
// (never an unconfined run) when the boundary cannot be built; hidden folders inside hidden folders.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CommandBoundary } from '../../../src/tools/boundary/commandBoundary';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../../../src/tools/boundary/sandboxSettings';
import { sandboxAvailable } from '../../helpers/sandboxAvailable';
import { runSandboxSpawn } from '../../helpers/sandboxSpawn';

const available = sandboxAvailable();

function session(settings: Partial<SandboxSettings> = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'boundary-')));
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  const jarvisHome = join(home, '.jarvis-code');
  const scratch = join(jarvisHome, 'sessions', 'p', 's');
  const extra = join(root, 'cache');
  for (const d of [ws, scratch, extra]) mkdirSync(d, { recursive: true });
  const folders = { workspace: [ws], scratch, jarvisHome, home };
  const boundary = new CommandBoundary({ ...DEFAULT_SANDBOX_SETTINGS, writablePaths: [extra], ...settings }, folders);
  return { root, ws, home, jarvisHome, scratch, extra, boundary };
}

/** The paths bwrap binds writable in `args`. */
function writableIn(args: readonly string[]): string[] {
  return args.flatMap((a, i) => (a === '--bind' ? [args[i + 1]] : []));
}

describe.skipIf(!available)('the session boundary', () => {
  it('says where a command runs and whether its folder is outside the writable roots', () => {
    const s = session();
    expect(s.boundary.facts({ cwd: s.ws })).toEqual({ confinement: 'sandboxed', escalation: false });
    expect(s.boundary.facts({ cwd: join(s.ws, '..') })).toMatchObject({ outsideRoots: s.root });
    expect(s.boundary.facts({ cwd: s.home, unsandboxed: true })).toEqual({
      confinement: 'unsandboxed',
      escalation: true,
      outsideRoots: s.home,
    });
    expect(s.boundary.facts({ cwd: s.extra })).not.toHaveProperty('outsideRoots');
    expect(s.boundary.facts({ cwd: s.scratch })).not.toHaveProperty('outsideRoots');
    const off = session({ enabled: false });
    expect(off.boundary.facts({ cwd: off.home })).toEqual({
      confinement: 'unsandboxed',
      escalation: false,
      outsideRoots: off.home,
    });
  });

  it('builds the same writable folders whatever folder the command runs in', async () => {
    const s = session();
    const inWs = await s.boundary.prepare({ command: 'true', cwd: s.ws });
    const inHome = await s.boundary.prepare({ command: 'true', cwd: s.home });
    if (inWs.kind !== 'sandboxed' || inHome.kind !== 'sandboxed') throw new Error('expected sandboxed runs');
    expect(writableIn(inHome.spawn.args)).toEqual(writableIn(inWs.spawn.args));
    expect(writableIn(inHome.spawn.args)).not.toContain(s.home);
    expect(writableIn(inWs.spawn.args).sort()).toEqual([s.ws, s.scratch, s.extra].sort());
    inWs.settle();
    inHome.settle();
  });

  it('hides a secret file made between two commands, without walking the workspace again', async () => {
    const s = session();
    const first = await s.boundary.prepare({ command: 'true', cwd: s.ws });
    if (first.kind !== 'sandboxed') throw new Error('expected a sandboxed run');
    expect(first.spawn.args).not.toContain(join(s.ws, 'app', '.env'));
    first.settle();
    mkdirSync(join(s.ws, 'app'));
    writeFileSync(join(s.ws, 'app', '.env'), 'K=v');
    const second = await s.boundary.prepare({ command: 'true', cwd: s.ws });
    if (second.kind !== 'sandboxed') throw new Error('expected a sandboxed run');
    expect(second.spawn.args).toContain(join(s.ws, 'app', '.env'));
    second.settle();
  });

  it('gives an agent working in its own folder the boundary of that folder', async () => {
    const s = session();
    const worktree = join(s.ws, '.tower', 'worktrees', 'm1');
    mkdirSync(worktree, { recursive: true });
    const own = s.boundary.forWorkspace(worktree);
    expect(own).not.toBe(s.boundary);
    expect(s.boundary.forWorkspace(worktree)).toBe(own);
    expect(s.boundary.forWorkspace(s.ws)).toBe(s.boundary);
    const run = await own.prepare({ command: 'true', cwd: worktree });
    if (run.kind !== 'sandboxed') throw new Error('expected a sandboxed run');
    expect(writableIn(run.spawn.args)).toContain(worktree);
    expect(writableIn(run.spawn.args)).not.toContain(s.ws);
    run.settle();
  });

  it('takes a guarded name that is a file where a folder is expected (.vscode, .claude) as it is', async () => {
    const s = session();
    writeFileSync(join(s.ws, '.vscode'), 'not a folder');
    writeFileSync(join(s.ws, '.claude'), 'not a folder');
    const run = await s.boundary.prepare({ command: 'true', cwd: s.ws });
    expect(run.kind).toBe('sandboxed');
    if (run.kind === 'sandboxed') expect(run.settle()).toEqual([]);
  });

  it('says once which folders it could not search, and hides them', async () => {
    const s = session();
    for (const d of ['a', 'b', 'c']) mkdirSync(join(s.ws, d, 'deep'), { recursive: true });
    const folders = { workspace: [s.ws], scratch: s.scratch, jarvisHome: s.jarvisHome, home: s.home };
    const small = new CommandBoundary(DEFAULT_SANDBOX_SETTINGS, folders, undefined, { maxEntries: 2 });
    const first = await small.prepare({ command: 'true', cwd: s.ws });
    const second = await small.prepare({ command: 'true', cwd: s.ws });
    if (first.kind !== 'sandboxed' || second.kind !== 'sandboxed') throw new Error('expected sandboxed runs');
    expect(first.notes.join('\n')).toMatch(/could not search \d+ folder\(s\) of the workspace for secret files/);
    expect(second.notes).toEqual([]);
    expect(second.spawn.args).toContain(join(s.ws, 'c'));
    first.settle();
    second.settle();
  });

  it('refuses, saying why, when the boundary cannot be built', async () => {
    const s = session();
    // JARVIS_CODE_HOME is a file: the hidden-file note cannot be written beside it.
    const broken = new CommandBoundary(DEFAULT_SANDBOX_SETTINGS, {
      workspace: [s.ws],
      scratch: s.scratch,
      jarvisHome: join(s.ws, 'not-a-folder'),
      home: s.home,
    });
    writeFileSync(join(s.ws, 'not-a-folder'), '');
    const run = await broken.prepare({ command: 'true', cwd: s.ws });
    expect(run.kind).toBe('refused');
    if (run.kind === 'refused')
      expect(run.message).toMatch(/^Cannot run the command: the command sandbox could not be set up: /);
  });
});

/** Runs `command` through `boundary` as Bash does, with HOME set; its exit code and output. */
async function runIn(boundary: CommandBoundary, command: string, cwd: string, home: string) {
  const run = await boundary.prepare({ command, cwd });
  if (run.kind !== 'sandboxed') throw new Error(`expected a sandboxed run, got ${run.kind}`);
  const r = await runSandboxSpawn(run.spawn, { cwd, env: { ...process.env, HOME: home } });
  run.settle();
  return r;
}

describe.skipIf(!available)('hidden folders inside hidden folders', () => {
  it('runs commands when JARVIS_CODE_HOME is the home folder and ~/.claude exists', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'boundary-home-')));
    const ws = join(root, 'ws');
    const home = join(root, 'home');
    const scratch = join(home, 'sessions', 'p', 's');
    for (const d of [ws, scratch, join(home, '.claude', 'commands')]) mkdirSync(d, { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), '{"CLAUDE-SECRET": 1}\n');
    writeFileSync(join(home, '.claude', 'commands', 'review.md'), 'Review\n');
    writeFileSync(join(home, 'config.toml'), '# JARVIS-SECRET\n');
    const folders = { workspace: [ws], scratch, jarvisHome: home, home };
    const boundary = new CommandBoundary(DEFAULT_SANDBOX_SETTINGS, folders);
    const r = await runIn(
      boundary,
      'echo ran; ls -A "$HOME" "$HOME/.claude"; cat "$HOME"/.claude/* "$HOME"/config.toml',
      ws,
      home,
    );
    expect(r.stderr).not.toMatch(/^bwrap: /m);
    expect(r.out).toContain('ran');
    expect(r.out).not.toMatch(/CLAUDE-SECRET|JARVIS-SECRET|review\.md/);
    expect((await runIn(boundary, 'echo made > made.txt && cat made.txt', ws, home)).out).toBe('made\n');
  });

  it('still hides a secret inside a workspace that is inside a hidden folder', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'boundary-home-')));
    const home = join(root, 'home');
    const ws = join(home, '.work', 'ws');
    const jarvisHome = join(home, '.jarvis-code');
    const scratch = join(jarvisHome, 'sessions', 'p', 's');
    for (const d of [ws, scratch]) mkdirSync(d, { recursive: true });
    writeFileSync(join(ws, '.env'), 'WS-SECRET=1\n');
    writeFileSync(join(home, '.work', 'notes.txt'), 'NOTES-SECRET\n');
    const boundary = new CommandBoundary(DEFAULT_SANDBOX_SETTINGS, { workspace: [ws], scratch, jarvisHome, home });
    const r = await runIn(boundary, 'cat .env ../notes.txt; echo x > built.txt && cat built.txt', ws, home);
    expect(r.stderr).not.toMatch(/^bwrap: /m);
    expect(r.out).not.toMatch(/WS-SECRET|NOTES-SECRET/);
    expect(r.out).toContain('x\n');
  });
});
