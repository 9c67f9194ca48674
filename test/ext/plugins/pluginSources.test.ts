import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managedDir } from '../../../src/ext/plugins/installedStore';
import { PluginManager } from '../../../src/ext/plugins/manager';
import { classifySource, pluginNetwork } from '../../../src/ext/plugins/pluginSources';
import { writeZip, type ZipEntry } from '../../../src/platform/zip';
import { tempDir } from '../../helpers/files';
import { serve, startFixtureServer, type FixtureServer, type RouteHandler } from '../../helpers/fixtureServer';

async function zipOf(entries: ZipEntry[]): Promise<Buffer> {
  const path = join(tempDir(), 'p.zip');
  await writeZip(path, entries);
  return readFileSync(path);
}

const manifest = (name: string, version = '1.0.0') =>
  Buffer.from(JSON.stringify({ name, version, mcpServers: { srv: { command: './bin/server' } } }));

/** An archive as GitHub's codeload serves it: everything inside `<repo>-<ref>/`. */
function githubArchive(top: string, name: string, version: string): Promise<Buffer> {
  return zipOf([
    { name: `${top}/jarvis.plugin.json`, data: manifest(name, version) },
    { name: `${top}/bin/server`, data: Buffer.from('#!/bin/sh\necho hi\n'), mode: 0o755 },
    { name: `${top}/README.md`, data: Buffer.from(`ref ${version}`) },
  ]);
}

/** Replaces an entry name inside the archive bytes (same length), keeping it well-formed otherwise. */
function renameEntry(archive: Buffer, from: string, to: string): Buffer {
  const out = Buffer.from(archive);
  let at = out.indexOf(from);
  while (at >= 0) {
    out.write(to, at);
    at = out.indexOf(from, at + 1);
  }
  return out;
}

let github: FixtureServer;
let codeload: FixtureServer;
let elsewhere: FixtureServer;

beforeAll(async () => {
  github = await startFixtureServer();
  codeload = await startFixtureServer();
  elsewhere = await startFixtureServer({ '/x.zip': serve('nope') });
  const redirect =
    (to: string): RouteHandler =>
    (_req, res) =>
      void res.writeHead(302, { location: to }).end();
  github.route('/o/released/releases/latest', redirect(`${github.url}/o/released/releases/tag/v1.2.0`));
  github.route('/o/released/releases/tag/v1.2.0', serve('<html>release</html>', 'text/html'));
  github.route('/o/norelease/releases/latest', redirect('/o/norelease/releases'));
  github.route('/o/norelease/releases', serve('<html>no releases</html>', 'text/html'));
  codeload.route(
    '/o/released/zip/refs/tags/v1.2.0',
    serve(await githubArchive('released-1.2.0', 'released', '1.2.0'), 'application/zip'),
  );
  codeload.route(
    '/o/norelease/zip/HEAD',
    serve(await githubArchive('norelease-main', 'norelease', '0.0.1-main'), 'application/zip'),
  );
  codeload.route(
    '/o/released/zip/feature/x',
    serve(await githubArchive('released-feature-x', 'released', '1.3.0-dev'), 'application/zip'),
  );
  codeload.route(
    '/o/released/zip/refs/tags/v0.9.0',
    serve(await githubArchive('released-0.9.0', 'released', '0.9.0'), 'application/zip'),
  );
  codeload.route(
    '/o/released/zip/abc1234',
    serve(await githubArchive('released-abc1234', 'released', '1.1.0+abc1234'), 'application/zip'),
  );
  codeload.route('/o/redirected/zip/HEAD', redirect(`${elsewhere.url}/x.zip`));
});

afterAll(async () => {
  await Promise.all([github?.close(), codeload?.close(), elsewhere?.close()]);
});

function ghManager() {
  const home = tempDir('jarvis-home-');
  const env = { JARVIS_CODE_GITHUB_URL: github.url, JARVIS_CODE_GITHUB_CODELOAD_URL: codeload.url };
  return { home, manager: new PluginManager({ home, env }) };
}

describe('install sources (SPEC §9.4)', () => {
  it('classifies local paths, zip URLs and the four GitHub forms', () => {
    const net = pluginNetwork({}, false);
    expect(classifySource('./p', '/work', net, {})).toEqual({ kind: 'local', path: '/work/p' });
    expect(classifySource('https://cdn.example.com/p.zip', '/', net)).toEqual({
      kind: 'zip',
      url: 'https://cdn.example.com/p.zip',
    });
    expect(classifySource('https://github.com/o/r', '/', net)).toEqual({
      kind: 'github',
      owner: 'o',
      repo: 'r',
      form: 'repo',
    });
    expect(classifySource('https://github.com/o/r.git', '/', net)).toMatchObject({ repo: 'r', form: 'repo' });
    expect(classifySource('https://github.com/o/r/tree/feature/x', '/', net)).toMatchObject({
      form: 'tree',
      ref: 'feature/x',
    });
    expect(classifySource('https://github.com/o/r/releases/tag/v1.0', '/', net)).toMatchObject({
      form: 'release',
      ref: 'v1.0',
    });
    expect(classifySource('https://github.com/o/r/commit/0123abcd', '/', net)).toMatchObject({
      form: 'commit',
      ref: '0123abcd',
    });
    expect(() => classifySource('https://github.com/o/r/issues/1', '/', net)).toThrow(/supported GitHub forms/);
    expect(classifySource('https://github.com/o/r/archive/refs/heads/main.zip', '/', net)).toEqual({
      kind: 'zip',
      url: 'https://github.com/o/r/archive/refs/heads/main.zip',
    });
    expect(() => classifySource('https://github.com/o', '/', net)).toThrow(/not a GitHub repository URL/);
  });

  it('GitHub repo URL → the latest release through the github.com redirect, downloaded from codeload; api.github.com never called', async () => {
    const { home, manager } = ghManager();
    const before = { gh: github.hits.length, cl: codeload.hits.length };
    // The real github.com form goes to the configured stand-ins.
    const { plugin } = await manager.install('https://github.com/o/released');
    expect(plugin).toMatchObject({
      id: 'released',
      version: '1.2.0',
      sourceKind: 'github',
      ref: 'v1.2.0',
      source: 'https://github.com/o/released',
    });
    expect(github.hits.slice(before.gh).map((h) => h.path)).toEqual([
      '/o/released/releases/latest',
      '/o/released/releases/tag/v1.2.0',
    ]);
    expect(codeload.hits.slice(before.cl).map((h) => h.path)).toEqual(['/o/released/zip/refs/tags/v1.2.0']);
    // The archive's top folder is stripped; execute bits survive; nothing ran.
    const server = join(managedDir(home, 'released'), 'bin/server');
    expect(statSync(server).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(managedDir(home, 'released'), 'README.md'), 'utf8')).toBe('ref 1.2.0');
  });

  it('GitHub repo without a release → the default branch; a repository GitHub does not know is an error', async () => {
    const { manager } = ghManager();
    const { plugin } = await manager.install(`${github.url}/o/norelease`);
    expect(plugin).toMatchObject({ id: 'norelease', version: '0.0.1-main', ref: 'HEAD' });
    await expect(manager.install('https://github.com/o/missing')).rejects.toThrow(
      'GitHub has no repository o/missing (or it is private)',
    );
  });

  it('/tree/<ref>, /releases/tag/<tag> and /commit/<sha> download exactly that ref', async () => {
    const { manager } = ghManager();
    expect((await manager.install('https://github.com/o/released/tree/feature/x')).plugin).toMatchObject({
      version: '1.3.0-dev',
      ref: 'feature/x',
    });
    expect((await manager.install('https://github.com/o/released/releases/tag/v0.9.0')).plugin).toMatchObject({
      version: '0.9.0',
      ref: 'v0.9.0',
    });
    const pinned = await manager.install('https://github.com/o/released/commit/abc1234');
    expect(pinned).toMatchObject({
      replaced: true,
      previousVersion: '0.9.0',
      plugin: { version: '1.1.0+abc1234', ref: 'abc1234' },
    });
  });

  it('a GitHub download that redirects to another host is refused before that host is contacted', async () => {
    const { manager } = ghManager();
    await expect(manager.install('https://github.com/o/redirected/tree/HEAD')).rejects.toThrow(
      /redirect .* not allowed/,
    );
    expect(elsewhere.hits).toEqual([]);
  });

  it('a zip URL installs; a loopback zip URL is refused unless [web] allow_private_network is on', async () => {
    const archive = await zipOf([
      { name: 'jarvis.plugin.json', data: manifest('zipped', '3.0.0') },
      { name: 'bin/server', data: Buffer.from('x') },
    ]);
    const zips = await startFixtureServer({ '/p.zip': serve(archive, 'application/zip') });
    try {
      const home = tempDir('jarvis-home-');
      const strict = new PluginManager({ home, env: {} });
      await expect(strict.install(`${zips.url}/p.zip`)).rejects.toThrow(
        /Refused to fetch .*loopback.*allow_private_network/,
      );
      expect(zips.hits).toEqual([]);
      const allowed = new PluginManager({ home, env: {}, network: { allowPrivateNetwork: true } });
      expect((await allowed.install(`${zips.url}/p.zip`)).plugin).toMatchObject({
        id: 'zipped',
        version: '3.0.0',
        sourceKind: 'zip',
      });
      await expect(allowed.install(`${zips.url}/missing.zip`)).rejects.toThrow(/not found \(404\)/);
    } finally {
      await zips.close();
    }
  });

  it('zip slip: an archive with ../ or absolute entry names is refused and writes nothing anywhere', async () => {
    const home = tempDir('jarvis-home-');
    const manager = new PluginManager({ home, env: {} });
    const dir = tempDir();
    for (const evil of ['../../../evil.txt', '/tmp/evil-abs.txt']) {
      const safe = `${'x'.repeat(evil.length - 4)}.txt`;
      const good = await zipOf([
        { name: 'jarvis.plugin.json', data: manifest('slip') },
        { name: safe, data: Buffer.from('payload') },
      ]);
      const path = join(dir, 'evil.zip');
      writeFileSync(path, renameEntry(good, safe, evil));
      await expect(manager.install(path)).rejects.toThrow(/was refused: /);
    }
    expect(existsSync(join(home, 'plugins', 'installed.json'))).toBe(false);
    expect(readdirSync(join(home, 'plugins', 'managed'))).toEqual([]);
    expect(existsSync(join(dir, '..', 'evil.txt'))).toBe(false);
  });

  it('a symlink entry in an archive is unpacked as a plain file holding the link text, never as a link', async () => {
    const home = tempDir('jarvis-home-');
    const manager = new PluginManager({ home, env: {} });
    const path = join(tempDir(), 'links.zip');
    await writeZip(path, [
      { name: 'jarvis.plugin.json', data: manifest('links') },
      { name: 'skills/evil', data: Buffer.from('/etc'), mode: 0o120777 },
    ]);
    await manager.install(path);
    const unpacked = join(managedDir(home, 'links'), 'skills/evil');
    const { lstatSync } = await import('node:fs');
    expect(lstatSync(unpacked).isFile()).toBe(true);
    expect(readFileSync(unpacked, 'utf8')).toBe('/etc');
  });

  it('a symlink entry followed by a file under it is refused in one line, and nothing is installed', async () => {
    const home = tempDir('jarvis-home-');
    const manager = new PluginManager({ home, env: {} });
    const path = join(tempDir(), 'through-link.zip');
    await writeZip(path, [
      { name: 'jarvis.plugin.json', data: manifest('through') },
      { name: 'skills/evil', data: Buffer.from('/tmp'), mode: 0o120777 },
      { name: 'skills/evil/payload.txt', data: Buffer.from('written through the link') },
    ]);
    await expect(manager.install(path)).rejects.toThrow(
      `${path} was refused: the entry "skills/evil/payload.txt" lies under "skills/evil", which the archive also holds as a file or a symbolic link`,
    );
    expect(existsSync(join(home, 'plugins', 'installed.json'))).toBe(false);
    expect(existsSync(managedDir(home, 'through'))).toBe(false);
  });

  it('an archive without a manifest at its root (or in its one top folder) is refused', async () => {
    const home = tempDir('jarvis-home-');
    const manager = new PluginManager({ home, env: {} });
    const path = join(tempDir(), 'none.zip');
    await writeZip(path, [
      { name: 'a/jarvis.plugin.json', data: manifest('x') },
      { name: 'b/readme', data: Buffer.from('') },
    ]);
    await expect(manager.install(path)).rejects.toThrow(/holds no plugin manifest/);
  });
});
