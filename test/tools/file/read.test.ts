import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editTool, readTool, READ_MAX_BYTES, READ_MAX_LINE_CHARS, READ_MAX_LINES } from '../../../src/tools/file';
import { makeToolHarness } from '../../helpers/toolHarness';

function numbered(n: number, text = (i: number) => `line ${i}`): string {
  return Array.from({ length: n }, (_, i) => text(i + 1)).join('\n') + '\n';
}

function setup(files: Record<string, string | Buffer>) {
  const h = makeToolHarness();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(h.cwd, name, '..'), { recursive: true });
    writeFileSync(join(h.cwd, name), content);
  }
  return h;
}

const bodyLines = (text: string) => text.split('\n\n[')[0].split('\n');

describe('Read', () => {
  it('numbers lines as <n><TAB><content>', async () => {
    const h = setup({ 'a.txt': 'alpha\nbeta\n' });
    const r = await h.run(readTool, { path: 'a.txt' });
    expect(r.isError).toBeFalsy();
    expect(r.text).toBe('1\talpha\n2\tbeta');
    expect(r.display).toEqual({ kind: 'file', path: join(h.cwd, 'a.txt'), lines: 2 });
  });

  it('returns at most 1000 lines and says how to continue (rule 1)', async () => {
    const h = setup({ 'big.txt': numbered(1500) });
    const r = await h.run(readTool, { path: 'big.txt' });
    const lines = bodyLines(r.text);
    expect(lines).toHaveLength(READ_MAX_LINES);
    expect(lines[999]).toBe('1000\tline 1000');
    expect(r.text).toContain('line_offset=1001');
    const next = await h.run(readTool, { path: 'big.txt', line_offset: 1001 });
    expect(bodyLines(next.text)).toHaveLength(500);
    expect(next.text).not.toContain('Truncated');
  });

  it('caps n_lines at 1000 and honours smaller n_lines with a continuation notice', async () => {
    const h = setup({ 'big.txt': numbered(1500) });
    expect(bodyLines((await h.run(readTool, { path: 'big.txt', n_lines: 5000 })).text)).toHaveLength(1000);
    const r = await h.run(readTool, { path: 'big.txt', line_offset: 10, n_lines: 3 });
    expect(bodyLines(r.text)).toEqual(['10\tline 10', '11\tline 11', '12\tline 12']);
    expect(r.text).toContain('line_offset=13');
  });

  it('stops at 100 KB of output with a notice (rule 2)', async () => {
    // ASCII: 100 KB is 100 000+ characters, over the engine's default 50 000-character cap; Read
    // raises its own cap, so the model gets Read's limit and notice, not the central offloading.
    const h = setup({ 'wide.txt': numbered(900, (i) => `${i} ${'a'.repeat(200)}`) });
    const r = await h.run(readTool, { path: 'wide.txt' });
    const lines = bodyLines(r.text);
    expect(lines.length).toBeLessThan(900);
    expect(Buffer.byteLength(lines.join('\n'))).toBeLessThanOrEqual(READ_MAX_BYTES);
    expect(r.text).toContain(`${READ_MAX_BYTES / 1024} KB`);
    expect(r.text).toContain(`line_offset=${lines.length + 1}`);
    expect(r.text).not.toContain('characters omitted');
  });

  it('cuts lines longer than 2000 characters with a visible marker (rule 3)', async () => {
    const h = setup({ 'long.txt': `short\n${'y'.repeat(5000)}\n` });
    const r = await h.run(readTool, { path: 'long.txt' });
    const second = bodyLines(r.text)[1];
    expect(second.startsWith(`2\t${'y'.repeat(READ_MAX_LINE_CHARS)}…`)).toBe(true);
    expect(second).toContain('[cut: line has 5000 characters]');
    expect(r.text).toContain('longer than 2000 characters were cut');
  });

  it.each([
    [-1, ['5\tline 5']],
    [-3, ['3\tline 3', '4\tline 4', '5\tline 5']],
    [-100, ['1\tline 1', '2\tline 2', '3\tline 3', '4\tline 4', '5\tline 5']],
  ])('negative line_offset %i counts from the end (rule 4)', async (offset, expected) => {
    const h = setup({ 'f.txt': numbered(5) });
    expect(bodyLines((await h.run(readTool, { path: 'f.txt', line_offset: offset })).text)).toEqual(expected);
  });

  it('negative offset with n_lines reads forward from that point', async () => {
    const h = setup({ 'f.txt': numbered(2000) });
    const r = await h.run(readTool, { path: 'f.txt', line_offset: -1000, n_lines: 2 });
    expect(bodyLines(r.text)).toEqual(['1001\tline 1001', '1002\tline 1002']);
    expect(r.text).toContain('line_offset=1003');
  });

  it.each([
    [0, 'line_offset 0 is invalid'],
    [-1001, 'at least -1000'],
    [1.5, 'line_offset'],
  ])('rejects line_offset %s (rule 4)', async (offset, message) => {
    const h = setup({ 'f.txt': 'x\n' });
    const r = await h.run(readTool, { path: 'f.txt', line_offset: offset });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(message);
  });

  it('reports an offset past the end', async () => {
    const h = setup({ 'f.txt': numbered(3) });
    const r = await h.run(readTool, { path: 'f.txt', line_offset: 10 });
    expect(r.text).toContain('past the end');
    expect(r.text).toContain('3 lines');
  });

  it('rejects a directory with guidance to use Glob/Bash (rule 5)', async () => {
    const h = setup({ 'sub/a.txt': 'x' });
    const r = await h.run(readTool, { path: 'sub' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('is a directory');
    expect(r.text).toContain('Glob');
  });

  it.each([
    ['pic.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])],
    ['pic.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])],
    ['clip.mp4', Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)])],
    ['noext', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
  ])('points %s at ReadMediaFile (rule 5)', async (name, bytes) => {
    const h = setup({ [name]: bytes });
    const r = await h.run(readTool, { path: name });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('ReadMediaFile');
  });

  it('reads SVG as text (it is XML, not a raster image)', async () => {
    const h = setup({ 'icon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n' });
    expect((await h.run(readTool, { path: 'icon.svg' })).text).toBe('1\t<svg xmlns="http://www.w3.org/2000/svg"/>');
  });

  it.each([
    [
      'UTF-16 LE with BOM',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\nwörld\n', 'utf16le')]),
      'UTF-16 LE',
    ],
    [
      'UTF-16 BE with BOM',
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('héllo\nwörld\n', 'utf16le').swap16()]),
      'UTF-16 BE',
    ],
    ['UTF-16 LE without BOM', Buffer.from('héllo\nwörld\n', 'utf16le'), 'UTF-16 LE'],
    ['UTF-16 BE without BOM', Buffer.from('héllo\nwörld\n', 'utf16le').swap16(), 'UTF-16 BE'],
  ])('decodes %s (rule 6)', async (_name, bytes, label) => {
    const h = setup({ 'u16.txt': bytes });
    const r = await h.run(readTool, { path: 'u16.txt' });
    expect(r.isError).toBeFalsy();
    expect(bodyLines(r.text)).toEqual(['1\théllo', '2\twörld']);
    expect(r.text).toContain(`Decoded from ${label}`);
  });

  it('refuses a UTF-16 file over 10 MiB with a conversion hint', async () => {
    const h = setup({
      'huge16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('abcdefgh\n'.repeat(600_000), 'utf16le')]),
    });
    const r = await h.run(readTool, { path: 'huge16.txt' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('10 MiB');
    expect(r.text).toContain('iconv');
  });

  it('strips a UTF-8 BOM', async () => {
    const h = setup({ 'bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('first\n')]) });
    expect((await h.run(readTool, { path: 'bom.txt' })).text).toBe('1\tfirst');
  });

  it('says visibly that a file is empty', async () => {
    const h = setup({ 'empty.txt': '' });
    const r = await h.run(readTool, { path: 'empty.txt' });
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('empty');
  });

  it('reports CRLF and mixed line endings and hides the CR', async () => {
    const h = setup({ 'crlf.txt': 'a\r\nb\r\n', 'mixed.txt': 'a\r\nb\nc\r\n' });
    const crlf = await h.run(readTool, { path: 'crlf.txt' });
    expect(bodyLines(crlf.text)).toEqual(['1\ta', '2\tb']);
    expect(crlf.text).toContain('Line endings: CRLF');
    const mixed = await h.run(readTool, { path: 'mixed.txt' });
    expect(bodyLines(mixed.text)).toEqual(['1\ta', '2\tb', '3\tc']);
    expect(mixed.text).toContain('Mixed line endings: 2 line(s) end with CRLF and 1 with LF');
    // The note says what was done to the text shown, and what Edit will do.
    expect(mixed.text).toContain(
      "The CR of each CRLF ending is not shown; the file is not changed by reading, and Edit keeps each line's own ending",
    );
  });

  it('shows a carriage return inside a line visibly, says where, and Edit can match it', async () => {
    const h = setup({ 'cr.txt': 'progress 10%\rprogress 100%\nplain\nold mac\r' });
    const r = await h.run(readTool, { path: 'cr.txt' });
    expect(bodyLines(r.text)).toEqual(['1\tprogress 10%\u240Dprogress 100%', '2\tplain', '3\told mac\u240D']);
    expect(r.text).not.toContain('\r');
    expect(r.text).toContain(
      '[2 line(s) shown contain a carriage return (CR) that does not end the line, first on line 1; each is shown as \u240D.',
    );
    expect(r.text).toContain("in Edit's old_string write it as \\r");
    const edit = await h.run(editTool, { path: 'cr.txt', old_string: '10%\rprogress', new_string: '10% then' });
    expect(edit.isError).toBeFalsy();
    expect(readFileSync(join(h.cwd, 'cr.txt'), 'utf8')).toBe('progress 10% then 100%\nplain\nold mac\r');
  });

  it('reads a last line without a trailing newline and keeps blank lines', async () => {
    const h = setup({ 'f.txt': 'a\n\nb' });
    expect((await h.run(readTool, { path: 'f.txt' })).text).toBe('1\ta\n2\t\n3\tb');
  });

  it('refuses binary files', async () => {
    const h = setup({ 'blob.bin': Buffer.from([1, 2, 0, 3, 0, 0, 7, 8, 9, 0, 1]) });
    const r = await h.run(readTool, { path: 'blob.bin' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('binary');
  });

  it('reports a missing file', async () => {
    const h = setup({});
    const r = await h.run(readTool, { path: 'nope.txt' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('File not found');
  });

  it('records a tracked read for the stale guard', async () => {
    const h = setup({ 'a.txt': 'x\n' });
    await h.run(readTool, { path: 'a.txt' });
    expect(h.guard.has(join(h.cwd, 'a.txt'))).toBe(true);
  });

  it('a tail read cut by the byte cap keeps the lines nearest the end', async () => {
    const h = makeToolHarness();
    const line = 'x'.repeat(500);
    writeFileSync(
      join(h.cwd, 'wide.txt'),
      Array.from({ length: 1000 }, (_, i) => `${i + 1} ${line}`).join('\n') + '\n',
    );
    const r = await h.run(readTool, { path: 'wide.txt', line_offset: -1000 });
    expect(r.isError).toBeFalsy();
    const shown = r.text.split('\n').filter((l) => /^\d+\t/.test(l));
    expect(shown.at(-1)).toMatch(/^1000\t1000 x/);
    expect(shown.length).toBeLessThan(1000);
    const firstShown = Number(shown[0].split('\t')[0]);
    expect(r.text).toContain(`[Truncated: showed the last lines ${firstShown}-1000 of 1000;`);
    expect(r.text).toMatch(/To read the lines before, use line_offset=\d+ with n_lines=\d+/);
  });

  it('streams a tail window from a large file', async () => {
    const h = setup({ 'huge.txt': numbered(200_000) });
    const r = await h.run(readTool, { path: 'huge.txt', line_offset: -2 });
    expect(bodyLines(r.text)).toEqual(['199999\tline 199999', '200000\tline 200000']);
  });
});
