// Jarvis's own git features, runnable as another user (issue 43: attacks run as root and as an unprivileged
// user): Tower's repository operations (engine/tower/towerGit.ts) and the look at modified files after a Bash
// command (engine/extensions/commandChanges.ts, with a stand-in language server that only says it runs), bundled once
// per test file with esbuild into a folder every user can read, and called in a fresh `node` as the given user.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { runAsUser, shareWithUsers, type TestUser } from './sandboxUsers';

const SRC = resolve(__dirname, '../../src');

const ENTRY = `
import * as tower from ${JSON.stringify(join(SRC, 'engine/tower/towerGit.ts'))};
import { snapshotBeforeBash } from ${JSON.stringify(join(SRC, 'engine/extensions/commandChanges.ts'))};
const lsp = { anyRunning: () => true, openDocuments: () => [], runningClientFor: () => true };
// Tower's git is a class (it carries the session's environment); its methods as plain functions, run with the
// process's environment as a session without an \`env\` of its own does.
const towerGit = new tower.TowerGit();
const features = {
  ...Object.fromEntries(
    Object.getOwnPropertyNames(tower.TowerGit.prototype)
      .filter((k) => k !== 'constructor')
      .map((k) => [k, (...args) => towerGit[k](...args)]),
  ),
  async bashSnapshot(cwd) {
    const s = await snapshotBeforeBash(lsp, cwd);
    return { git: s.git, files: [...s.files.keys()], problem: s.problem ?? null };
  },
};
const [name, ...args] = JSON.parse(process.argv[process.argv.length - 1]);
features[name](...args).then(
  (value) => process.stdout.write(JSON.stringify({ ok: true, value: value ?? null })),
  (e) => process.stdout.write(JSON.stringify({ ok: false, error: e.message })),
);
`;

export type FeatureResult = { ok: true; value: unknown } | { ok: false; error: string };

export interface GitFeatures {
  /** Calls `name(...args)` as `user` in `cwd` with `env`; resolves with its value or its error message. */
  call(user: TestUser, name: string, args: unknown[], opts: { cwd: string; env: NodeJS.ProcessEnv }): FeatureResult;
}

/** Bundles the features (call in beforeAll: the bundle lives in the file's temporary folder). */
export function bundleGitFeatures(): GitFeatures {
  const dir = mkdtempSync(join(tmpdir(), 'jarvis-git-features-'));
  writeFileSync(join(dir, 'entry.mjs'), ENTRY);
  const out = join(dir, 'features.mjs');
  buildSync({
    entryPoints: [join(dir, 'entry.mjs')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'error',
    loader: { '.md': 'text' },
  });
  shareWithUsers(dir);
  return {
    call(user, name, args, opts) {
      const ran = runAsUser(user, process.execPath, [out, JSON.stringify([name, ...args])], opts);
      if (ran.status !== 0 || !ran.stdout) throw new Error(`${name} did not run as ${user.name}: ${ran.stderr}`);
      return JSON.parse(ran.stdout) as FeatureResult;
    },
  };
}
