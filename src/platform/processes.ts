// Child processes that run in their own process group, so that a command and everything it starts
// (pipelines, `&` jobs, grandchildren) can be stopped together: SIGTERM to the group, a grace
// period, then SIGKILL to the group. Used by Bash, background tasks and hooks.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import type { StdioEntry } from './sandbox/sandboxChannels';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { channelStdio, feedChannels, type SandboxChannels } from './sandbox/sandboxChannels';
import { sandboxEnv } from './sandbox/sandboxEnv';
import { disownGroup, ownChildGroup, type GroupOwnership } from './ownedGroups';
import { unsignallableGroup } from './processIdentity';

/**
 * Variables that keep tools from waiting on a human: no pagers, no colour codes, no credential
 * prompts, no editors. stdin is closed as well, so anything that still reads gets EOF at once.
 */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = {
  TERM: 'dumb',
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  CLICOLOR: '0',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  SYSTEMD_PAGER: '',
  GIT_TERMINAL_PROMPT: '0',
  GIT_EDITOR: 'true',
  GCM_INTERACTIVE: 'never',
  DEBIAN_FRONTEND: 'noninteractive',
  PIP_NO_INPUT: '1',
};

/**
 * The environment for a non-interactive command: `base` (the session's environment: tools/sessionEnv.ts; the
 * process's own by default), overlaid with NON_INTERACTIVE_ENV; an empty `CI` of `base` is dropped.
 */
export function nonInteractiveEnv(
  base: Readonly<NodeJS.ProcessEnv> = process.env,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ...NON_INTERACTIVE_ENV, ...extra };
  if (!env.CI) delete env.CI;
  return env;
}

/** The shell commands run in: `JARVIS_SHELL_PATH` when set, else `bash` from PATH. */
export function shellPath(env: Readonly<NodeJS.ProcessEnv> = process.env): string {
  return env.JARVIS_SHELL_PATH?.trim() || 'bash';
}

export interface GroupSpawnOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Where stdout and stderr go: 'pipe' (the caller reads them) or an open file descriptor both are
   * appended to (the process can then outlive this one without losing output).
   */
  output?: 'pipe' | number;
  /** 'ignore' (default: anything that reads gets EOF at once) or 'pipe' (the caller writes it, as hooks do). */
  stdin?: 'ignore' | 'pipe';
  /** Run this program instead of `bash -c command` (docs/sandbox.md); its args hold the command. */
  sandbox?: SandboxSpawn;
  /**
   * How long the group is stopped with this process if it ends first (platform/ownedGroups.ts): `command`
   * (default) while its leader runs, `service` until its owner stops it, `none` never (it may outlive us).
   */
  own?: GroupOwnership | 'none';
}

/**
 * A program and its arguments that run the command confined (platform/sandbox/bwrapSandbox.ts builds them), and what
 * the spawn hands it besides (the seccomp filter, the network bridge's channel: platform/sandbox/sandboxChannels.ts).
 */
export interface SandboxSpawn extends SandboxChannels {
  file: string;
  args: readonly string[];
  /** Secret-looking variables let into the sandbox (`[sandbox] env_pass`); every other one is dropped. */
  envPass?: readonly string[];
}

/** The environment a sandboxed command starts with: `env` without its secrets (platform/sandbox/sandboxEnv.ts). */
export function sandboxSpawnEnv(
  sandbox: SandboxSpawn,
  env: NodeJS.ProcessEnv = nonInteractiveEnv(),
): NodeJS.ProcessEnv {
  return sandboxEnv(env, sandbox.envPass);
}

/**
 * Starts `file args` as the leader of a new process group, with stdin closed unless piped; `extra` are the stdio
 * entries from fd 3 on.
 */
export function spawnInGroup(
  file: string,
  args: readonly string[],
  opts: GroupSpawnOptions,
  extra: readonly StdioEntry[] = [],
): ChildProcess {
  const out = opts.output ?? 'pipe';
  const stdio: StdioOptions = [opts.stdin ?? 'ignore', out, out, ...extra];
  const child = spawn(file, [...args], {
    cwd: opts.cwd,
    env: opts.env ?? nonInteractiveEnv(),
    stdio,
    detached: true,
    windowsHide: true,
  });
  const own = opts.own ?? 'command';
  if (own !== 'none') ownChildGroup(child, own, isGroupAliveAsync);
  return child;
}

/** Runs `command` through `bash -c` in its own process group, non-interactively. */
export function spawnShell(command: string, opts: GroupSpawnOptions): ChildProcess {
  if (opts.sandbox) {
    const env = sandboxSpawnEnv(opts.sandbox, opts.env);
    const child = spawnInGroup(opts.sandbox.file, opts.sandbox.args, { ...opts, env }, channelStdio(opts.sandbox));
    feedChannels(child, opts.sandbox);
    return child;
  }
  return spawnInGroup(shellPath(opts.env), ['-c', command], opts);
}

/**
 * Sends `signal` to every process of group `pgid` (0 only checks). False when the group no longer exists. Throws for
 * a group no signal may go to (0, 1, a negative number, our own: processIdentity.ts) — a caller's bug, never sent.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  const refused = unsignallableGroup(pgid);
  if (refused) throw new Error(`refusing to signal process group ${String(pgid)}: ${refused}`);
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') {
      disownGroup(pgid); // nothing of it is left to stop at exit
      return false;
    }
    if (code === 'EPERM') return true; // it exists, but a member belongs to someone else
    throw e;
  }
}

/** Whether a /proc/<pid>/stat line belongs to a live (non-zombie) member of group `pgid`. */
function isLiveMember(stat: string, pgid: number): boolean {
  // Fields after the command name (which may contain spaces and parentheses): state ppid pgrp …
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X';
}

/**
 * Live (non-zombie) members of group `pgid`. Zombies count as gone: an orphan whose new parent does
 * not reap it stays a zombie forever, yet it can no longer run. Empty when /proc is unavailable.
 * Synchronous: for one-off checks (a resumed session's tasks, tests), never for polling.
 */
export function groupMembers(pgid: number): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const members: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (isLiveMember(readFileSync(`/proc/${name}/stat`, 'utf8'), pgid)) members.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return members;
}

/** True while any process of group `pgid` is alive (synchronous; see groupMembers). */
export function isGroupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (process.platform !== 'linux') return true;
  return groupMembers(pgid).length > 0;
}

/**
 * The same check without blocking the caller's thread: /proc is read through the thread pool, so a
 * UI keeps drawing while a machine with thousands of processes is scanned. Stops at the first member.
 */
export async function isGroupAliveAsync(pgid: number): Promise<boolean> {
  if (!signalGroup(pgid, 0)) return false;
  if (process.platform !== 'linux') return true;
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return true; // the signal check said it exists
  }
  const pids = names.filter((n) => /^\d+$/.test(n));
  // In batches: parallel enough to be quick, without thousands of reads in flight at once.
  for (let i = 0; i < pids.length; i += 64) {
    const stats = await Promise.all(
      pids.slice(i, i + 64).map((pid) => readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')),
    );
    if (stats.some((stat) => stat !== '' && isLiveMember(stat, pgid))) return true;
  }
  return false;
}

export interface TerminateOptions {
  /** How long processes get to exit after SIGTERM before the group is sent SIGKILL. */
  graceMs: number;
}

/** Waits between liveness checks: quick at first (most groups end at once), then backing off. */
const FIRST_POLL_MS = 20;
const MAX_POLL_MS = 250;

/**
 * Stops a whole process group: SIGTERM, wait up to `graceMs` for every member to exit, then
 * SIGKILL whatever is left. Resolves once the group is gone (or after a short wait following
 * SIGKILL); `forced` says whether SIGKILL was needed.
 */
export async function terminateGroup(pgid: number, opts: TerminateOptions): Promise<{ forced: boolean }> {
  if (!signalGroup(pgid, 'SIGTERM')) return { forced: false };
  // A process stopped by SIGSTOP/SIGTSTP would never act on SIGTERM; let it run so it can.
  signalGroup(pgid, 'SIGCONT');
  if (await waitForGroupEnd(pgid, opts.graceMs)) return { forced: false };
  signalGroup(pgid, 'SIGKILL');
  await waitForGroupEnd(pgid, 2_000);
  return { forced: true };
}

/** Resolves true once group `pgid` is gone, false at the deadline; checks off the caller's thread. */
export async function waitForGroupEnd(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let pause = FIRST_POLL_MS;
  while (await isGroupAliveAsync(pgid)) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await new Promise((r) => setTimeout(r, Math.min(pause, left)));
    pause = Math.min(pause * 2, MAX_POLL_MS);
  }
  disownGroup(pgid);
  return true;
}

export interface ExitInfo {
  /** Exit status, or null when the process was ended by a signal or never started. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started (missing shell, bad cwd…). */
  error?: Error;
}

/**
 * Resolves when the process itself exits (not when its output pipes close: a background grandchild
 * may hold them open much longer), or when it fails to start.
 */
export function waitForExit(child: ChildProcess): Promise<ExitInfo> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode as NodeJS.Signals | null });
  }
  return new Promise((resolve) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      child.off('error', onError);
      resolve({ code, signal });
    };
    const onError = (error: Error) => {
      child.off('exit', onExit);
      resolve({ code: null, signal: null, error });
    };
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

/**
 * After the process has exited, waits up to `ms` for its pipes to drain, then stops listening to
 * them without closing them (closing would hand a lingering grandchild SIGPIPE) and unrefs them so
 * they never keep this process alive.
 */
export async function releasePipes(child: ChildProcess, ms: number): Promise<void> {
  const streams = [child.stdout, child.stderr].filter((s) => s !== null && !s.readableEnded && !s.destroyed);
  await Promise.race([
    Promise.all(streams.map((s) => new Promise<void>((r) => s!.once('close', () => r())))),
    new Promise<void>((r) => setTimeout(r, ms).unref()),
  ]);
  for (const s of streams) {
    if (!s || s.destroyed) continue;
    s.removeAllListeners('data');
    s.on('data', () => {});
    (s as unknown as { unref?: () => void }).unref?.();
  }
}
