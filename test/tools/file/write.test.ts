import { readFileSync, writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTool, writeTool } from '../../../src/tools/file';
import { makeToolHarness } from '../../helpers/toolHarness';

describe('Write', () => {
  it('creates a new file without a prior Read and returns the bytes written (rule 11)', async () => {
    const h = makeToolHarness();
    const r = await h.run(writeTool, { path: 'new.txt', content: 'héllo' });
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('wrote 6 bytes');
    expect(readFileSync(join(h.cwd, 'new.txt'), 'utf8')).toBe('héllo');
    expect(r.display).toEqual({ kind: 'diff', path: join(h.cwd, 'new.txt'), before: '', after: 'héllo' });
  });

  it('creates missing parent folders (rule 8)', async () => {
    const h = makeToolHarness();
    const r = await h.run(writeTool, { path: 'a/b/c/deep.txt', content: 'x' });
    expect(r.isError).toBeFalsy();
    expect(readFileSync(join(h.cwd, 'a/b/c/deep.txt'), 'utf8')).toBe('x');
  });

  it('defaults to overwrite (rule 7)', async () => {
    const h = makeToolHarness();
    writeFileSync(join(h.cwd, 'f.txt'), 'old content');
    await h.run(readTool, { path: 'f.txt' });
    const r = await h.run(writeTool, { path: 'f.txt', content: 'new' });
    expect(r.isError).toBeFalsy();
    expect(readFileSync(join(h.cwd, 'f.txt'), 'utf8')).toBe('new');
  });

  it('append adds no newline (rule 7)', async () => {
    const h = makeToolHarness();
    writeFileSync(join(h.cwd, 'f.txt'), 'one');
    await h.run(readTool, { path: 'f.txt' });
    await h.run(writeTool, { path: 'f.txt', content: 'two', mode: 'append' });
    await h.run(writeTool, { path: 'f.txt', content: 'three', mode: 'append' });
    expect(readFileSync(join(h.cwd, 'f.txt'), 'utf8')).toBe('onetwothree');
  });

  it.each(['overwrite', 'append'])('rejects %s of an existing file that was not Read (rule 9)', async (mode) => {
    const h = makeToolHarness();
    writeFileSync(join(h.cwd, 'f.txt'), 'keep');
    const r = await h.run(writeTool, { path: 'f.txt', content: 'x', mode });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('has not been read');
    expect(readFileSync(join(h.cwd, 'f.txt'), 'utf8')).toBe('keep');
  });

  it('rejects a write when the file changed on disk since the Read (rule 10)', async () => {
    const h = makeToolHarness();
    const file = join(h.cwd, 'f.txt');
    writeFileSync(file, 'v1');
    await h.run(readTool, { path: 'f.txt' });
    writeFileSync(file, 'v2 changed by someone else');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const r = await h.run(writeTool, { path: 'f.txt', content: 'mine' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('changed on disk');
    expect(readFileSync(file, 'utf8')).toBe('v2 changed by someone else');
  });

  it('may write the same file again after its own write', async () => {
    const h = makeToolHarness();
    await h.run(writeTool, { path: 'f.txt', content: 'one' });
    const r = await h.run(writeTool, { path: 'f.txt', content: 'two' });
    expect(r.isError).toBeFalsy();
  });

  it('refuses to write over a folder', async () => {
    const h = makeToolHarness();
    await h.run(writeTool, { path: 'dir/x.txt', content: 'x' });
    const r = await h.run(writeTool, { path: 'dir', content: 'x' });
    expect(r.isError).toBe(true);
  });
});
