// The trust boundary's attack corpus as an unprivileged user (docs/trust-boundary.md): the same rows as
// boundaryAttacks.test.ts, bundled (attackMain.ts) and run by a user created for the test, who owns the fixtures and
// runs Jarvis's boundary without root's privileges. Each attack works in plain bash and is refused through the
// boundary; each legitimate command works.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAs, unprivilegedUser } from '../../helpers/unprivilegedUser';
import { ATTACKS } from './attackCorpus';
import { LEGITIMATE } from './legitimateCommands';

const user = unprivilegedUser();
const sandboxAsUser = user && userCanSandbox(user.name);

/** Whether bubblewrap can make its namespaces for the user (the sandbox's own probe, run as that user). */
function userCanSandbox(name: string): boolean {
  const probe = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '--', 'true'];
  const r = spawnSync('runuser', ['-u', name, '--', 'bwrap', ...probe], { encoding: 'utf8' });
  if (r.status === 0) return true;
  const why = `the command sandbox cannot run as ${name}: ${r.stderr || r.error?.message}`;
  if (process.env.JARVIS_TEST_REQUIRE_ALL === '1') throw new Error(`JARVIS_TEST_REQUIRE_ALL=1 but ${why}`);
  console.warn(`skipping: ${why}`);
  return false;
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
  const r = await runAs(user, process.execPath, [bundle], { cwd: dir, env, timeoutMs: 600_000 });
  if (r.code !== 0) throw new Error(`the corpus as ${user.name} failed (exit ${r.code}):\n${r.stderr}`);
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
