// Read, Write and Edit under an editor that lends its files (ACP fs capabilities, docs/acp.md): plain
// UTF-8 text goes through the editor's buffers; a failing editor gives a specific error and changes nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editTool, readTool, writeTool } from '../../../src/tools/file';
import { EDITOR_FILES, type EditorFiles } from '../../../src/tools/file/editorFiles';
import { makeToolHarness } from '../../helpers/toolHarness';

function editorWith(
  buffers: Map<string, string>,
  opts: { canRead?: boolean; canWrite?: boolean; failWrites?: string } = {},
): EditorFiles & { writes: string[] } {
  const writes: string[] = [];
  return {
    canRead: opts.canRead ?? true,
    canWrite: opts.canWrite ?? true,
    writes,
    async readText(path) {
      const text = buffers.get(path);
      if (text === undefined) throw new Error(`no buffer for ${path}`);
      return text;
    },
    async writeText(path, text) {
      if (opts.failWrites) throw new Error(opts.failWrites);
      writes.push(path);
      buffers.set(path, text);
    },
  };
}

describe('file tools under an editor', () => {
  it('Read sees the unsaved text of the editor buffer', async () => {
    const h = makeToolHarness();
    const path = join(h.cwd, 'a.ts');
    writeFileSync(path, 'on disk\n');
    h.register(EDITOR_FILES, editorWith(new Map([[path, 'unsaved line\n']])));
    const r = await h.run(readTool, { path: 'a.ts' });
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('unsaved line');
    expect(r.text).not.toContain('on disk');
  });

  it('Edit matches the buffer text and writes the result to the editor, not the disk', async () => {
    const h = makeToolHarness();
    const path = join(h.cwd, 'b.ts');
    writeFileSync(path, 'const x = 1;\n');
    const buffers = new Map([[path, 'const x = 2;\n']]);
    const editor = editorWith(buffers);
    h.register(EDITOR_FILES, editor);
    await h.run(readTool, { path: 'b.ts' });
    const r = await h.run(editTool, { path: 'b.ts', old_string: 'x = 2', new_string: 'x = 3' });
    expect(r.isError).toBeFalsy();
    expect(buffers.get(path)).toBe('const x = 3;\n');
    expect(readFileSync(path, 'utf8')).toBe('const x = 1;\n');
    expect(r.display).toEqual({ kind: 'diff', path, before: 'const x = 2;\n', after: 'const x = 3;\n' });
  });

  it('Write appends through the editor with the text it had', async () => {
    const h = makeToolHarness();
    const path = join(h.cwd, 'c.txt');
    writeFileSync(path, 'first\n');
    const buffers = new Map<string, string>();
    h.register(EDITOR_FILES, editorWith(buffers, { canRead: false }));
    await h.run(readTool, { path: 'c.txt' });
    const r = await h.run(writeTool, { path: 'c.txt', content: 'second\n', mode: 'append' });
    expect(r.isError).toBeFalsy();
    expect(buffers.get(path)).toBe('first\nsecond\n');
    expect(readFileSync(path, 'utf8')).toBe('first\n');
  });

  it('an editor that refuses the write gives an error naming it, and the disk is unchanged', async () => {
    const h = makeToolHarness();
    h.register(EDITOR_FILES, editorWith(new Map(), { failWrites: 'the buffer is read-only' }));
    const r = await h.run(writeTool, { path: 'd.txt', content: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(`Could not write ${join(h.cwd, 'd.txt')} through the editor: the buffer is read-only`);
  });

  it('a UTF-16 file is edited on disk (the editor only takes plain UTF-8 text)', async () => {
    const h = makeToolHarness();
    const path = join(h.cwd, 'wide.txt');
    writeFileSync(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello wide\n', 'utf16le')]));
    const editor = editorWith(new Map());
    h.register(EDITOR_FILES, editor);
    await h.run(readTool, { path: 'wide.txt' });
    const r = await h.run(editTool, { path: 'wide.txt', old_string: 'hello', new_string: 'bye' });
    expect(r.isError).toBeFalsy();
    expect(editor.writes).toEqual([]);
    expect(readFileSync(path).subarray(2).toString('utf16le')).toBe('bye wide\n');
  });
});
