// The world the sandbox hardening tests attack from (sandboxHardening.*.test.ts): for one user, a workspace, a home
// with a private key, JARVIS_CODE_HOME with a config, a canary folder outside, the socket fixtures, a session's
// CommandBoundary per network mode and Unix-socket rule, and three ways to run a command as that user: plain bash, the sandbox, and
// the sandbox as it was before capabilities were dropped and the seccomp filter added.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { SandboxSpawn } from '../../src/platform/processes';
import type { SandboxNetwork } from '../../src/platform/sandbox/bwrapSandbox';
import { CommandBoundary, type CommandRun } from '../../src/tools/boundary/commandBoundary';
import { DEFAULT_SANDBOX_SETTINGS } from '../../src/tools/boundary/sandboxSettings';
import { runSandboxSpawn, type SandboxRun } from './sandboxSpawn';
import { asUser, handOver, makeUserRoot, removeUserRoots, spawnAsUser, type TestUser } from './sandboxUsers';
import { startSocketFixtures, type SocketFixtures } from './socketFixtures';

export type Mode = {
  network: SandboxNetwork;
  unixSockets: 'refuse' | 'own';
  /** `[sandbox] allow_unix_sockets`, resolved. */
  allowUnixSockets?: string[];
};
const DEFAULT_MODE: Mode = { network: 'off', unixSockets: 'refuse' };

export interface World {
  user: TestUser;
  /** The workspace commands run in (the user's). */
  ws: string;
  fixtures: SocketFixtures;
  plain(attack: string): Promise<{ out: string }>;
  sandboxed(attack: string, mode: Mode): Promise<SandboxRun>;
  oldSandbox(attack: string): Promise<SandboxRun>;
  resetCanaries(): void;
  expectCanariesUntouched(): void;
  close(): Promise<void>;
}

export async function makeWorld(user: TestUser): Promise<World> {
  makeUserRoot(user);
  const ws = join(user.root, 'ws');
  const home = join(user.root, 'home');
  const jhome = join(home, '.jarvis-code');
  const sessionDir = join(jhome, 'sessions', 'p', 's1');
  const canary = join(user.root, 'canary');
  const write = (path: string, text: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  };
  write(join(home, '.ssh', 'id_rsa'), 'SSH-KEY-SECRET\n');
  write(join(jhome, 'config.toml'), '# JARVIS-CONFIG-SECRET\n');
  mkdirSync(sessionDir, { recursive: true });
  mkdirSync(ws, { recursive: true });
  mkdirSync(canary, { recursive: true });
  const fixtures = await startSocketFixtures(user);
  const sandboxes = new Map<string, CommandBoundary>();
  const folders = { workspace: [ws], scratch: sessionDir, jarvisHome: jhome, home };
  const sandboxFor = (mode: Mode) => {
    const key = `${mode.network}/${mode.unixSockets}/${(mode.allowUnixSockets ?? []).join(':')}`;
    let sandbox = sandboxes.get(key);
    if (!sandbox) {
      const allowUnixSockets = mode.allowUnixSockets ?? [];
      const settings = { ...DEFAULT_SANDBOX_SETTINGS, ...mode, allowUnixSockets, allowedDomains: ['localhost'] };
      sandbox = new CommandBoundary(settings, folders);
      sandboxes.set(key, sandbox);
    }
    return sandbox;
  };
  const first = await sandboxFor(DEFAULT_MODE).prepare({ command: 'true', cwd: ws }); // writes the hidden-file note
  if (first.kind === 'refused') throw new Error(first.message);
  first.settle(); // before the hand-over
  handOver(user);
  chmodSync(canary, 0o777);
  const env = { ...process.env, ...fixtures.env, HOME: home, JHOME: jhome, CANARY: canary };
  const run = (spawn: SandboxSpawn) => runSandboxSpawn(spawnAsUser(user, spawn), { cwd: ws, env, timeoutMs: 80_000 });
  /** Prepares `attack` through the session's boundary, runs what `spawnOf` makes of its spawn, and settles. */
  const throughBoundary = async (attack: string, mode: Mode, spawnOf = (s: SandboxSpawn) => s) => {
    const plan: CommandRun = await asUsersPlan(user, () => sandboxFor(mode).prepare({ command: attack, cwd: ws }));
    if (plan.kind !== 'sandboxed') throw new Error(`expected a sandboxed plan, got ${plan.kind}`);
    try {
      return await run(spawnOf(plan.spawn));
    } finally {
      plan.settle();
    }
  };
  return {
    user,
    ws,
    fixtures,
    // Asynchronously: the fixtures answer from this process.
    plain: (attack) => runPlain(asUser(user, 'bash', ['-c', attack]), ws, env),
    sandboxed: async (attack, mode) => {
      const r = await throughBoundary(attack, mode);
      if (/^bwrap: /m.test(r.stderr)) throw new Error(`bwrap could not set up the sandbox: ${r.stderr}`);
      return r;
    },
    oldSandbox: (attack) => throughBoundary(attack, DEFAULT_MODE, withoutHardening),
    resetCanaries: () => {
      for (const name of readdirSync(canary)) rmSync(join(canary, name), { recursive: true, force: true });
    },
    expectCanariesUntouched: () => {
      expect(readdirSync(canary)).toEqual([]);
      expect(existsSync(fixtures.env.OUT_SOCK) && existsSync(fixtures.env.RUN_BUS)).toBe(true);
    },
    close: async () => {
      await Promise.all([...sandboxes.values()].map((s) => s.close()));
      await fixtures.close();
      removeUserRoots([user]);
    },
  };
}

/**
 * Jarvis makes its plan and runs it as one user; here this (root) process makes the plan that runs as `user`. Which of
 * the host's sockets get a cover depends on who can reach them (platform/sandbox/unixSockets.ts), so the plan is made
 * with `user`'s id, as Jarvis started by `user` would make it. Tests of one file run one at a time, so the stand-in
 * id is seen by this plan only.
 */
async function asUsersPlan<T>(user: TestUser, make: () => Promise<T>): Promise<T> {
  const own = process.getuid;
  if (!own || own() === user.uid) return make();
  process.getuid = () => user.uid;
  try {
    return await make();
  } finally {
    process.getuid = own;
  }
}

async function runPlain(cmd: { file: string; args: string[] }, cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(cmd.file, cmd.args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await new Promise((resolve) => child.on('close', resolve));
  clearTimeout(killer);
  return { out };
}

/** The same plan as the sandbox built it before capabilities were dropped and the filter added. */
function withoutHardening(spawn: SandboxSpawn): SandboxSpawn {
  const args: string[] = [];
  for (let i = 0; i < spawn.args.length; i++) {
    const [a, b] = [spawn.args[i], spawn.args[i + 1]];
    if (a === '--') {
      args.push(...spawn.args.slice(i));
      break;
    }
    if (a === '--unshare-user') continue;
    if ((a === '--cap-drop' && b === 'ALL') || a === '--seccomp') i++;
    else args.push(a);
  }
  return { file: spawn.file, args, envPass: spawn.envPass };
}
