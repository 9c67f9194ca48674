// Computer-use screenshots in the session's scratch folder (docs/computer-use.md, "Screenshots"): private, uniquely named,
// bounded by count and bytes with the oldest removed first, and a failure to write said in words.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes, saveScreenshot } from '../../src/store/screenshots';

const session = () => mkdtempSync(join(tmpdir(), 'jarvis-shots-'));

describe('saveScreenshot', () => {
  it('saves each image under a new private name', async () => {
    const dir = session();
    const a = await saveScreenshot(dir, 'main', Buffer.from('one'), 'image/png');
    const b = await saveScreenshot(dir, 'agent/../x', Buffer.from('two'), 'image/png');
    if (!('path' in a) || !('path' in b)) throw new Error('not saved');
    expect(a.path).toMatch(/\/screenshots\/main-\d+-\d+-\d+\.png$/);
    expect(b.path).toMatch(/\/screenshots\/agent____x-\d+-\d+-\d+\.png$/);
    expect(statSync(a.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'screenshots')).mode & 0o777).toBe(0o700);
  });

  it('keeps at most the bounds, removing the oldest first and never the newest', async () => {
    const dir = session();
    const saved: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await saveScreenshot(dir, 'main', Buffer.alloc(100, i), 'image/png', { files: 3, bytes: 1_000_000 });
      if ('path' in r) saved.push(r.path);
    }
    expect(
      readdirSync(join(dir, 'screenshots'))
        .map((n) => join(dir, 'screenshots', n))
        .sort(),
    ).toEqual(saved.slice(2).sort());
    const big = await saveScreenshot(dir, 'main', Buffer.alloc(500), 'image/png', { files: 10, bytes: 400 });
    expect(big).toMatchObject({ swept: 3 });
    expect(readdirSync(join(dir, 'screenshots'))).toHaveLength(1);
  });

  it('says why it could not save, and saves nothing', async () => {
    const dir = session();
    writeFileSync(join(dir, 'screenshots'), 'a file where the folder should be');
    const r = await saveScreenshot(dir, 'main', Buffer.from('x'), 'image/png');
    expect(r).toEqual({ error: expect.stringMatching(/^could not write .*\/screenshots\/main-.*\.png \(/) });
  });

  it('a link a sandboxed command planted in the scratch folder is refused, never written through', async () => {
    const dir = session();
    const elsewhere = mkdtempSync(join(tmpdir(), 'jarvis-shots-target-'));
    symlinkSync(elsewhere, join(dir, 'screenshots'));
    const r = await saveScreenshot(dir, 'main', Buffer.from('x'), 'image/png');
    expect(r).toEqual({ error: expect.stringMatching(/^could not write .*\/screenshots\/main-.*\.png \(/) });
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('the sweep removes a planted link by its own name, never the file it points to', async () => {
    const dir = session();
    const victim = join(mkdtempSync(join(tmpdir(), 'jarvis-shots-victim-')), 'keep.txt');
    writeFileSync(victim, 'precious');
    mkdirSync(join(dir, 'screenshots'), { mode: 0o700 });
    symlinkSync(victim, join(dir, 'screenshots', 'main-1-0-0.png'));
    const r = await saveScreenshot(dir, 'main', Buffer.alloc(10), 'image/png', { files: 1, bytes: 1_000_000 });
    expect(r).toMatchObject({ swept: 1 });
    expect(statSync(victim).size).toBe(8);
    expect(readdirSync(join(dir, 'screenshots'))).toHaveLength(1);
  });

  it('reports older screenshots it could not remove, keeping the new one', async () => {
    if (process.getuid?.() === 0) return; // root ignores folder permissions
    const dir = session();
    mkdirSync(join(dir, 'screenshots'));
    await saveScreenshot(dir, 'main', Buffer.alloc(10), 'image/png');
    chmodSync(join(dir, 'screenshots'), 0o300);
    const r = await saveScreenshot(dir, 'main', Buffer.alloc(10), 'image/png', { files: 1, bytes: 100 });
    chmodSync(join(dir, 'screenshots'), 0o700);
    expect(r).toMatchObject({ sweepError: expect.stringContaining('older screenshots in') });
  });

  it('formats sizes for people', () => {
    expect([formatBytes(812), formatBytes(146_432), formatBytes(2_516_582)]).toEqual(['812 B', '143 KB', '2.4 MB']);
  });
});
