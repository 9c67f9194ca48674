// The start chunk's V8 code cache (src/cli/startLoader.ts, docs/distribution.md), on a copy of the built package so
// the cache files of other tests' runs do not matter: written beside the chunk by the first run, used as it is by
// the next, and a damaged one refused by V8 and written again without the run noticing.
import { spawn } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv, collect, makeCliDirs } from '../helpers/cli';

const REPO = resolve(__dirname, '../..');
let copy: string;
let chunks: string;

beforeAll(() => {
  copy = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-code-cache-')));
  cpSync(dirname(BIN), join(copy, 'bin'), { recursive: true });
  cpSync(join(REPO, 'dist'), join(copy, 'dist'), {
    recursive: true,
    filter: (src) => !src.endsWith('.v8cache') && !src.startsWith(join(REPO, 'dist/plugins')),
  });
  cpSync(join(REPO, 'package.json'), join(copy, 'package.json'));
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
  chunks = join(copy, 'dist', 'chunks');
});

async function help() {
  const dirs = makeCliDirs();
  const child = spawn(process.execPath, [join(copy, 'bin', 'jarvis'), '--help'], {
    env: cliEnv(dirs),
    cwd: dirs.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const r = await collect(child);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return r.stdout;
}

const cacheFiles = () => readdirSync(chunks).filter((f) => f.endsWith('.v8cache'));

describe('the start chunk code cache', () => {
  it('is written beside the start chunk by the first run and used unchanged by the next', async () => {
    expect(cacheFiles()).toEqual([]);
    const first = await help();
    expect(first).toContain('--output-format');
    const [cache] = cacheFiles();
    expect(cache).toMatch(new RegExp(`^start-[0-9A-F]{8}\\.cjs\\.${process.version}-${process.arch}\\.v8cache$`));
    const before = { bytes: readFileSync(join(chunks, cache)), mtime: statSync(join(chunks, cache)).mtimeMs };
    expect(before.bytes.length).toBeGreaterThan(100_000);
    expect(await help()).toBe(first);
    // Accepted by V8, so not written again.
    expect(statSync(join(chunks, cache)).mtimeMs).toBe(before.mtime);
    expect(readFileSync(join(chunks, cache)).equals(before.bytes)).toBe(true);
    expect(readdirSync(chunks).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a damaged cache is refused by V8 and replaced; the run is the same', async () => {
    await help();
    const [cache] = cacheFiles();
    const good = readFileSync(join(chunks, cache));
    // V8's own header intact, a byte of its data changed: only the checksum in front of it tells.
    const flipped = Buffer.from(good);
    flipped[Math.floor(good.length / 2)] ^= 0xff;
    const damagedCaches = [
      Buffer.from('not a code cache'),
      good.subarray(0, 4096),
      Buffer.alloc(good.length, 7),
      flipped,
    ];
    for (const damaged of damagedCaches) {
      writeFileSync(join(chunks, cache), damaged);
      expect(await help()).toContain('--output-format');
      const now = readFileSync(join(chunks, cache));
      expect(now.equals(damaged)).toBe(false);
      expect(now.length).toBeGreaterThan(100_000);
    }
    expect(cacheFiles()).toEqual([cache]);
  });

  it('under node --enable-source-maps a stack trace in the start chunk names the source file', async () => {
    const printCommand = readdirSync(chunks).find((f) => /^printCommand-.*\.js$/.test(f))!;
    const program = `const m = await import(${JSON.stringify(join(chunks, printCommand))});
      try { await m.runPrintCommand(undefined); } catch (e) { console.log(e.stack); }`;
    const run = (flags: string[]) =>
      collect(spawn(process.execPath, [...flags, '--input-type=module', '-e', program], { stdio: 'pipe' }));
    const mapped = await run(['--enable-source-maps']);
    expect(mapped.stdout).toMatch(/at .*src\/cli\/printCommand\.ts:\d+:\d+/);
    // Without source maps, the frame is the chunk's own line (the loader's wrapper line does not count).
    const plain = await run([]);
    const frame = /start-[0-9A-F]{8}\.cjs:(\d+):(\d+)/.exec(plain.stdout)!;
    const line = readFileSync(join(chunks, `${/start-[0-9A-F]{8}/.exec(frame[0])![0]}.cjs`), 'utf8').split('\n')[
      Number(frame[1]) - 1
    ];
    expect(line.slice(Number(frame[2]) - 1)).toMatch(/^outputFormat\b/);
  });
});
