// The package as a user gets it: `npm pack` (prepack builds dist/ and writes the shrinkwrap), then a
// global install of the tarball into a temporary prefix with install scripts disallowed, its
// dependencies coming from a loopback registry (test/helpers/lockRegistry.ts) that stands in for npm's,
// then the installed `jarvis` runs against the loopback mock model. See docs/distribution.md.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, collect, makeCliDirs, mockModelEnv } from '../helpers/cli';
import { startLockRegistry, type LockRegistry } from '../helpers/lockRegistry';
import { SHARP_VERSION } from '../../src/platform/images';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
};

let scratch: string;
let prefix: string;
let installed: string;
let server: MockModelServer;
let registry: LockRegistry;

/** npm's environment without what an enclosing `npm test` exported about this package. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('npm_package_') && !k.startsWith('npm_lifecycle_')) env[k] = v;
  return env;
}

function du(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.size;
  return readdirSync(path).reduce((sum, name) => sum + du(join(path, name)), 0);
}

function runInstalled(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(join(prefix, 'bin', 'jarvis'), args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return collect(child, 60_000);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'jarvis-pack-'));
  prefix = join(scratch, 'prefix');
  const packed = await run('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: ROOT,
    env: npmEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
  const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string }>;
  const npmCache = (await run('npm', ['config', 'get', 'cache'], { env: npmEnv() })).stdout.trim();
  registry = await startLockRegistry(join(ROOT, 'package-lock.json'), npmCache);
  const install = [
    'install',
    '--global',
    '--prefix',
    prefix,
    '--registry',
    registry.url,
    '--cache',
    join(scratch, 'npm-cache'),
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
  ];
  try {
    await run('npm', [...install, join(scratch, filename)], { cwd: scratch, env: npmEnv() });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(
      `installing the tarball from the loopback registry failed (run \`npm ci\` first: it fills the npm cache):\n${err.stderr ?? err.message}`,
    );
  }
  installed = join(prefix, 'lib', 'node_modules', pkg.name);
  server = await startMockModelServer();
}, 240_000);

afterAll(async () => {
  await server?.close();
  await registry?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the packed and globally installed package', () => {
  it('holds only the built CLI, the bin and the shrinkwrap; no source, tests or checkout lock', () => {
    const top = readdirSync(installed).sort();
    expect(top).toEqual(expect.arrayContaining(['bin', 'dist', 'package.json', 'npm-shrinkwrap.json', 'node_modules']));
    for (const name of ['src', 'test', 'bench', 'scripts', 'docs', 'package-lock.json', 'tsconfig.json'])
      expect(top).not.toContain(name);
    expect(existsSync(join(installed, 'dist', 'jarvis.js'))).toBe(true);
    // The bundled official plugin travels inside dist/ (docs/plugins-official.md).
    expect(existsSync(join(installed, 'dist', 'plugins', 'jarvis-documents', 'jarvis.plugin.json'))).toBe(true);
    expect(existsSync(join(installed, 'dist', 'plugins', 'jarvis-documents', 'bin', 'server.mjs.gz'))).toBe(true);
    expect(existsSync(join(prefix, 'bin', 'jarvis'))).toBe(true);
  });

  it('installs only the runtime parts, without sharp, koffi or install scripts, within 40 MB', () => {
    const modules = readdirSync(join(installed, 'node_modules'));
    expect(modules).not.toContain('koffi');
    expect(modules).not.toContain('openai');
    expect(modules).not.toContain('@mariozechner');
    // sharp is an optional peer dependency: npm leaves it out unless the user installs it (docs/distribution.md),
    // at the version the error message names and the tests run with.
    expect(pkg.peerDependencies.sharp).toBe(SHARP_VERSION);
    expect(pkg.peerDependenciesMeta.sharp).toEqual({ optional: true });
    expect(pkg.devDependencies.sharp).toBe(SHARP_VERSION);
    expect(modules).not.toContain('sharp');
    expect(modules).not.toContain('@img');
    expect(modules).toEqual(expect.arrayContaining(['@vscode', 'playwright-core']));
    expect(registry.served).toEqual(expect.arrayContaining(['@vscode/ripgrep', 'playwright-core']));
    const leftOut = (name: string) => ['koffi', 'sharp'].includes(name) || /^@(img|mariozechner)\//.test(name);
    expect(registry.served.filter(leftOut)).toEqual([]);
    expect(modules).not.toContain('quickjs-emscripten');
    // The figure docs/distribution.md quotes; printed so a run shows it.
    const size = du(prefix);
    console.log(`global install from the tarball: ${(size / (1024 * 1024)).toFixed(1)} MiB (${size} bytes)`);
    expect(size).toBeLessThan(40 * 1024 * 1024);
  });

  it('`jarvis --version` prints the package version', async () => {
    const dirs = makeCliDirs();
    const r = await runInstalled(['--version'], dirs.cwd, cliEnv(dirs));
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('`jarvis -p` greps with the packaged ripgrep; reading an image names the sharp install command', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.cwd, 'notes.txt'), 'alpha\nbeta\n');
    const red = { width: 8, height: 8, channels: 3 as const, background: '#ff0000' };
    writeFileSync(join(dirs.cwd, 'pic.png'), await sharp({ create: red }).png().toBuffer());
    server.push(
      {
        toolCalls: [
          { id: 'call_pic', name: 'ReadMediaFile', arguments: { path: 'pic.png' } },
          { id: 'call_grep', name: 'Grep', arguments: { pattern: 'beta' } },
        ],
      },
      { text: 'No image support here.' },
    );
    const r = await runInstalled(
      ['-p', 'find beta and look at pic.png', '--output-format', 'stream-json'],
      dirs.cwd,
      cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { role: string; tool_call_id?: string; content: unknown });
    const result = (id: string) =>
      JSON.stringify(lines.find((l) => l.role === 'tool' && l.tool_call_id === id)?.content);
    expect(result('call_pic')).toMatch(/pic.png cannot be read: image support is not installed: the optional package/);
    expect(result('call_pic')).toContain(`npm install -g sharp@${SHARP_VERSION}`);
    expect(result('call_grep')).toContain('notes.txt');
  });

  it('after `npm install -g sharp@<version>` into the same prefix, the installed jarvis reads images', async () => {
    const from = ['--registry', registry.url, '--cache', join(scratch, 'npm-cache')];
    const install = ['install', '--global', '--prefix', prefix, ...from, '--ignore-scripts', '--no-audit', '--no-fund'];
    await run('npm', [...install, `sharp@${SHARP_VERSION}`], { cwd: scratch, env: npmEnv() });
    expect(registry.served).toEqual(expect.arrayContaining(['sharp']));
    const dirs = makeCliDirs();
    const blue = { width: 40, height: 30, channels: 3 as const, background: '#3366cc' };
    writeFileSync(join(dirs.cwd, 'pic.png'), await sharp({ create: blue }).png().toBuffer());
    const read = { id: 'call_pic', name: 'ReadMediaFile', arguments: { path: 'pic.png' } };
    server.push({ toolCalls: [read] }, { text: 'The picture is blue.' });
    const r = await runInstalled(
      ['-p', 'look at pic.png', '--output-format', 'stream-json'],
      dirs.cwd,
      cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { role: string; tool_call_id?: string; content: unknown });
    const picture = lines.find((l) => l.role === 'tool' && l.tool_call_id === 'call_pic');
    expect(JSON.stringify(picture?.content)).toContain('40x30 png');
    expect(lines.at(-2)).toEqual({ role: 'assistant', content: 'The picture is blue.' });
  });
});
