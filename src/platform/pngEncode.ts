// A PNG encoder for 8-bit RGB pixels with nothing but node:zlib (docs/computer-use.md, "Screenshots"): the
// computer-use plugin runs from its own folder, where sharp (an optional peer dependency, docs/distribution.md)
// cannot be found. Each row is stored with the "Up" filter (the difference to the row above), which suits
// screen contents — large flat areas and repeated rows — and costs one subtraction per byte.
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Encodes `rgb` (width × height × 3 bytes, rows top to bottom) as a PNG; `level` is zlib's (1 fast … 9 small). */
export function encodePng(rgb: Uint8Array, width: number, height: number, level = 6): Buffer {
  if (rgb.length !== width * height * 3)
    throw new Error(`expected ${width * height * 3} bytes of RGB, got ${rgb.length}`);
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const out = y * (stride + 1);
    const row = y * stride;
    if (y === 0) {
      raw[out] = 0; // None
      raw.set(rgb.subarray(0, stride), out + 1);
      continue;
    }
    raw[out] = 2; // Up
    for (let x = 0; x < stride; x++) raw[out + 1 + x] = (rgb[row + x] - rgb[row - stride + x]) & 0xff;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
