// The users an attack row runs as (issue 43: "run as root and as an unprivileged user"): the test's own user,
// and, when the test runs as root, an unprivileged user created here (`useradd`, no home, no login shell needed).
// Off root the second user is skipped with a printed reason, unless JARVIS_TEST_REQUIRE_ALL=1 makes it a failure.
// Commands run as that user through `setpriv` with its uid, gid and no supplementary groups.
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';

export const UNPRIVILEGED_USER = 'jarvis-attack';

export interface AttackUser {
  /** `root` or the unprivileged user's name (for row names). */
  name: string;
  /** `file args` as a command line that runs them as this user (for an asynchronous spawn). */
  wrap(file: string, args: readonly string[]): [string, string[]];
  /** Owns `paths` (recursively) as this user, so a program it runs can write where the test prepared. */
  own(...paths: string[]): void;
  /** Runs `file args` as this user (synchronously, like the shell a user types into). */
  run(
    file: string,
    args: readonly string[],
    opts: { cwd: string; env?: NodeJS.ProcessEnv; input?: string },
  ): SpawnSyncReturns<string>;
}

const asSelf: AttackUser = {
  name: process.getuid?.() === 0 ? 'root' : 'the test user',
  wrap: (file, args) => [file, [...args]],
  own: () => undefined,
  run: (file, args, opts) => spawnSync(file, args, { ...opts, encoding: 'utf8' }),
};

function unprivilegedIds(): { uid: number; gid: number } {
  try {
    execFileSync('id', ['-u', UNPRIVILEGED_USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--no-create-home', '--shell', '/bin/bash', UNPRIVILEGED_USER], { stdio: 'pipe' });
  }
  const uid = Number(execFileSync('id', ['-u', UNPRIVILEGED_USER], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', UNPRIVILEGED_USER], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/** Root and the unprivileged user when the test runs as root; otherwise the test's own user only. */
export function attackUsers(): AttackUser[] {
  if (process.getuid?.() !== 0) {
    const why = 'the unprivileged-user rows need root to create the user';
    if (process.env.JARVIS_TEST_REQUIRE_ALL === '1') throw new Error(`JARVIS_TEST_REQUIRE_ALL=1 but ${why}`);
    console.warn(`skipping: ${why}`);
    return [asSelf];
  }
  const { uid, gid } = unprivilegedIds();
  const wrap = (file: string, args: readonly string[]): [string, string[]] => [
    'setpriv',
    [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', file, ...args],
  ];
  const user: AttackUser = {
    name: UNPRIVILEGED_USER,
    wrap,
    own: (...paths) => {
      for (const path of paths) execFileSync('chown', ['-R', `${uid}:${gid}`, path]);
    },
    run: (file, args, opts) =>
      spawnSync(...wrap(file, args), {
        ...opts,
        encoding: 'utf8',
        // Without an environment of the test's, HOME is the row's folder (root's home is not this user's).
        env: opts.env
          ? { ...opts.env, USER: UNPRIVILEGED_USER }
          : { ...process.env, HOME: opts.cwd, USER: UNPRIVILEGED_USER },
      }),
  };
  return [asSelf, user];
}

/**
 * Makes `dir` usable by every attack user: the folders of a row are made by the test's own user inside the test's
 * private temporary folders (0700), so those get o+x (passable, not listable) and `dir` itself 0777.
 */
export function shareWithAttackUsers(dir: string): void {
  const systemTmp = `/${tmpdir().split('/')[1]}/`;
  for (let up = dirname(dir); up.startsWith(systemTmp); up = dirname(up)) {
    const { mode, uid } = statSync(up);
    if (uid === process.getuid?.()) chmodSync(up, (mode & 0o7777) | 0o011);
  }
  chmodSync(dir, 0o777);
}
