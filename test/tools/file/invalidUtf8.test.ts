// Bytes that are not valid UTF-8 are never rewritten: Edit changes only the matched bytes, Write
// refuses to overwrite, Read names the line of the first bad byte.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editTool, readTool, writeTool } from '../../../src/tools/file';
import { findInvalidUtf8, Utf8Scanner } from '../../../src/tools/file/utf8Validity';
import { makeToolHarness } from '../../helpers/toolHarness';

// Line 2 holds a lone 0xFF (never valid); line 4 a Latin-1 "é" (0xE9 followed by ASCII).
const ORIGINAL = Buffer.concat([
  Buffer.from('alpha = 1\nbeta '),
  Buffer.from([0xff]),
  Buffer.from(' = 2\ngamma = 3\ncaf'),
  Buffer.from([0xe9]),
  Buffer.from(' = 4\nnaïve = 5\n'),
]);

async function readFirst(content: Buffer) {
  const h = makeToolHarness();
  const file = join(h.cwd, 'latin.txt');
  writeFileSync(file, content);
  const read = await h.run(readTool, { path: 'latin.txt' });
  return { h, file, read };
}

describe('UTF-8 validity scan', () => {
  it.each([
    ['valid multi-byte text', Buffer.from('naïve ☃ 𝄞\n'), undefined],
    ['a lone continuation byte', Buffer.from([0x61, 0x0a, 0x80]), { offset: 2, line: 2 }],
    ['an overlong encoding', Buffer.from([0xc0, 0xaf]), { offset: 0, line: 1 }],
    ['a UTF-16 surrogate', Buffer.from([0x0a, 0xed, 0xa0, 0x80]), { offset: 1, line: 2 }],
    ['a sequence cut by the end', Buffer.from([0x61, 0xe2, 0x98]), { offset: 1, line: 1 }],
  ])('%s', (_name, bytes, expected) => {
    expect(findInvalidUtf8(bytes)).toEqual(expected);
  });

  it('finds the same byte when a sequence straddles chunks', () => {
    const bytes = Buffer.from('ab\n☃\n\u00e9x');
    const bad = Buffer.concat([bytes, Buffer.from([0xe2, 0x28])]);
    for (let cut = 0; cut <= bad.length; cut++) {
      const scanner = new Utf8Scanner();
      scanner.feed(bad.subarray(0, cut));
      scanner.feed(bad.subarray(cut));
      expect(scanner.end()).toEqual({ offset: bytes.length, line: 3 });
    }
  });
});

describe('files that are not valid UTF-8', () => {
  it('Read shows the text and names the line of the first invalid byte', async () => {
    const { read } = await readFirst(ORIGINAL);
    expect(read.isError).toBeFalsy();
    expect(read.text).toContain('2\tbeta \uFFFD = 2');
    expect(read.text).toMatch(/Not valid UTF-8: the first byte that is not UTF-8 text is on line 2 \(byte offset 15\)/);
  });

  it('Read of a valid file has no such note', async () => {
    const { read } = await readFirst(Buffer.from('naïve\n'));
    expect(read.text).not.toContain('Not valid UTF-8');
  });

  it('Edit changes only the matched bytes; invalid bytes elsewhere stay as they were', async () => {
    const { h, file } = await readFirst(ORIGINAL);
    const r = await h.run(editTool, { path: 'latin.txt', old_string: 'gamma = 3', new_string: 'gamma = 33 ☃' });
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('not valid UTF-8 (first at line 2)');
    const expected = Buffer.from(
      ORIGINAL.toString('latin1').replace('gamma = 3', Buffer.from('gamma = 33 ☃').toString('latin1')),
      'latin1',
    );
    expect(readFileSync(file).equals(expected)).toBe(true);
    expect(readFileSync(file).includes(Buffer.from([0x20, 0xff, 0x20]))).toBe(true);
    expect(readFileSync(file).includes(Buffer.from('naïve = 5'))).toBe(true);
  });

  it('Edit with U+FFFD copied from Read does not match and explains why', async () => {
    const { h, file } = await readFirst(ORIGINAL);
    const r = await h.run(editTool, { path: 'latin.txt', old_string: 'beta \uFFFD = 2', new_string: 'beta = 2' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('old_string contains U+FFFD');
    expect(r.text).toContain('not valid UTF-8 (first at line 2)');
    expect(readFileSync(file).equals(ORIGINAL)).toBe(true);
  });

  it('Write refuses to overwrite such a file, and appending still works', async () => {
    const { h, file } = await readFirst(ORIGINAL);
    const r = await h.run(writeTool, { path: 'latin.txt', content: 'alpha = 1\nbeta \uFFFD = 2\n' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/not valid UTF-8 \(the first undecodable byte is on line 2\).*Edit/);
    expect(readFileSync(file).equals(ORIGINAL)).toBe(true);
    const appended = await h.run(writeTool, { path: 'latin.txt', content: 'delta = 6\n', mode: 'append' });
    expect(appended.isError).toBeFalsy();
    expect(readFileSync(file).equals(Buffer.concat([ORIGINAL, Buffer.from('delta = 6\n')]))).toBe(true);
  });
});
