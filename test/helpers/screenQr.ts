// Reads a QR code printed with half blocks (src/platform/terminalQr.ts) off a terminal's text, as a phone's camera
// would: the characters become pixels and jsQR decodes them.
import jsQR from 'jsqr';

const HALVES: Record<string, number[]> = { ' ': [], '▀': [0], '▄': [1], '█': [0, 1] };

/** Rows of half blocks as an RGBA image, each module `scale` pixels square; any other character throws. */
export function pixelsOfTextQr(rows: string[], scale = 4): { data: Uint8ClampedArray; width: number; height: number } {
  const width = Math.max(...rows.map((r) => [...r].length));
  const w = width * scale;
  const h = rows.length * 2 * scale;
  const data = new Uint8ClampedArray(w * h * 4).fill(255);
  rows.forEach((row, line) =>
    [...row].forEach((ch, col) => {
      const halves = HALVES[ch];
      if (!halves) throw new Error(`not a half block: ${JSON.stringify(ch)}`);
      for (const half of halves)
        for (let y = 0; y < scale; y++)
          for (let x = 0; x < scale; x++) {
            const p = (((line * 2 + half) * scale + y) * w + col * scale + x) * 4;
            data[p] = data[p + 1] = data[p + 2] = 0;
          }
    }),
  );
  return { data, width: w, height: h };
}

/** The text of the first QR code in these lines (rows made of half blocks only), or undefined. */
export function decodeTextQr(text: string): string | undefined {
  const rows = text
    .split('\n')
    .map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''))
    .filter((l) => /^\s*[ ▀▄█]{20,}\s*$/.test(l) && /[▀▄█]/.test(l));
  if (!rows.length) return undefined;
  const { data, width, height } = pixelsOfTextQr(rows);
  return jsQR(data, width, height, { inversionAttempts: 'dontInvert' })?.data;
}
