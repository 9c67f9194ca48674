// Image resizing and compression on sharp, loaded with a dynamic import on first use only (sharp is
// a native module and costs start-up time). Everything here works on in-memory buffers.
import type { Sharp, SharpOptions } from 'sharp';

type SharpFactory = (input?: Buffer, options?: SharpOptions) => Sharp;

let loading: Promise<SharpFactory> | undefined;

/**
 * The sharp release Jarvis is tested with: package.json names it as an optional peer dependency, which
 * npm does not install by default (it is 18 MB of the install; docs/distribution.md).
 */
export const SHARP_VERSION = '0.34.5';

/**
 * Without sharp (the default install, or a platform without its prebuilt binaries) image work fails with
 * this error, which says what is missing and how to add it, instead of a module-resolution message.
 */
export class ImageSupportMissingError extends Error {
  constructor(reason: string) {
    super(
      `image support is not installed: the optional package sharp could not be loaded (${reason}). ` +
        `Jarvis does not install it by default; to read images, install it next to Jarvis: ` +
        `\`npm install -g sharp@${SHARP_VERSION}\` for a global install of jarvis-code, or ` +
        `\`npm install sharp@${SHARP_VERSION}\` in the project that has jarvis-code as a dependency. ` +
        'Everything else works without it.',
    );
    this.name = 'ImageSupportMissingError';
  }
}

export function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then(
    (mod) => (mod.default ?? mod) as unknown as SharpFactory,
    (e: unknown) => {
      // Not remembered: once the user installs sharp, the next image read finds it without a restart.
      loading = undefined;
      const message = e instanceof Error ? e.message.split('\n')[0] : String(e);
      throw new ImageSupportMissingError(message);
    },
  );
  return loading;
}

export interface ImageRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ImageInfo {
  /** Dimensions as displayed (EXIF orientation applied). */
  width: number;
  height: number;
  format: string;
  hasAlpha: boolean;
  /** True when the stored pixels need an EXIF rotation or flip. */
  rotated: boolean;
}

export async function imageInfo(input: Buffer): Promise<ImageInfo> {
  const sharp = await loadSharp();
  const meta = await sharp(input).metadata();
  const orientation = meta.orientation ?? 1;
  const swap = orientation >= 5;
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  return {
    width: swap ? height : width,
    height: swap ? width : height,
    format: meta.format ?? 'unknown',
    hasAlpha: meta.hasAlpha ?? false,
    rotated: orientation !== 1,
  };
}

export interface FitOptions {
  region?: ImageRegion;
  /** Longest edge of the result; undefined keeps the size. */
  maxEdgePx?: number;
  /** Most bytes the encoded result may take; undefined means no limit. */
  byteBudget?: number;
  /** Media type of `input` when it may be sent unchanged (a format models accept), else undefined. */
  passthroughMediaType?: string;
}

export type FitResult =
  | { ok: true; data: Buffer; mediaType: string; width: number; height: number; reencoded: boolean }
  /** Nothing tried fits the budget; `smallestBytes` is the best attempt. */
  | { ok: false; smallestBytes: number };

/** Downscale steps tried, relative to the size that fits maxEdgePx, before giving up on the budget. */
const SCALE_STEPS = [1, 0.75, 0.5, 0.35, 0.25];
const QUALITY_STEPS = [85, 70, 55, 40];
/** Below this longest edge an image stops being useful to a model; compression stops there. */
const MIN_EDGE_PX = 256;

type Encoding = { mediaType: string; encode(image: Sharp): Sharp };

function encodingsFor(hasAlpha: boolean, budgeted: boolean, sourceFormat: string): Encoding[] {
  if (!budgeted) {
    if (sourceFormat === 'jpeg') return [{ mediaType: 'image/jpeg', encode: (i) => i.jpeg({ quality: 92 }) }];
    if (sourceFormat === 'webp') return [{ mediaType: 'image/webp', encode: (i) => i.webp({ quality: 92 }) }];
    return [{ mediaType: 'image/png', encode: (i) => i.png({ compressionLevel: 9 }) }];
  }
  if (hasAlpha) {
    return [
      { mediaType: 'image/png', encode: (i) => i.png({ compressionLevel: 9 }) },
      ...QUALITY_STEPS.map((quality): Encoding => ({ mediaType: 'image/webp', encode: (i) => i.webp({ quality }) })),
    ];
  }
  return QUALITY_STEPS.map((quality): Encoding => ({
    mediaType: 'image/jpeg',
    encode: (i) => i.jpeg({ quality, mozjpeg: true }),
  }));
}

/**
 * Crops, downscales and compresses an image to fit the limits, trying larger and better versions
 * first. The input is sent unchanged only when it already fits and needs no crop or rotation.
 */
export async function fitImage(input: Buffer, options: FitOptions): Promise<FitResult> {
  const sharp = await loadSharp();
  const info = await imageInfo(input);
  const region = options.region;
  const width = region?.width ?? info.width;
  const height = region?.height ?? info.height;
  const longest = Math.max(width, height);
  const fitsEdge = options.maxEdgePx === undefined || longest <= options.maxEdgePx;
  if (
    !region &&
    !info.rotated &&
    fitsEdge &&
    options.passthroughMediaType &&
    (options.byteBudget === undefined || input.length <= options.byteBudget)
  ) {
    return { ok: true, data: input, mediaType: options.passthroughMediaType, width, height, reencoded: false };
  }
  const baseScale = fitsEdge ? 1 : options.maxEdgePx! / longest;
  const encode = async (scale: number, encoding: Encoding) => {
    const w = Math.max(1, Math.round(width * scale));
    const h = Math.max(1, Math.round(height * scale));
    let image = sharp(input, { animated: false }).rotate();
    if (region) image = image.extract({ left: region.x, top: region.y, width: region.width, height: region.height });
    if (w !== width || h !== height) image = image.resize(w, h, { fit: 'fill' });
    return {
      ok: true as const,
      data: await encoding.encode(image).toBuffer(),
      mediaType: encoding.mediaType,
      width: w,
      height: h,
      reencoded: true,
    };
  };
  if (options.byteBudget === undefined) return encode(baseScale, encodingsFor(info.hasAlpha, false, info.format)[0]);
  const budget = options.byteBudget;
  const ladder = encodingsFor(info.hasAlpha, true, info.format);
  let smallest = Infinity;
  for (const step of SCALE_STEPS) {
    const scale = baseScale * step;
    if (step !== 1 && longest * scale < MIN_EDGE_PX) break;
    // The smallest encoding first: when even that is over budget, go straight to the next size.
    const floor = await encode(scale, ladder[ladder.length - 1]);
    smallest = Math.min(smallest, floor.data.length);
    if (floor.data.length > budget) continue;
    for (const encoding of ladder.slice(0, -1)) {
      const better = await encode(scale, encoding);
      if (better.data.length <= budget) return better;
    }
    return floor;
  }
  return { ok: false, smallestBytes: smallest };
}
