// A URL as a QR code in the terminal (docs/remote.md "The QR code"), for a phone to scan: `/remote` in the terminal
// UI and `jarvis web` print one. Two module rows share one text row (the half-block characters ▀ ▄ █), so the code
// is about half as tall as it is wide, which looks square in a terminal's cells. The encoder is qrcode-generator
// (bundled, no dependencies of its own); callers import this module lazily, so it stays off the start path.
import qrcode from 'qrcode-generator';

/** Error correction M (15 %): a phone reads a terminal's code from a screen, not from a scuffed print. */
const LEVEL = 'M';
/** Light modules around the code; 4 is the standard's, 2 is what scanners need in practice and saves rows. */
export const QUIET_ZONE = 2;
/** The largest code (version 40) at level M holds 2331 bytes; anything longer is refused by name. */
export const MAX_QR_BYTES = 2331;

export class QrTooLongError extends Error {}

/** The code's modules, `true` for dark, with the quiet zone around them. */
export function qrMatrix(text: string): boolean[][] {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_QR_BYTES)
    throw new QrTooLongError(`the text is ${bytes} bytes; a QR code holds at most ${MAX_QR_BYTES} at this level`);
  const code = qrcode(0, LEVEL);
  // Byte mode over UTF-8, so any URL (an IPv6 host, a non-ASCII path) survives.
  code.addData(unescape(encodeURIComponent(text)), 'Byte');
  code.make();
  const n = code.getModuleCount();
  const size = n + 2 * QUIET_ZONE;
  const rows: boolean[][] = [];
  for (let r = 0; r < size; r++) {
    const row: boolean[] = [];
    for (let c = 0; c < size; c++) {
      const inside = r >= QUIET_ZONE && c >= QUIET_ZONE && r < n + QUIET_ZONE && c < n + QUIET_ZONE;
      row.push(inside && code.isDark(r - QUIET_ZONE, c - QUIET_ZONE));
    }
    rows.push(row);
  }
  return rows;
}

export interface QrRenderOptions {
  /**
   * `true`: black on white, set with SGR colours, so the code reads the same on a dark or a light terminal.
   * `false` (NO_COLOR, a log file): the characters alone, a full block for dark modules (dark text on a light page).
   */
  color: boolean;
}

const HALF = [' ', '▄', '▀', '█']; // index: top dark ×2 + bottom dark
const ON_WHITE = '\x1b[30;107m';
const RESET = '\x1b[0m';

/** The code as terminal lines, two module rows per line. */
export function renderQr(text: string, opts: QrRenderOptions): string[] {
  const m = qrMatrix(text);
  const lines: string[] = [];
  for (let r = 0; r < m.length; r += 2) {
    let line = '';
    for (let c = 0; c < m[r].length; c++) {
      const top = m[r][c] ? 2 : 0;
      const bottom = r + 1 < m.length && m[r + 1][c] ? 1 : 0;
      line += HALF[top + bottom];
    }
    lines.push(opts.color ? `${ON_WHITE}${line}${RESET}` : line);
  }
  return lines;
}

/** Whether a stream's reader gets colours: a terminal, and NO_COLOR unset (https://no-color.org). */
export function qrColorFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return !!stream.isTTY && !env.NO_COLOR;
}
