// Runs one row of the attack corpus (attackCorpus.ts) in a fresh fixture, either in plain bash (proving the attack
// works) or through the session's trust boundary (CommandBoundary: prepare, run inside bwrap, settle), then does what
// the user does next outside any sandbox and asks the row whether the attack got anything. Through the boundary it
// also compares every file outside the workspace before and after (the canaries).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnShell } from '../../../src/platform/processes';
import { CommandBoundary } from '../../../src/tools/boundary/commandBoundary';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/tools/boundary/sandboxSettings';
import { fixtureEnv, git, write, type AttackCase, type AttackFixture } from './attackCorpus';
import type { LegitimateCase } from './legitimateCommands';

export interface AttackOutcome {
  /** What the attack got (undefined: nothing). */
  got?: string;
  /** Files outside the workspace that changed (through the boundary only). */
  canaries: string[];
  /** The command's output, and what the boundary said after it. */
  output: string;
  said: string[];
}

export function makeFixture(): AttackFixture {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'boundary-attack-')));
  const jarvis = join(root, 'home', '.jarvis-code');
  const fx: AttackFixture = {
    root,
    ws: join(root, 'ws'),
    home: join(root, 'home'),
    jarvis,
    scratch: join(jarvis, 'sessions', 'p', 's1'),
    outside: join(root, 'outside'),
    marks: join(root, 'marks'),
  };
  for (const dir of [fx.ws, fx.scratch, fx.marks]) mkdirSync(dir, { recursive: true });
  write(join(fx.outside, 'notes.txt'), 'the user’s notes\n');
  write(join(fx.home, '.gitconfig'), '[user]\n\tname = Corpus\n\temail = corpus@example.invalid\n');
  write(join(fx.home, '.bashrc'), '# the user’s bashrc\n');
  git(fx, fx.ws, 'init', '-q', '-b', 'main');
  write(join(fx.ws, 'README.md'), '# project\n');
  git(fx, fx.ws, 'add', 'README.md');
  git(fx, fx.ws, 'commit', '-q', '-m', 'first');
  return fx;
}

export async function runPlain(c: AttackCase): Promise<AttackOutcome> {
  const fx = makeFixture();
  c.setup?.(fx);
  const cwd = c.cwd?.(fx) ?? fx.ws;
  const child = spawn('bash', ['-c', c.attack], { cwd, env: fixtureEnv(fx), stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collect(child);
  if (c.during) {
    c.during(fx);
    writeFileSync(join(fx.ws, '.release'), '');
  }
  const out = await output;
  await later(c, fx);
  return { got: c.check(fx, out), canaries: [], output: out, said: [] };
}

export async function runThroughBoundary(c: AttackCase, maxEntries?: number): Promise<AttackOutcome> {
  const fx = makeFixture();
  c.setup?.(fx);
  const workspace = c.workspace?.(fx) ?? fx.ws;
  const cwd = c.cwd?.(fx) ?? fx.ws;
  const boundary = sessionBoundary(fx, workspace, maxEntries);
  await boundary.warmUp();
  const before = outsideFiles(fx, workspace);
  const { run, child } = await startSandboxed(boundary, fx, c.attack, cwd);
  const output = collect(child);
  if (c.during) {
    const stopped = new Promise<string>((resolve) => {
      run.started({
        stop: (reason) => {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
          resolve(reason);
        },
      });
    });
    c.during(fx);
    // The boundary looks at the workspace while the command runs; the command goes on only after it did (or after a
    // bound, when the check below then fails on what leaked). A stopped command is waited for until it is gone.
    const bound = new Promise((resolve) => setTimeout(resolve, 60_000).unref());
    const first = await Promise.race([stopped.then(() => 'stopped'), output.then(() => 'ended'), bound]);
    if (first === 'stopped') await output;
    writeFileSync(join(fx.ws, '.release'), '');
  }
  const out = await output;
  const said = run.settle();
  await later(c, fx);
  await boundary.close();
  const after = outsideFiles(fx, workspace);
  const canaries = [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p));
  return { got: c.check(fx, out), canaries, output: out, said };
}

/** A legitimate command through the boundary: what is wrong after it (undefined: it worked), and what was said. */
export async function runLegitimate(c: LegitimateCase): Promise<{ problem?: string; said: string[]; output: string }> {
  const fx = makeFixture();
  c.setup?.(fx);
  const cwd = c.cwd?.(fx) ?? fx.ws;
  const boundary = sessionBoundary(fx, fx.ws);
  const { run, child } = await startSandboxed(boundary, fx, c.command, cwd);
  const output = await collect(child);
  const said = run.settle();
  await boundary.close();
  const problem = said.length ? `the boundary moved something aside: ${said.join('\n')}` : c.check(fx, output);
  return { ...(problem ? { problem } : {}), said, output };
}

function sessionBoundary(fx: AttackFixture, workspace: string, maxEntries?: number): CommandBoundary {
  const folders = { workspace: [workspace], scratch: fx.scratch, jarvisHome: fx.jarvis, home: fx.home };
  return new CommandBoundary(DEFAULT_SANDBOX_SETTINGS, folders, undefined, { maxEntries });
}

/**
 * Prepares `command` and starts it inside the sandbox as Bash does (spawnShell: the seccomp filter through its pipe),
 * leading its own process group (stopped as one).
 */
async function startSandboxed(boundary: CommandBoundary, fx: AttackFixture, command: string, cwd: string) {
  const run = await boundary.prepare({ command, cwd });
  if (run.kind !== 'sandboxed') throw new Error(`expected a sandboxed run, got ${run.kind}`);
  const child = spawnShell(command, { cwd, env: fixtureEnv(fx), sandbox: run.spawn });
  return { run, child };
}

async function later(c: AttackCase, fx: AttackFixture): Promise<void> {
  if (!c.later) return;
  const cwd = c.workspace?.(fx) ?? fx.ws;
  await collect(spawn('bash', ['-c', c.later], { cwd, env: fixtureEnv(fx), stdio: ['ignore', 'pipe', 'pipe'] }));
}

function collect(child: ReturnType<typeof spawn>): Promise<string> {
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}

/** Every file of the fixture outside the session's workspace and Jarvis's own folder, with its content. */
function outsideFiles(fx: AttackFixture, workspace: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // unreadable to this user: nothing the test can compare
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (path === workspace || path === fx.jarvis || path === fx.ws) continue;
      if (e.isDirectory()) walk(path);
      else files.set(path, e.isSymbolicLink() ? 'link' : readFileSync(path, 'utf8'));
    }
  };
  walk(fx.root);
  return files;
}
