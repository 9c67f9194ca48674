import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SavedOutput } from '../../../src/tools/shell/savedOutput';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jarvis-saved-'));
  dirs.push(dir);
  return join(dir, 'out', 'call.txt');
}
/** The folder a temp file is created below. */
const rootOf = (path: string) => dirname(dirname(path));

describe('SavedOutput', () => {
  it('keeps small output in memory only', () => {
    const saved = new SavedOutput(tmpdir(), join(tmpdir(), 'never-written.txt'), 10);
    saved.add('short');
    saved.close();
    expect(saved.spilled).toBe(false);
  });

  it('writes everything, from the first byte, once past the threshold', () => {
    const path = tempFile();
    const saved = new SavedOutput(rootOf(path), path, 10);
    for (const piece of ['0123456', '789ab', 'cdé']) saved.add(piece);
    saved.close();
    expect(saved.spilled).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('0123456789abcdé');
    expect(saved.savedBytes).toBe(16);
  });

  it('stops at the cap and counts what it dropped', () => {
    const path = tempFile();
    const saved = new SavedOutput(rootOf(path), path, 0, 8);
    saved.add('abcdef');
    saved.add('ghijkl');
    saved.close();
    expect(readFileSync(path, 'utf8')).toBe('abcdefgh');
    expect(saved.droppedBytes).toBe(4);
  });

  it('reports a file it cannot create instead of throwing', () => {
    const blocker = tempFile().replace(/out\/call\.txt$/, 'blocker');
    writeFileSync(blocker, 'a file where a folder should be');
    const saved = new SavedOutput(dirname(blocker), join(blocker, 'out.txt'), 0);
    saved.add('x');
    expect(saved.spilled).toBe(true);
    expect(saved.error).toBeTruthy();
  });

  it('never writes through a link planted where its folder should be', () => {
    const path = tempFile();
    const elsewhere = mkdtempSync(join(tmpdir(), 'jarvis-elsewhere-'));
    dirs.push(elsewhere);
    symlinkSync(elsewhere, join(rootOf(path), 'out'));
    const saved = new SavedOutput(rootOf(path), path, 0);
    saved.add('x');
    expect(saved.error).toMatch(/out is a symbolic link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
