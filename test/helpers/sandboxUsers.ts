// The users the attack tests run as (issue 43: "as root and as an unprivileged user"): the one running the tests,
// and — where that is root — an unprivileged user created here (useradd), whose commands are started through setpriv
// (which execs in place, so the descriptors a sandboxed spawn hands bwrap pass through). Not root: the second user is
// skipped with a printed reason, unless JARVIS_TEST_REQUIRE_ALL=1, where that is a failure. Each user may get a folder
// of its own outside /tmp (the sandbox's /tmp is private, and an attack on a socket there would fail for that reason
// alone), or share a folder the test made (shareWithUsers).
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, lchownSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SandboxSpawn } from '../../src/platform/processes';
import type { Launcher } from './cli';

export interface TestUser {
  /** 'root' (or the invoking user's name) and 'unprivileged'. */
  label: string;
  /** The account's name (for `USER`). */
  name: string;
  uid: number;
  gid: number;
  /** The user's own folder for the test run (workspace, home, fixtures), readable by everyone, owned by it. */
  root: string;
}

const UNPRIVILEGED = 'jarvis-sbx';

/** The users to run as: always the current one; the unprivileged one only where the tests run as root. */
export function sandboxTestUsers(tag: string): TestUser[] {
  const uid = process.getuid!();
  const name = process.env.USER ?? (uid === 0 ? 'root' : String(uid));
  const label = uid === 0 ? 'root' : 'the current user';
  const me = { label, name, uid, gid: process.getgid!(), root: userRoot(tag, uid) };
  if (uid !== 0) {
    const why = 'not running as root, so no unprivileged user can be created to run the attacks as';
    if (process.env.JARVIS_TEST_REQUIRE_ALL === '1') throw new Error(`JARVIS_TEST_REQUIRE_ALL=1 but ${why}`);
    console.warn(`skipping the unprivileged runs: ${why}`);
    return [me];
  }
  const other = ensureUnprivilegedUser();
  return [me, { label: 'unprivileged', name: UNPRIVILEGED, ...other, root: userRoot(tag, other.uid) }];
}

function ensureUnprivilegedUser(): { uid: number; gid: number } {
  const known = spawnSync('id', ['-u', UNPRIVILEGED], { encoding: 'utf8' });
  if (known.status !== 0) {
    execFileSync('useradd', ['--no-create-home', '--shell', '/bin/bash', UNPRIVILEGED], { stdio: 'pipe' });
  }
  const uid = Number(execFileSync('id', ['-u', UNPRIVILEGED], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', UNPRIVILEGED], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function userRoot(tag: string, uid: number): string {
  return `/var/tmp/jarvis-${tag}-${process.pid}-${uid}`;
}

/** Makes the user's folder, empty and readable by everyone (when its tests start: a skipped suite leaves none). */
export function makeUserRoot(user: TestUser): void {
  rmSync(user.root, { recursive: true, force: true });
  mkdirSync(user.root, { recursive: true, mode: 0o755 });
  chmodSync(user.root, 0o755);
}

/** Gives everything under `path` (default `user.root`) to the user (after the test process made it as root). */
export function handOver(user: TestUser, path = user.root): void {
  if (user.uid === process.getuid!()) return;
  // A symlink is given over itself, never what it points to (an attack row may link outside its folder).
  lchownSync(path, user.uid, user.gid);
  if (!lstatSync(path).isDirectory()) return;
  for (const name of readdirSync(path)) handOver(user, join(path, name));
}

/**
 * Makes `dir` usable by every test user: a test's folders are made by the test's own user inside its private
 * temporary folders (0700), so those get o+x (passable, not listable) and `dir` itself 0777.
 */
export function shareWithUsers(dir: string): void {
  const systemTmp = `/${tmpdir().split('/')[1]}/`;
  for (let up = dirname(dir); up.startsWith(systemTmp); up = dirname(up)) {
    const { mode, uid } = statSync(up);
    if (uid === process.getuid?.()) chmodSync(up, (mode & 0o7777) | 0o011);
  }
  chmodSync(dir, 0o777);
}

/** `file args` started as `user` (unchanged for the current one). */
export function asUser(user: TestUser, file: string, args: readonly string[]): { file: string; args: string[] } {
  if (user.uid === process.getuid!()) return { file, args: [...args] };
  const ids = [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups'];
  return { file: 'setpriv', args: [...ids, '--', file, ...args] };
}

/** `spawnJarvis`/`runJarvis`'s `launcher` for `user`: the built CLI started as that user. */
export function launcherFor(user: TestUser): Launcher {
  return (file, args) => asUser(user, file, args);
}

/**
 * Runs `file args` as `user`, synchronously (as the shell a user types into does). Without an environment of the
 * test's, another user's HOME is `opts.cwd` (root's home is not theirs).
 */
export function runAsUser(
  user: TestUser,
  file: string,
  args: readonly string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; input?: string },
): SpawnSyncReturns<string> {
  const self = user.uid === process.getuid!();
  const env = opts.env ?? (self ? process.env : { ...process.env, HOME: opts.cwd });
  const run = asUser(user, file, args);
  return spawnSync(run.file, run.args, { ...opts, env: self ? env : { ...env, USER: user.name }, encoding: 'utf8' });
}

/** A planned sandbox spawn started as `user`; what it hands bwrap (the filter, the bridge) is kept. */
export function spawnAsUser(user: TestUser, spawn: SandboxSpawn): SandboxSpawn {
  return { ...spawn, ...asUser(user, spawn.file, spawn.args) };
}

/** Removes the users' folders (the users themselves stay for the next run). */
export function removeUserRoots(users: readonly TestUser[]): void {
  for (const user of users) rmSync(user.root, { recursive: true, force: true });
}
