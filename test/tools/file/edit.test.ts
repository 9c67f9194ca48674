import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editTool, readTool } from '../../../src/tools/file';
import { makeToolHarness } from '../../helpers/toolHarness';

async function withReadFile(content: string | Buffer, name = 'f.txt') {
  const h = makeToolHarness();
  const file = join(h.cwd, name);
  writeFileSync(file, content);
  await h.run(readTool, { path: name });
  return { h, file };
}

describe('Edit', () => {
  it('replaces a unique match and returns a diff for front ends', async () => {
    const { h, file } = await withReadFile('const a = 1;\nconst b = 2;\n');
    const r = await h.run(editTool, { path: 'f.txt', old_string: 'b = 2', new_string: 'b = 3' });
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('line 2');
    expect(readFileSync(file, 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
    expect(r.display).toEqual({
      kind: 'diff',
      path: file,
      before: 'const a = 1;\nconst b = 2;\n',
      after: 'const a = 1;\nconst b = 3;\n',
    });
  });

  it('errors when old_string equals new_string (rule 12)', async () => {
    const { h } = await withReadFile('x\n');
    const r = await h.run(editTool, { path: 'f.txt', old_string: 'x', new_string: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('identical');
  });

  it('errors on several matches and suggests replace_all: true (rule 13)', async () => {
    const { h, file } = await withReadFile('foo\nbar\nfoo\n');
    const r = await h.run(editTool, { path: 'f.txt', old_string: 'foo', new_string: 'baz' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('2 times');
    expect(r.text).toContain('lines 1, 3');
    expect(r.text).toContain('replace_all: true');
    expect(readFileSync(file, 'utf8')).toBe('foo\nbar\nfoo\n');
  });

  it('replace_all replaces every occurrence (rule 14)', async () => {
    const { h, file } = await withReadFile('foo\nbar\nfoo foo\n');
    const r = await h.run(editTool, { path: 'f.txt', old_string: 'foo', new_string: 'baz', replace_all: true });
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('3 occurrences');
    expect(readFileSync(file, 'utf8')).toBe('baz\nbar\nbaz baz\n');
  });

  it('treats $ patterns in new_string literally', async () => {
    const { h, file } = await withReadFile('price\n');
    await h.run(editTool, { path: 'f.txt', old_string: 'price', new_string: "$& $1 $$ $'" });
    expect(readFileSync(file, 'utf8')).toBe("$& $1 $$ $'\n");
  });

  it('errors with zero matches and shows the closest lines (rule 15)', async () => {
    const { h } = await withReadFile('function computeTotal(items) {\n  return items.length;\n}\n');
    const r = await h.run(editTool, { path: 'f.txt', old_string: 'function computeTotals(items) {', new_string: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('not found');
    expect(r.text).toContain('Closest lines');
    expect(r.text).toContain('1\tfunction computeTotal(items) {');
  });

  it('explains a whitespace-only mismatch', async () => {
    const { h } = await withReadFile('if (x) {\n\treturn 1;\n}\n');
    const r = await h.run(editTool, { path: 'f.txt', old_string: 'if (x) {\n    return 1;', new_string: 'y' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('whitespace');
    expect(r.text).toContain('from line 1');
  });

  it("spots Read's line-number prefixes in old_string", async () => {
    const { h } = await withReadFile('alpha\nbeta\n');
    const r = await h.run(editTool, { path: 'f.txt', old_string: '1\talpha\n2\tbeta', new_string: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('line-number prefixes');
  });

  it('matches \\n against CRLF and keeps CRLF in the result', async () => {
    const { h, file } = await withReadFile('one\r\ntwo\r\nthree\r\n');
    const r = await h.run(editTool, { path: 'f.txt', old_string: 'one\ntwo', new_string: 'uno\ndos\nextra' });
    expect(r.isError).toBeFalsy();
    expect(readFileSync(file, 'utf8')).toBe('uno\r\ndos\r\nextra\r\nthree\r\n');
  });

  it('keeps LF endings in an LF file', async () => {
    const { h, file } = await withReadFile('a\nb\n');
    await h.run(editTool, { path: 'f.txt', old_string: 'a\nb', new_string: 'c\nd' });
    expect(readFileSync(file, 'utf8')).toBe('c\nd\n');
  });

  it('keeps a UTF-16 file UTF-16 with its BOM', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello wörld\n', 'utf16le')]);
    const { h, file } = await withReadFile(bytes);
    const r = await h.run(editTool, { path: 'f.txt', old_string: 'wörld', new_string: 'world' });
    expect(r.isError).toBeFalsy();
    expect(readFileSync(file)).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello world\n', 'utf16le')]),
    );
  });

  it('requires a prior Read (shared guard)', async () => {
    const h = makeToolHarness();
    writeFileSync(join(h.cwd, 'f.txt'), 'x\n');
    const r = await h.run(editTool, { path: 'f.txt', old_string: 'x', new_string: 'y' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('has not been read');
  });

  it('rejects an edit after the file changed on disk (rule 10)', async () => {
    const { h, file } = await withReadFile('x\n');
    writeFileSync(file, 'x\nchanged\n');
    const r = await h.run(editTool, { path: 'f.txt', old_string: 'x', new_string: 'y' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('changed on disk');
  });

  it('allows consecutive edits without re-reading (its own write is tracked)', async () => {
    const { h, file } = await withReadFile('a b c\n');
    expect((await h.run(editTool, { path: 'f.txt', old_string: 'a', new_string: 'A' })).isError).toBeFalsy();
    expect((await h.run(editTool, { path: 'f.txt', old_string: 'b', new_string: 'B' })).isError).toBeFalsy();
    expect(readFileSync(file, 'utf8')).toBe('A B c\n');
  });

  it('errors on a missing file, pointing to Write', async () => {
    const h = makeToolHarness();
    const r = await h.run(editTool, { path: 'missing.txt', old_string: 'a', new_string: 'b' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Write');
  });

  it('rejects an empty old_string', async () => {
    const { h } = await withReadFile('x\n');
    const r = await h.run(editTool, { path: 'f.txt', old_string: '', new_string: 'y' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('old_string is empty');
  });

  it('deletes text when new_string is empty', async () => {
    const { h, file } = await withReadFile('keep remove keep\n');
    await h.run(editTool, { path: 'f.txt', old_string: ' remove', new_string: '' });
    expect(readFileSync(file, 'utf8')).toBe('keep keep\n');
  });
});
