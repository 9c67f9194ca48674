// Tests that must hold for an ordinary user as well as for root (the command sandbox, the trust boundary): where the
// test machine is root, an unprivileged system user is created for them; elsewhere they skip with a printed reason,
// unless JARVIS_TEST_REQUIRE_ALL=1 (CI), where that is a failure. Programs run as the user through `runuser`, which
// also drops root's supplementary groups.
import { execFileSync, spawn } from 'node:child_process';

export const TEST_USER = 'jarvis-test';

export interface TestUser {
  name: string;
  uid: number;
  gid: number;
}

/** The unprivileged user (created on first use); undefined, after printing why, when the test should skip. */
export function unprivilegedUser(): TestUser | undefined {
  const why = whyNot();
  if (!why) return lookUp() ?? create();
  if (process.env.JARVIS_TEST_REQUIRE_ALL === '1') throw new Error(`JARVIS_TEST_REQUIRE_ALL=1 but ${why}`);
  console.warn(`skipping the unprivileged run: ${why}`);
  return undefined;
}

function whyNot(): string | undefined {
  if (process.getuid?.() !== 0) return 'the tests do not run as root, so no test user can be created';
  try {
    execFileSync('runuser', ['--help'], { stdio: 'ignore' });
  } catch {
    return 'runuser (util-linux) is not installed';
  }
  return undefined;
}

function lookUp(): TestUser | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', TEST_USER], { encoding: 'utf8', stdio: 'pipe' }).trim());
    const gid = Number(execFileSync('id', ['-g', TEST_USER], { encoding: 'utf8', stdio: 'pipe' }).trim());
    return { name: TEST_USER, uid, gid };
  } catch {
    return undefined; // not there yet
  }
}

function create(): TestUser {
  execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', TEST_USER], {
    stdio: 'pipe',
  });
  const user = lookUp();
  if (!user) throw new Error(`useradd ${TEST_USER} succeeded but the user cannot be found`);
  return user;
}

/** Runs `file args` as `user` from `cwd`, with `env`; resolves with its stdout, stderr and exit code. */
export function runAs(
  user: TestUser,
  file: string,
  args: readonly string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('runuser', ['-u', user.name, '--', file, ...args], {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} as ${user.name} did not end within ${opts.timeoutMs} ms\n${stdout}\n${stderr}`));
    }, opts.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
