import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
  existsSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WORKSPACE_SERVICE } from '../../../src/tools/browser';
import { opfsDeleteTool, opfsListTool, opfsReadTool, opfsWriteTool } from '../../../src/tools/browser/workspaceTools';
import { makeToolHarness } from '../../helpers/toolHarness';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-ws-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
function setup() {
  const root = join(base, `ws${++n}`);
  const outside = join(base, `outside${n}`);
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), 'top secret');
  const h = makeToolHarness();
  h.register(WORKSPACE_SERVICE, { root });
  const call = async (tool: typeof opfsReadTool, args: unknown) => {
    const r = await h.run(tool, args);
    return { ...r, json: JSON.parse(r.text) as Record<string, unknown> & { error?: string } };
  };
  return { root, outside, call };
}

describe('opfs_* rules', () => {
  it('write/read round trip; parents created; overwrite; leading slash and empty segments dropped', async () => {
    const { root, call } = setup();
    expect((await call(opfsWriteTool, { path: '/notes//a/b.txt', content: 'héllo' })).json).toEqual({
      path: 'notes/a/b.txt',
      size: 6,
    });
    await call(opfsWriteTool, { path: 'notes/a/b.txt', content: 'second' });
    expect(readFileSync(join(root, 'notes/a/b.txt'), 'utf8')).toBe('second');
    expect((await call(opfsReadTool, { path: 'notes/a/b.txt' })).json).toEqual({
      path: 'notes/a/b.txt',
      content: 'second',
      totalLines: 1,
      startLine: 1,
      endLine: 1,
      mimeType: 'text/plain',
      type: 'text',
    });
  });

  it('a data URL is written as bytes and read back as binary with a file:// URL', async () => {
    const { root, call } = setup();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    expect(
      (await call(opfsWriteTool, { path: 'img/p.png', content: `data:image/png;base64,${png.toString('base64')}` }))
        .json.size,
    ).toBe(png.length);
    const r = (await call(opfsReadTool, { path: 'img/p.png' })).json;
    expect(r).toMatchObject({
      path: 'img/p.png',
      size: png.length,
      mimeType: 'image/png',
      type: 'binary',
      localPath: join(root, 'img/p.png'),
    });
    expect(r.blobUrl).toBe(`file://${join(root, 'img/p.png')}`);
    expect((await call(opfsReadTool, { path: 'img/p.png', mode: 'text' })).json.type).toBe('text');
    await call(opfsWriteTool, { path: 't.md', content: '# hi' });
    expect((await call(opfsReadTool, { path: 't.md', mode: 'blob' })).json).toMatchObject({
      type: 'binary',
      mimeType: 'text/markdown',
    });
  });

  it('paging: over 200 lines needs offset/limit; offset/limit windows; past the end; CRLF kept; empty file is text', async () => {
    const { call } = setup();
    await call(opfsWriteTool, {
      path: 'long.txt',
      content: Array.from({ length: 201 }, (_, i) => `l${i + 1}`).join('\n'),
    });
    const refused = (await call(opfsReadTool, { path: 'long.txt' })).json.error!;
    expect(refused).toContain('201 lines');
    expect(refused).toContain('offset');
    await call(opfsWriteTool, {
      path: 'three.txt',
      content: Array.from({ length: 300 }, (_, i) => `l${i + 1}`).join('\n'),
    });
    const win = (await call(opfsReadTool, { path: 'three.txt', offset: 290, limit: 11 })).json;
    expect(win).toMatchObject({ startLine: 290, endLine: 300, totalLines: 300 });
    expect((win.content as string).split('\n')).toHaveLength(11);
    expect((await call(opfsReadTool, { path: 'three.txt', limit: 250 })).json).toMatchObject({
      startLine: 1,
      endLine: 250,
    });
    const past = (await call(opfsReadTool, { path: 'three.txt', offset: 400 })).json;
    expect(past.content).toBe('');
    expect(past.endLine as number).toBeLessThan(past.startLine as number);
    await call(opfsWriteTool, { path: 'crlf.txt', content: 'a\r\nb' });
    expect((await call(opfsReadTool, { path: 'crlf.txt' })).json.content).toBe('a\r\nb');
    await call(opfsWriteTool, { path: 'empty.txt', content: '' });
    expect((await call(opfsReadTool, { path: 'empty.txt' })).json.type).toBe('text');
  });

  it('list: root (created when missing), subfolder, sizes, sorted; missing folder is an error', async () => {
    const { call } = setup();
    expect((await call(opfsListTool, {})).json).toEqual([]);
    await call(opfsWriteTool, { path: 'b.txt', content: 'bb' });
    await call(opfsWriteTool, { path: 'a/x.txt', content: 'x' });
    expect((await call(opfsListTool, {})).json).toEqual([
      { name: 'a', type: 'directory' },
      { name: 'b.txt', type: 'file', size: 2 },
    ]);
    expect((await call(opfsListTool, { path: 'a' })).json).toEqual([{ name: 'x.txt', type: 'file', size: 1 }]);
    expect((await call(opfsListTool, { path: 'nope' })).json.error).toMatch(/Not found/);
  });

  it('delete: a file, a non-empty folder; missing is an error', async () => {
    const { root, call } = setup();
    await call(opfsWriteTool, { path: 'd/e/f.txt', content: 'x' });
    await call(opfsWriteTool, { path: 'g.txt', content: 'x' });
    expect((await call(opfsDeleteTool, { path: 'g.txt' })).json).toEqual({ success: true });
    expect((await call(opfsDeleteTool, { path: 'd' })).json).toEqual({ success: true });
    expect(existsSync(join(root, 'd'))).toBe(false);
    expect((await call(opfsDeleteTool, { path: 'd' })).json.error).toMatch(/Not found/);
    expect((await call(opfsReadTool, { path: 'missing.txt' })).json.error).toMatch(/Not found/);
  });
});

describe('opfs_* path-escape corpus', () => {
  it.each([
    ['..', '../secret.txt'],
    ['nested ..', 'a/../../secret.txt'],
    ['encoded-looking but literal ..', 'a/b/../../..'],
    ['backslash', '..\\secret.txt'],
    ['NUL', 'a\u0000b'],
  ])('%s is refused for every tool', async (_label, path) => {
    const { call } = setup();
    for (const [tool, extra] of [
      [opfsReadTool, {}],
      [opfsWriteTool, { content: 'x' }],
      [opfsDeleteTool, {}],
      [opfsListTool, {}],
    ] as const) {
      const r = await call(tool as typeof opfsReadTool, { path, ...extra });
      expect(r.isError).toBe(true);
      expect(r.json.error).toMatch(/Invalid path/);
    }
  });

  it('an empty path is "path is required" (list excepted)', async () => {
    const { call } = setup();
    expect((await call(opfsReadTool, { path: '///' })).json.error).toBe('path is required');
    expect((await call(opfsWriteTool, { path: '', content: 'x' })).json.error).toBe('path is required');
  });

  it('symlinks leading outside are refused for read, write and list; delete removes the link, not the target', async () => {
    const { root, outside, call } = setup();
    await call(opfsListTool, {});
    symlinkSync(outside, join(root, 'out'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link'));
    expect((await call(opfsReadTool, { path: 'out/secret.txt' })).json.error).toMatch(/leads outside the workspace/);
    expect((await call(opfsReadTool, { path: 'secret-link' })).json.error).toMatch(/leads outside the workspace/);
    expect((await call(opfsWriteTool, { path: 'out/new.txt', content: 'x' })).json.error).toMatch(/leads outside/);
    expect((await call(opfsWriteTool, { path: 'out/deeper/new.txt', content: 'x' })).json.error).toMatch(
      /leads outside/,
    );
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(join(outside, 'deeper'))).toBe(false);
    expect((await call(opfsListTool, { path: 'out' })).json.error).toMatch(/leads outside/);
    expect((await call(opfsDeleteTool, { path: 'out/secret.txt' })).json.error).toMatch(/leads outside/);
    expect((await call(opfsDeleteTool, { path: 'out' })).json).toEqual({ success: true });
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });
});
