// The trust boundary's attack corpus as an unprivileged user (docs/trust-boundary.md): the same rows as
// boundaryAttacks.test.ts, bundled (attackMain.ts) and run by a user created for the test, who owns the fixtures and
// runs Jarvis's boundary without root's privileges. Each attack works in plain bash and is refused through the
// boundary; each legitimate command works.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, sandboxTestUsers, type TestUser } from '../../helpers/sandboxUsers';
import { ATTACKS } from './attackCorpus';
import { LEGITIMATE } from './legitimateCommands';

const user = sandboxTestUsers('boundary').find((u) => u.label === 'unprivileged');
const sandboxAsUser = user && userCanSandbox(user);

/** Whether bubblewrap can make its namespaces for the user (a sandbox like the commands' own, run as that user). */
function userCanSandbox(u: TestUser): boolean {
  const probe = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '--unshare-user'];
  const cmd = asUser(u, 'bwrap', [...probe, '--cap-drop', 'ALL', '--', 'true']);
  const r = spawnSync(cmd.file, cmd.args, { encoding: 'utf8' });
  if (r.status === 0) return true;
  const why = `the command sandbox cannot run as uid ${u.uid}: ${r.stderr || r.error?.message}`;
  if (process.env.JARVIS_TEST_REQUIRE_ALL === '1') throw new Error(`JARVIS_TEST_REQUIRE_ALL=1 but ${why}`);
  console.warn(`skipping: ${why}`);
  return false;
}

/** Runs `file args` as `u` and resolves with its exit code and output; killed past `timeoutMs`. */
function runAs(u: TestUser, file: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }) {
  const cmd = asUser(u, file, args);
  const child = spawn(cmd.file, cmd.args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const killer = setTimeout(() => child.kill('SIGKILL'), 600_000);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(killer);
      done({ code, stdout, stderr });
    });
  });
}

interface Row {
  name: string;
  legit?: boolean;
  plain?: string;
  boxed?: string;
  canaries?: string[];
  problem?: string;
  error?: string;
}

const rows = new Map<string, Row>();
let dir: string | undefined;

beforeAll(async () => {
  if (!user || !sandboxAsUser) return;
  // Directly under /tmp: the test run's own temporary folder is private to root. The user's fixtures go in a folder
  // of its own inside.
  dir = mkdtempSync('/tmp/boundary-user-');
  chmodSync(dir, 0o755);
  const fixtures = join(dir, 'tmp');
  mkdirSync(fixtures);
  chownSync(fixtures, user.uid, user.gid);
  const bundle = join(dir, 'attackMain.mjs');
  await build({
    entryPoints: [resolve(__dirname, 'attackMain.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  chmodSync(bundle, 0o644);
  const env = { PATH: process.env.PATH, LANG: 'C', HOME: fixtures, TMPDIR: fixtures };
  const r = await runAs(user, process.execPath, [bundle], { cwd: dir, env });
  if (r.code !== 0) throw new Error(`the corpus as uid ${user.uid} failed (exit ${r.code}):\n${r.stderr}`);
  for (const line of r.stdout.split('\n').filter(Boolean)) {
    const row = JSON.parse(line) as Row;
    rows.set(`${row.legit ? 'legit' : 'attack'}:${row.name}`, row);
  }
}, 900_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!sandboxAsUser)('the trust boundary against the attack corpus, as an unprivileged user', () => {
  it.each(ATTACKS.map((c) => c.name))('%s', (name) => {
    const row = rows.get(`attack:${name}`);
    expect(row?.error).toBeUndefined();
    expect(row?.plain, 'the attack must work without the boundary').toBeDefined();
    expect(row?.boxed).toBeUndefined();
    expect(row?.canaries).toEqual([]);
  });

  it.each(LEGITIMATE.map((c) => c.name))('legitimately: %s', (name) => {
    const row = rows.get(`legit:${name}`);
    expect(row?.error).toBeUndefined();
    expect(row?.problem).toBeUndefined();
  });
});
