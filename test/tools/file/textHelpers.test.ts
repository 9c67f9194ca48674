// The pieces under Read and Edit: line splitting across chunk boundaries and encoding detection.
import { describe, expect, it } from 'vitest';
import { readLineWindow, splitLines } from '../../../src/tools/file/lineWindow';
import { decodeText, detectEncoding, encodeText } from '../../../src/tools/file/textEncoding';

async function collect(chunks: string[], keep = 100) {
  const out = [];
  for await (const line of splitLines(chunks, keep)) out.push(line);
  return out;
}

describe('splitLines', () => {
  it('handles CRLF split across chunks', async () => {
    const lines = await collect(['one\r', '\ntwo\r\n', 'thr', 'ee']);
    expect(lines.map((l) => [l.text, l.crlf, l.terminated])).toEqual([
      ['one', true, true],
      ['two', true, true],
      ['three', false, false],
    ]);
  });

  it('keeps only the first characters of a huge line but reports its length', async () => {
    const [line] = await collect(['x'.repeat(50), 'y'.repeat(50), '\n'], 10);
    expect(line.text.length).toBeLessThanOrEqual(11);
    expect(line.length).toBe(100);
  });

  it('counts a trailing newline as ending the last line, not starting one', async () => {
    expect(await collect(['a\n'])).toHaveLength(1);
    expect(await collect(['a\n\n'])).toHaveLength(2);
    expect(await collect([''])).toHaveLength(0);
  });
});

describe('readLineWindow', () => {
  const format = (n: number, text: string) => `${n}:${text}`;
  const base = { limit: 1000, maxBytes: 1e6, maxLineChars: 100, formatLine: format };

  it('knows the total when it reaches the end', async () => {
    const w = await readLineWindow(['a\nb\nc\n'], { ...base, offset: 2 });
    expect(w.lines).toEqual(['2:b', '3:c']);
    expect(w.totalLines).toBe(3);
    expect(w.moreAfter).toBe(false);
  });

  it('stops a forward window early and reports more', async () => {
    const w = await readLineWindow(['a\nb\nc\n'], { ...base, offset: 1, limit: 2 });
    expect(w).toMatchObject({ lines: ['1:a', '2:b'], moreAfter: true, stoppedBy: 'limit' });
    expect(w.totalLines).toBeUndefined();
  });

  it('returns the tail of a file for a negative offset', async () => {
    const chunks = Array.from({ length: 50 }, (_, i) => `line${i + 1}\n`);
    const w = await readLineWindow(chunks, { ...base, offset: -3 });
    expect(w.lines).toEqual(['48:line48', '49:line49', '50:line50']);
  });
});

describe('detectEncoding', () => {
  it.each([
    ['plain ASCII', Buffer.from('hello world\n'), 'utf8'],
    ['UTF-8 with accents', Buffer.from('héllo wörld ñ 日本\n'), 'utf8'],
    ['UTF-8 BOM', Buffer.from([0xef, 0xbb, 0xbf, 0x61]), 'utf8-bom'],
    ['UTF-16 LE BOM', Buffer.from([0xff, 0xfe, 0x61, 0]), 'utf16le'],
    ['UTF-16 BE BOM', Buffer.from([0xfe, 0xff, 0, 0x61]), 'utf16be'],
    ['BOM-less UTF-16 LE', Buffer.from('some text here\n', 'utf16le'), 'utf16le'],
    ['BOM-less UTF-16 BE', Buffer.from('some text here\n', 'utf16le').swap16(), 'utf16be'],
    ['binary with scattered NULs', Buffer.from([1, 0, 0, 0, 5, 6, 0, 0, 9, 9, 9, 0]), 'utf8'],
  ])('%s → %s', (_name, bytes, expected) => {
    expect(detectEncoding(bytes)).toBe(expected);
  });

  it.each(['utf16le', 'utf16be', 'utf8-bom', 'utf8'] as const)('round-trips %s', (encoding) => {
    const bytes = encodeText('Grüße\r\nend', encoding, true);
    expect(decodeText(bytes, detectEncoding(bytes))).toBe('Grüße\r\nend');
  });
});
