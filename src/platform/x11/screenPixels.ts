// Screen pixels as the X server hands them over (GetImage, ZPixmap: 16 or 32 bits per pixel, in the server's
// byte order, channels where the visual's masks say) turned into 8-bit RGB, scaled down by averaging: each output
// pixel is the mean of the block of screen pixels it covers (docs/computer-use.md, "Coordinates").
import type { X11Setup, X11Visual } from './x11Connection';

export interface ScreenRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Scaling {
  /** Output size. */
  width: number;
  height: number;
  /** The scale as whole numbers: `screenWidth` screen pixels across are `spaceWidth` scaled pixels (exact arithmetic). */
  screenWidth: number;
  screenHeight: number;
  spaceWidth: number;
  spaceHeight: number;
  /** The output's top-left in scaled coordinates (0, 0 for the whole screen). */
  originX: number;
  originY: number;
}

interface Channel {
  shift: number;
  max: number;
}

function channel(mask: number): Channel {
  if (!mask) throw new Error('the screen visual has an empty colour mask');
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  return { shift, max: mask >>> shift };
}

/**
 * `data` holds the pixels of `source` (a rectangle of the screen); the result is `scaling.width` × `height` × 3
 * bytes of RGB. Output pixel (u, v) averages the screen pixels [⌊(originX+u)·W/w⌋, ⌊(originX+u+1)·W/w⌋) across (W the screen's width, w the scaled one) and
 * the same down, so a part of the screen scaled alone matches the same part of the whole screen scaled.
 */
export function scaleScreenPixels(
  data: Buffer,
  source: ScreenRect,
  depth: number,
  visual: X11Visual,
  setup: Pick<X11Setup, 'formats' | 'imageByteOrder'>,
  scaling: Scaling,
): Uint8Array {
  const format = setup.formats.find((f) => f.depth === depth);
  const bpp = format?.bitsPerPixel;
  if (bpp !== 32 && bpp !== 16)
    throw new Error(
      `screens of depth ${depth} (${bpp ?? '?'} bits per pixel) cannot be captured yet; 16- and 24/32-bit screens can`,
    );
  const bytes = bpp / 8;
  const pad = format!.scanlinePad;
  const stride = Math.ceil((source.width * bpp) / pad) * (pad / 8);
  if (data.length < stride * source.height)
    throw new Error(`the X server sent ${data.length} bytes of pixels, expected ${stride * source.height}`);
  const r = channel(visual.redMask);
  const g = channel(visual.greenMask);
  const b = channel(visual.blueMask);
  const pixels = pixelWords(data, bytes, setup.imageByteOrder === 'lsb', stride, source.height);
  const words = stride / bytes;
  const { width, height } = scaling;
  const columns = spans(width, scaling.originX, scaling.screenWidth, scaling.spaceWidth, source.x, source.width);
  const rows = spans(height, scaling.originY, scaling.screenHeight, scaling.spaceHeight, source.y, source.height);
  const out = new Uint8Array(width * height * 3);
  const sums = new Float64Array(width * 3);
  const [rs, gs, bs, rm, gm, bm] = [r.shift, g.shift, b.shift, r.max, g.max, b.max];
  const [rk, gk, bk] = [255 / rm, 255 / gm, 255 / bm];
  for (let v = 0; v < height; v++) {
    sums.fill(0);
    const y0 = rows[2 * v];
    const y1 = rows[2 * v + 1];
    for (let y = y0; y < y1; y++) {
      const line = y * words;
      for (let u = 0; u < width; u++) {
        let sr = 0;
        let sg = 0;
        let sb = 0;
        const x1 = line + columns[2 * u + 1];
        for (let x = line + columns[2 * u]; x < x1; x++) {
          const p = pixels[x];
          sr += (p >>> rs) & rm;
          sg += (p >>> gs) & gm;
          sb += (p >>> bs) & bm;
        }
        const at = 3 * u;
        sums[at] += sr;
        sums[at + 1] += sg;
        sums[at + 2] += sb;
      }
    }
    for (let u = 0; u < width; u++) {
      const n = (columns[2 * u + 1] - columns[2 * u]) * (y1 - y0);
      const at = 3 * (v * width + u);
      if (!n) continue;
      out[at] = Math.round((sums[3 * u] / n) * rk);
      out[at + 1] = Math.round((sums[3 * u + 1] / n) * gk);
      out[at + 2] = Math.round((sums[3 * u + 2] / n) * bk);
    }
  }
  return out;
}

/** The pixels as numbers, one per pixel, in this machine's byte order. */
function pixelWords(
  data: Buffer,
  bytes: number,
  lsb: boolean,
  stride: number,
  rows: number,
): Uint32Array | Uint16Array {
  const length = (stride * rows) / bytes;
  const littleEndianHost = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const aligned = data.byteOffset % bytes === 0;
  if (lsb === littleEndianHost && aligned) {
    return bytes === 4
      ? new Uint32Array(data.buffer, data.byteOffset, length)
      : new Uint16Array(data.buffer, data.byteOffset, length);
  }
  const out = bytes === 4 ? new Uint32Array(length) : new Uint16Array(length);
  for (let i = 0; i < length; i++) {
    const at = i * bytes;
    out[i] =
      bytes === 4
        ? lsb
          ? data.readUInt32LE(at)
          : data.readUInt32BE(at)
        : lsb
          ? data.readUInt16LE(at)
          : data.readUInt16BE(at);
  }
  return out;
}

/** For each output index, the [start, end) of source indices it averages, relative to the captured rectangle. */
function spans(
  count: number,
  origin: number,
  screen: number,
  space: number,
  sourceStart: number,
  sourceLength: number,
): Int32Array {
  const out = new Int32Array(count * 2);
  const clamp = (n: number) => Math.min(sourceLength, Math.max(0, n));
  // Whole numbers divided once: exact, where multiplying by a rounded scale factor could land a pixel off.
  const edge = (i: number) => Math.floor((i * screen) / space) - sourceStart;
  for (let i = 0; i < count; i++) {
    const start = clamp(edge(origin + i));
    const end = clamp(Math.max(edge(origin + i + 1), start + 1));
    out[2 * i] = start;
    out[2 * i + 1] = end;
  }
  return out;
}
