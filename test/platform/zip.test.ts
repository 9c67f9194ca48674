import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { directoryEntries, readZip, writeZip, ZipError, type ZipEntry } from '../../src/platform/zip';
import { skipBecause } from '../helpers/requireAll';

const dir = () => mkdtempSync(join(tmpdir(), 'jarvis-zip-'));
const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

function sample(): ZipEntry[] {
  return [
    { name: 'notes/readme.txt', data: Buffer.from('hello zip\n'.repeat(200)), mtime: new Date(2024, 4, 6, 7, 8, 10) },
    { name: 'empty.txt', data: Buffer.alloc(0) },
    { name: 'random.bin', data: randomBytes(4096) }, // incompressible: stored
    { name: 'dossiê/ñandú.md', data: Buffer.from('ünïcødé ✓\n') },
    {
      name: 'agents/main/wire.jsonl',
      data: Buffer.from(`${JSON.stringify({ v: 1, type: 'title', title: 'x' })}\n`.repeat(1000)),
      mode: 0o600,
    },
  ];
}

describe('zip writer', () => {
  it('writes an archive our reader reads back byte for byte, names and times included', async () => {
    const path = join(dir(), 'a.zip');
    const entries = sample();
    const { entries: count, bytes } = await writeZip(path, entries);
    expect(count).toBe(entries.length);
    const archive = readFileSync(path);
    expect(archive.length).toBe(bytes);
    expect(archive.length).toBeLessThan(entries.reduce((n, e) => n + e.data.length, 0)); // deflate worked
    const back = await readZip(archive);
    expect(back.map((e) => e.name)).toEqual(entries.map((e) => e.name));
    for (const [i, e] of back.entries()) expect(e.data.equals(entries[i].data)).toBe(true);
    expect(back[0].mtime.getTime()).toBe(new Date(2024, 4, 6, 7, 8, 10).getTime());
  });

  it('is a standard ZIP: unzip and Python read it (where installed)', async (ctx) => {
    const path = join(dir(), 'a.zip');
    await writeZip(path, sample());
    const unzip = has('unzip', ['-v']);
    const python = has('python3', ['-c', 'import zipfile']);
    if (!unzip && !python) {
      skipBecause(ctx, 'neither unzip nor python3 is installed; our own reader checked the archive above');
    }
    if (unzip) {
      const listing = execFileSync('unzip', ['-l', path], { encoding: 'utf8' });
      expect(listing).toContain('notes/readme.txt');
      expect(listing).toContain('agents/main/wire.jsonl');
      expect(execFileSync('unzip', ['-t', path], { encoding: 'utf8' })).toMatch(/No errors detected/);
      const out = dir();
      execFileSync('unzip', ['-q', path, '-d', out]);
      expect(readFileSync(join(out, 'dossiê', 'ñandú.md'), 'utf8')).toBe('ünïcødé ✓\n');
    }
    if (python) {
      const script =
        'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint("\\n".join(z.namelist()))\n';
      const names = execFileSync('python3', ['-c', script, path], { encoding: 'utf8' });
      expect(names.trim().split('\n')).toEqual(sample().map((e) => e.name));
      expect(execFileSync('python3', ['-m', 'zipfile', '-l', path], { encoding: 'utf8' })).toContain('dossiê/ñandú.md');
    }
  });

  it('refuses unsafe and duplicate names and leaves no partial file behind', async () => {
    const d = dir();
    for (const name of ['../escape.txt', '/abs.txt', 'C:/win.txt', 'a//b', 'a\\b', '']) {
      await expect(writeZip(join(d, 'x.zip'), [{ name, data: Buffer.from('x') }])).rejects.toThrow(ZipError);
    }
    await expect(
      writeZip(join(d, 'x.zip'), [
        { name: 'a', data: Buffer.from('1') },
        { name: 'a', data: Buffer.from('2') },
      ]),
    ).rejects.toThrow(/duplicate/);
    expect(readdirSync(d)).toEqual([]);
  });

  it("a failed write leaves no partial archive (a folder in the target's place)", async () => {
    const d = dir();
    mkdirSync(join(d, 'x.zip'));
    await expect(writeZip(join(d, 'x.zip'), sample())).rejects.toThrow();
    expect(readdirSync(d)).toEqual(['x.zip']);
  });

  it('the reader notices corruption', async () => {
    const path = join(dir(), 'a.zip');
    await writeZip(path, [{ name: 'a.txt', data: randomBytes(64) }]);
    const archive = readFileSync(path);
    archive[40] ^= 0xff; // inside the stored data of the only entry
    await expect(readZip(archive)).rejects.toThrow(/CRC mismatch/);
    await expect(readZip(Buffer.from('not a zip at all, just some text'))).rejects.toThrow(/not a readable ZIP/);
  });

  it('the reader refuses entry names that would escape the folder (zip slip)', async () => {
    for (const evil of ['../evil.txt', '/tmp/e.txt']) {
      const path = join(dir(), 'a.zip');
      const safe = 'x'.repeat(evil.length - 4) + '.txt';
      await writeZip(path, [{ name: safe, data: Buffer.from('payload') }]);
      // Rewrite the name in the local and central headers: the archive stays well-formed otherwise.
      const archive = readFileSync(path);
      let at = archive.indexOf(safe);
      while (at >= 0) {
        archive.write(evil, at);
        at = archive.indexOf(safe, at + 1);
      }
      await expect(readZip(archive)).rejects.toThrow(ZipError);
    }
  });

  it('collects a folder recursively, skipping symlinks', () => {
    const d = dir();
    mkdirSync(join(d, 'agents', 'main'), { recursive: true });
    writeFileSync(join(d, 'state.json'), '{}');
    writeFileSync(join(d, 'agents', 'main', 'wire.jsonl'), '{"v":1}\n');
    symlinkSync('/etc/passwd', join(d, 'link'));
    expect(directoryEntries(d, 'S/').map((e) => e.name)).toEqual(['S/agents/main/wire.jsonl', 'S/state.json']);
  });

  it('the reader enforces entry-count and unpacked-size limits (zip bombs) and reports Unix permission bits', async () => {
    const path = join(dir(), 'a.zip');
    await writeZip(path, [
      { name: 'run.sh', data: Buffer.alloc(1000, 0x61), mode: 0o755 },
      { name: 'b.txt', data: Buffer.alloc(1000, 0x62) },
    ]);
    const archive = readFileSync(path);
    expect((await readZip(archive, { maxEntries: 2, maxBytes: 2000 })).map((e) => e.mode)).toEqual([0o755, 0o644]);
    await expect(readZip(archive, { maxEntries: 1, maxBytes: 1e9 })).rejects.toThrow(/2 entries; at most 1/);
    await expect(readZip(archive, { maxEntries: 10, maxBytes: 1500 })).rejects.toThrow(/more than 1500 bytes/);
  });
});
