// The terminal QR code (docs/remote.md "The QR code"): what it prints is read back by a real QR decoder (jsQR) from
// the characters alone, the way a phone's camera reads the screen.
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { pixelsOfTextQr } from '../helpers/screenQr';
import { MAX_QR_BYTES, QrTooLongError, qrColorFor, qrMatrix, renderQr } from '../../src/platform/terminalQr';

const SGR = new RegExp(String.raw`\x1b\[[0-9;]*m`, 'g');

/** Decodes exactly these lines (each the same width, nothing but half blocks once the colours are taken out). */
function decode(lines: string[]): string | undefined {
  const plain = lines.map((l) => l.replace(SGR, ''));
  for (const l of plain) expect([...l].length).toBe([...plain[0]].length);
  const { data, width, height } = pixelsOfTextQr(plain);
  return jsQR(data, width, height, { inversionAttempts: 'dontInvert' })?.data;
}

const LINK = 'http://127.0.0.1:58627/#login=Qm9uam91ci1sZS1tb25kZS1jZWNpLWVzdC11bi1jb2Rl_-x';

describe('renderQr', () => {
  it.each([
    ['a login link', LINK],
    ['a tailnet address', 'http://100.101.102.103:58627/#login=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE'],
    ['an IPv6 host', 'http://[fd7a:115c:a1e0::1]:58627/'],
    ['a non-ASCII path', 'http://localhost:58627/café/ü'],
    ['a short text', 'x'],
  ])('%s decodes back to the same text, without colours', (_name, url) => {
    expect(decode(renderQr(url, { color: false }))).toBe(url);
  });

  it('with colours it is black on white whatever the terminal, and decodes the same', () => {
    const lines = renderQr(LINK, { color: true });
    for (const l of lines) expect(l).toMatch(/^\x1b\[30;107m[ ▀▄█]+\x1b\[0m$/);
    expect(decode(lines)).toBe(LINK);
  });

  it('keeps a light quiet zone of two modules on every side', () => {
    const m = qrMatrix(LINK);
    const n = m.length;
    for (let i = 0; i < n; i++)
      for (const [r, c] of [
        [0, i],
        [1, i],
        [n - 1, i],
        [n - 2, i],
        [i, 0],
        [i, 1],
        [i, n - 1],
        [i, n - 2],
      ])
        expect(m[r][c]).toBe(false);
    // The top-left finder pattern starts right inside it.
    expect(m[2].slice(2, 9)).toEqual(Array(7).fill(true));
  });

  it('is about half as many lines as modules (two rows per line)', () => {
    const m = qrMatrix(LINK);
    expect(renderQr(LINK, { color: false })).toHaveLength(Math.ceil(m.length / 2));
  });

  it('refuses a text longer than the largest code holds, saying how long it is', () => {
    const text = 'a'.repeat(MAX_QR_BYTES + 1);
    expect(() => renderQr(text, { color: false })).toThrow(QrTooLongError);
    expect(() => renderQr(text, { color: false })).toThrow(`the text is ${MAX_QR_BYTES + 1} bytes`);
    // The largest that fits still encodes and decodes.
    expect(decode(renderQr('a'.repeat(MAX_QR_BYTES), { color: false }))).toBe('a'.repeat(MAX_QR_BYTES));
  });
});

describe('qrColorFor', () => {
  it('colours a terminal unless NO_COLOR is set, never a pipe', () => {
    expect(qrColorFor({ isTTY: true }, {})).toBe(true);
    expect(qrColorFor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(qrColorFor({ isTTY: false }, {})).toBe(false);
    expect(qrColorFor({}, {})).toBe(false);
  });
});
