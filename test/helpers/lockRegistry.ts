// A loopback npm registry for the packaging test: it serves, for every package in package-lock.json, a
// packument built from the lock entry and the tarball out of the local npm cache (content-addressed by
// the lock's integrity, where `npm ci` put it). An install from it reaches no network and gets exactly
// the locked versions; a tarball the cache lacks is a 404, so npm says which one is missing.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

interface LockEntry {
  version?: string;
  integrity?: string;
  link?: boolean;
  [field: string]: unknown;
}

export interface LockRegistry {
  /** http://127.0.0.1:PORT/ */
  url: string;
  /** Package names whose tarball was asked for. */
  served: string[];
  close(): Promise<void>;
}

const MANIFEST_FIELDS = [
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'os',
  'cpu',
  'libc',
  'engines',
  'bin',
  'license',
  'hasInstallScript',
];

function cachedContentPath(cacheDir: string, integrity: string): string | undefined {
  const [algorithm, digest] = integrity.split(' ')[0].split(/-(.*)/s);
  if (!digest) return undefined;
  const hex = Buffer.from(digest, 'base64').toString('hex');
  return join(cacheDir, '_cacache', 'content-v2', algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
}

/** The registry's file name, without .tgz: `sharp-linux-x64-0.34.5` for @img/sharp-linux-x64. */
function tarballName(name: string, version: string): string {
  return `${name.split('/').pop()}-${version}`;
}

export async function startLockRegistry(lockFile: string, npmCacheDir: string): Promise<LockRegistry> {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, LockEntry> };
  // name → version → lock entry
  const packages = new Map<string, Map<string, LockEntry>>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path || entry.link || !entry.version || !entry.integrity) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!packages.has(name)) packages.set(name, new Map());
    packages.get(name)!.set(entry.version, entry);
  }
  const served: string[] = [];
  let base = '';

  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]).slice(1);
    const tarball = /^(.+)\/-\/(.+)\.tgz$/.exec(path);
    if (tarball) {
      const [, name, fileName] = tarball;
      const entry = [...(packages.get(name)?.values() ?? [])].find((e) => fileName === tarballName(name, e.version!));
      const file = entry && cachedContentPath(npmCacheDir, entry.integrity!);
      if (!file || !existsSync(file)) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: `${name} is not in the npm cache: run npm ci` }));
        return;
      }
      served.push(name);
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(file));
      return;
    }
    const versions = packages.get(path);
    if (!versions) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
      return;
    }
    const manifests: Record<string, unknown> = {};
    for (const [version, entry] of versions) {
      const manifest: Record<string, unknown> = { name: path, version };
      for (const field of MANIFEST_FIELDS) if (entry[field] !== undefined) manifest[field] = entry[field];
      manifest.dist = { tarball: `${base}${path}/-/${tarballName(path, version)}.tgz`, integrity: entry.integrity };
      manifests[version] = manifest;
    }
    const latest = [...versions.keys()].at(-1)!;
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ name: path, 'dist-tags': { latest }, versions: manifests }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url: base,
    served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
