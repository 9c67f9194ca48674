// The users the sandbox hardening tests run as: the one running the tests, and — where that is root — an
// unprivileged user created here (useradd), whose commands are started through setpriv (which execs in place, so the
// descriptors a sandboxed spawn hands bwrap pass through). Not root: the second user is skipped with a printed
// reason, unless JARVIS_TEST_REQUIRE_ALL=1, where that is a failure. Each user gets a folder of its own outside /tmp
// (the sandbox's /tmp is private, and an attack on a socket there would fail for that reason alone).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxSpawn } from '../../src/platform/processes';

export interface TestUser {
  /** 'root' (or the invoking user's name) and 'unprivileged'. */
  label: string;
  uid: number;
  gid: number;
  /** The user's own folder for the test run (workspace, home, fixtures), readable by everyone, owned by it. */
  root: string;
}

const UNPRIVILEGED = 'jarvis-sbx';

/** The users to run as: always the current one; the unprivileged one only where the tests run as root. */
export function sandboxTestUsers(tag: string): TestUser[] {
  const uid = process.getuid!();
  const me = { label: uid === 0 ? 'root' : 'the current user', uid, gid: process.getgid!(), root: userRoot(tag, uid) };
  if (uid !== 0) {
    const why = 'not running as root, so no unprivileged user can be created to run the attacks as';
    if (process.env.JARVIS_TEST_REQUIRE_ALL === '1') throw new Error(`JARVIS_TEST_REQUIRE_ALL=1 but ${why}`);
    console.warn(`skipping the unprivileged runs: ${why}`);
    return [me];
  }
  const other = ensureUnprivilegedUser();
  return [me, { label: 'unprivileged', ...other, root: userRoot(tag, other.uid) }];
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

/** Gives everything under `user.root` to the user (after the test process made it as root). */
export function handOver(user: TestUser, path = user.root): void {
  if (user.uid === process.getuid!()) return;
  chownSync(path, user.uid, user.gid);
  if (!statSync(path).isDirectory()) return;
  for (const name of readdirSync(path)) handOver(user, join(path, name));
}

/** `file args` started as `user` (unchanged for the current one). */
export function asUser(user: TestUser, file: string, args: readonly string[]): { file: string; args: string[] } {
  if (user.uid === process.getuid!()) return { file, args: [...args] };
  const ids = [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups'];
  return { file: 'setpriv', args: [...ids, '--', file, ...args] };
}

/** A planned sandbox spawn started as `user`; what it hands bwrap (the filter, the bridge) is kept. */
export function spawnAsUser(user: TestUser, spawn: SandboxSpawn): SandboxSpawn {
  return { ...spawn, ...asUser(user, spawn.file, spawn.args) };
}

/** Removes the users' folders (the users themselves stay for the next run). */
export function removeUserRoots(users: readonly TestUser[]): void {
  for (const user of users) rmSync(user.root, { recursive: true, force: true });
}
