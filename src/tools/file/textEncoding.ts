// Text encodings the file tools understand: UTF-8 (with or without BOM) and UTF-16 LE/BE (with a
// BOM, or without one when the byte pattern makes it obvious). Edit writes a file back in the
// encoding it was read in, so a UTF-16 file stays UTF-16.

export type TextEncoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be';

/** UTF-16 files are decoded whole; above this size Read refuses rather than hold a huge copy. */
export const MAX_UTF16_BYTES = 10 * 1024 * 1024;

const SNIFF_BYTES = 4096;

/**
 * BOM first; otherwise UTF-16 is inferred when, over the first few KB, most byte pairs have a zero
 * on one side and almost none on the other (ASCII-heavy text encoded as UTF-16).
 */
export function detectEncoding(head: Uint8Array): TextEncoding {
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf8-bom';
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf16be';
  const pairs = Math.floor(Math.min(head.length, SNIFF_BYTES) / 2);
  if (pairs < 2) return 'utf8';
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < pairs; i++) {
    if (head[2 * i] === 0) evenZeros++;
    if (head[2 * i + 1] === 0) oddZeros++;
  }
  if (oddZeros >= pairs * 0.4 && evenZeros <= pairs * 0.05) return 'utf16le';
  if (evenZeros >= pairs * 0.4 && oddZeros <= pairs * 0.05) return 'utf16be';
  return 'utf8';
}

export function isUtf16(encoding: TextEncoding): boolean {
  return encoding === 'utf16le' || encoding === 'utf16be';
}

export function bomLength(encoding: TextEncoding, head: Uint8Array): number {
  if (encoding === 'utf8-bom') return 3;
  if (
    isUtf16(encoding) &&
    head.length >= 2 &&
    ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))
  )
    return 2;
  return 0;
}

function swapBytes(bytes: Uint8Array): Buffer {
  const out = Buffer.alloc(bytes.length - (bytes.length % 2));
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    out[i] = bytes[i + 1];
    out[i + 1] = bytes[i];
  }
  return out;
}

export function decodeText(bytes: Buffer, encoding: TextEncoding): string {
  const body = bytes.subarray(bomLength(encoding, bytes));
  if (encoding === 'utf16le') return body.toString('utf16le');
  if (encoding === 'utf16be') return swapBytes(body).toString('utf16le');
  return body.toString('utf8');
}

/** Encodes text the way a file of that encoding was stored; `withBom` keeps a UTF-16 BOM if it had one. */
export function encodeText(text: string, encoding: TextEncoding, withBom: boolean): Buffer {
  if (encoding === 'utf8') return Buffer.from(text, 'utf8');
  if (encoding === 'utf8-bom') return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
  const le = Buffer.from(text, 'utf16le');
  const body = encoding === 'utf16le' ? le : swapBytes(le);
  if (!withBom) return body;
  return Buffer.concat([Buffer.from(encoding === 'utf16le' ? [0xff, 0xfe] : [0xfe, 0xff]), body]);
}

/** A NUL byte in the first few KB of a non-UTF-16 file means binary content. */
export function looksBinary(head: Uint8Array): boolean {
  const n = Math.min(head.length, SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (head[i] === 0) return true;
  return false;
}
