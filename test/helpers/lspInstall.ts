// The TypeScript language server installed as docs/lsp.md says, into a temporary npm prefix, for the end-to-end tests
// of code intelligence: the docs' own install line (`npm i -g typescript-language-server@5 typescript@5`) run with
// `--prefix` and `--offline`, so it comes from the npm cache and never from the network. On a machine whose cache has
// the tarballs but not the registry's version lists (a fresh `npm ci` stores only tarballs), npm cannot resolve `@5`
// offline; then the repository's own copies are packed and installed the same way, after checking that they are the
// major versions the docs' line names (package.json pins typescript-language-server 5.3.0 and typescript 5.9.3).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

/** The install line docs/lsp.md gives for the typescript server. */
export function documentedInstallLine(): string {
  const docs = readFileSync(join(ROOT, 'docs/lsp.md'), 'utf8');
  const line = /`(npm i -g typescript-language-server@\d+ typescript@\d+)`/.exec(docs)?.[1];
  if (!line) throw new Error('docs/lsp.md gives no pinned install line for typescript-language-server');
  return line;
}

function npm(args: string[], cwd: string) {
  return spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}

export interface InstalledServer {
  /** The npm prefix: `bin/typescript-language-server`, `lib/node_modules/{typescript-language-server,typescript}`. */
  prefix: string;
  bin: string;
  /** How it was installed: the docs' line from the cache, or the repository's copies of the same major versions. */
  how: string;
}

/** Installs the server per docs/lsp.md into a new temporary prefix. */
export function installAsDocumented(): InstalledServer {
  const prefix = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-lsp-prefix-')));
  const line = documentedInstallLine();
  const specs = line.split(' ').slice(3);
  const fromCache = npm(['i', '-g', '--prefix', prefix, '--offline', ...specs], prefix);
  if (fromCache.status === 0) return { prefix, bin: join(prefix, 'bin'), how: `${line} (from the npm cache)` };
  if (!/ENOTCACHED/.test(fromCache.stderr))
    throw new Error(`${line} --prefix ${prefix} --offline failed:\n${fromCache.stderr}`);
  const packs = mkdtempSync(join(tmpdir(), 'jarvis-lsp-packs-'));
  const tarballs = specs.map((spec) => {
    const [name, major] = spec.split('@');
    const dir = join(ROOT, 'node_modules', name);
    const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    if (version.split('.')[0] !== major)
      throw new Error(`node_modules/${name} is ${version}, not the ${spec} of ${line}`);
    const packed = npm(['pack', dir, '--pack-destination', packs, '--ignore-scripts'], packs);
    if (packed.status !== 0) throw new Error(`npm pack ${dir} failed:\n${packed.stderr}`);
    return join(packs, packed.stdout.trim().split('\n').pop()!);
  });
  const installed = npm(['i', '-g', '--prefix', prefix, '--offline', '--ignore-scripts', ...tarballs], prefix);
  if (installed.status !== 0) throw new Error(`npm i -g ${tarballs.join(' ')} failed:\n${installed.stderr}`);
  return {
    prefix,
    bin: join(prefix, 'bin'),
    how: `${line}'s major versions from the repository's node_modules (the cache has no version list to resolve @5)`,
  };
}

/**
 * A copy of `installed` whose TypeScript has the shape of TypeScript 7 (what the unpinned `npm i -g typescript` gives
 * now): its package.json says 7.0.2 and lib/ has no tsserver.js (the native compiler ships a binary instead).
 */
export function withTypeScript7(installed: InstalledServer): InstalledServer {
  const prefix = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-lsp-ts7-')));
  cpSync(installed.prefix, prefix, { recursive: true, verbatimSymlinks: true });
  const ts = join(prefix, 'lib/node_modules/typescript');
  rmSync(ts, { recursive: true });
  mkdirSync(join(ts, 'lib'), { recursive: true });
  mkdirSync(join(ts, 'bin'));
  writeFileSync(
    join(ts, 'package.json'),
    JSON.stringify({ name: 'typescript', version: '7.0.2', bin: { tsc: './bin/tsc' }, engines: { node: '>=16.20.0' } }),
  );
  writeFileSync(join(ts, 'lib/getExePath.js'), 'module.exports = () => "tsgo";\n');
  writeFileSync(join(ts, 'bin/tsc'), '#!/usr/bin/env node\n');
  return { prefix, bin: join(prefix, 'bin'), how: `${installed.how}, with TypeScript 7's package shape` };
}

/**
 * A copy of `installed` whose typescript-language-server declares what version 6 declares: `"engines": {"node":
 * ">=22.22.2"}` (6.x is what the unpinned line installs on Node 22). Only the manifest is read by the check.
 */
export function withServerNeedingNode22(installed: InstalledServer): InstalledServer {
  const prefix = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-lsp-tls6-')));
  cpSync(installed.prefix, prefix, { recursive: true, verbatimSymlinks: true });
  const manifest = join(prefix, 'lib/node_modules/typescript-language-server/package.json');
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
  writeFileSync(manifest, JSON.stringify({ ...pkg, version: '6.0.2', engines: { node: '>=22.22.2' } }, null, 2));
  return {
    prefix,
    bin: join(prefix, 'bin'),
    how: `${installed.how}, declaring typescript-language-server 6's engines`,
  };
}
