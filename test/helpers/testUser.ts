// An unprivileged account for tests that must hold for an ordinary user as well as for root (docs/testing.md): made
// with useradd where the tests run as root and removed afterwards. Elsewhere `createTestUser` prints why and returns
// undefined (the caller skips), unless JARVIS_TEST_REQUIRE_ALL=1, where that is a failure.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, lstatSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface TestUser {
  name: string;
  uid: number;
  gid: number;
  /** A fresh folder under /tmp the user owns (the test's own TMPDIR is root's, closed to others). */
  makeRoot(prefix: string): string;
  /** Gives `path` and everything below it to the user. */
  give(path: string): void;
  remove(): void;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** useradd and userdel fail while another process holds /etc/passwd's lock: a few tries, a short pause between. */
function withPasswdLock(run: () => ReturnType<typeof spawnSync>, what: string): void {
  let last = '';
  for (let attempt = 0; attempt < 50; attempt++) {
    const result = run();
    if (result.status === 0) return;
    last = String(result.stderr ?? '');
    if (!/lock|try again/i.test(last)) break;
    Atomics.wait(pause, 0, 0, 100);
  }
  throw new Error(`${what} failed: ${last.trim()}`);
}

export function createTestUser(tag: string): TestUser | undefined {
  const why =
    process.platform !== 'linux'
      ? `unprivileged-user tests run on Linux only (this is ${process.platform})`
      : process.getuid?.() !== 0
        ? 'creating an unprivileged user needs root, and these tests do not run as root'
        : undefined;
  if (why) {
    if (process.env.JARVIS_TEST_REQUIRE_ALL === '1') throw new Error(`JARVIS_TEST_REQUIRE_ALL=1 but ${why}`);
    console.warn(`skipping the unprivileged-user runs: ${why}`);
    return undefined;
  }
  const name = `jv${tag}${process.pid % 100000}`.slice(0, 30);
  withPasswdLock(
    () =>
      spawnSync('useradd', ['--no-create-home', '--shell', '/usr/sbin/nologin', '--user-group', name], {
        encoding: 'utf8',
      }),
    `useradd ${name}`,
  );
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  const roots: string[] = [];
  const give = (path: string): void => {
    chownSync(path, uid, gid);
    if (!lstatSync(path).isDirectory()) return;
    for (const entry of readdirSync(path)) give(join(path, entry));
  };
  return {
    name,
    uid,
    gid,
    makeRoot(prefix) {
      const root = mkdtempSync(join('/tmp', prefix));
      roots.push(root);
      give(root);
      return root;
    },
    give,
    remove() {
      for (const root of roots) spawnSync('rm', ['-rf', root]);
      // userdel refuses while a process of the user runs: the tests end theirs (by pid) before this.
      withPasswdLock(() => spawnSync('userdel', [name], { encoding: 'utf8' }), `userdel ${name}`);
    },
  };
}
