// ReadMediaFile: images (downscaled/compressed to the session's image limits) and videos for models
// that take them. Offered only when the model has image_in or video_in.
import { z } from 'zod';
import type { ContentPart } from '../../llm/types';
import { fitImage, ImageSupportMissingError, imageInfo, type ImageRegion } from '../../platform/images';
import { defineTool, serviceKey, type ToolResult } from '../defineTool';
import { approvedAccess, fileAccess, O_RDONLY, openChecked } from './checkedOpen';
import { detectMedia, MEDIA_SNIFF_BYTES } from './mediaTypes';
import { PathRejectedError, pathDisplayer, resolveToolPath } from './pathPolicy';
import description from './readMediaFile.md';

/** `[image] max_edge_px` default (docs/configuration.md). */
export const IMAGE_MAX_EDGE_PX = 2000;
/** `[image] read_byte_budget` default (docs/configuration.md). */
export const IMAGE_READ_BYTE_BUDGET = 262_144;
export const MEDIA_MAX_FILE_BYTES = 100 * 1024 * 1024;

export interface ImageLimits {
  maxEdgePx: number;
  readByteBudget: number;
}

/** The session registers its configured `[image]` limits here; without it the defaults apply. */
export const IMAGE_LIMITS = serviceKey<ImageLimits>()('imageLimits');

/** What the current model accepts; when not registered, both are assumed (the tool is only offered to such models). */
export const MODEL_MEDIA_INPUT = serviceKey<{ image: boolean; video: boolean }>()('modelMediaInput');

const region = z.object({
  x: z.number().int().nonnegative(),
  y: z.number().int().nonnegative(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});

const schema = z.object({
  path: z.string(),
  region: region.optional(),
  full_resolution: z.boolean().default(false),
});

function error(content: string): ToolResult {
  return { content, isError: true };
}

function describeRegion(r: ImageRegion): string {
  return `region x=${r.x} y=${r.y} ${r.width}x${r.height}`;
}

const HEIF_HINT =
  'HEIC/HEIF images are not supported. Convert it to PNG or JPEG with Bash first, e.g. `sips -s format jpeg in.heic --out out.jpg` (macOS), ' +
  '`heif-convert in.heic out.jpg` or `magick in.heic out.jpg`, then read the copy.';

export const readMediaFileTool = defineTool({
  name: 'ReadMediaFile',
  optionalServices: [IMAGE_LIMITS, MODEL_MEDIA_INPUT],
  description,
  constants: {
    MAX_FILE_MB: MEDIA_MAX_FILE_BYTES / (1024 * 1024),
    MAX_EDGE_PX: IMAGE_MAX_EDGE_PX,
    BYTE_BUDGET: IMAGE_READ_BYTE_BUDGET,
  },
  schema,
  readOnly: true,
  defaultApproval: 'auto',
  subject: (args, ctx) => `ReadMediaFile(${resolveToolPath(ctx, args.path)})`,
  accesses: (args, ctx) => [fileAccess('read', resolveToolPath(ctx, args.path))],
  isAvailable: (env) => env.capabilities.includes('image_in') || env.capabilities.includes('video_in'),
  async execute(args, ctx) {
    const access = approvedAccess(ctx, args.path, 'read');
    const path = access.path;
    const shown = pathDisplayer(ctx.cwd)(path);
    // The bytes come from one checked descriptor (checkedOpen.ts); the file is at most MEDIA_MAX_FILE_BYTES.
    let bytes: Buffer;
    try {
      const { handle, info } = await openChecked(access, O_RDONLY);
      try {
        if (!info.isFile()) return error(`${path} is not a file; ReadMediaFile reads one image or video file.`);
        if (info.size > MEDIA_MAX_FILE_BYTES) {
          return error(
            `${path} is ${(info.size / (1024 * 1024)).toFixed(1)} MB, over the ${MEDIA_MAX_FILE_BYTES / (1024 * 1024)} MB limit. Make a smaller copy (resize, crop or trim with Bash) and read that.`,
          );
        }
        bytes = await handle.readFile();
      } finally {
        await handle.close();
      }
    } catch (e) {
      if (e instanceof PathRejectedError) return error(e.message);
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return error(`File not found: ${path}.`);
      return error(`Cannot read ${path}: ${(e as Error).message}`);
    }
    const media = detectMedia(bytes.subarray(0, MEDIA_SNIFF_BYTES), path);
    if (!media) return error(`${path} is not a recognised image or video. Use Read for text files.`);
    if (media.format === 'heif') return error(`${path}: ${HEIF_HINT}`);
    if (!media.supported) {
      return error(
        `${path} is a ${media.format.toUpperCase()} image, which models cannot take. Supported: PNG, JPEG, GIF, WebP. Convert it with Bash (e.g. \`magick in.${media.format} out.png\`) and read the copy.`,
      );
    }
    const accepts = ctx.services.find(MODEL_MEDIA_INPUT);
    if (accepts && !accepts[media.kind])
      return error(`The current model does not accept ${media.kind} input, so ${path} cannot be shown to it.`);

    if (media.kind === 'video') {
      const parts: ContentPart[] = [
        { type: 'text', text: `Video ${shown} (${media.format}, ${bytes.length} bytes).` },
        { type: 'image', mediaType: media.mediaType, data: bytes.toString('base64') },
      ];
      return { content: parts, summary: `Read video ${shown}` };
    }

    const limits = ctx.services.find(IMAGE_LIMITS) ?? {
      maxEdgePx: IMAGE_MAX_EDGE_PX,
      readByteBudget: IMAGE_READ_BYTE_BUDGET,
    };
    let original;
    try {
      original = await imageInfo(bytes);
    } catch (e) {
      if (e instanceof ImageSupportMissingError) return error(`${path} cannot be read: ${e.message}`);
      return error(`${path} could not be decoded as ${media.format}: ${(e as Error).message}`);
    }
    const crop = args.region;
    if (crop && (crop.x + crop.width > original.width || crop.y + crop.height > original.height)) {
      return error(
        `region ${describeRegion(crop)} lies outside the image, which is ${original.width}x${original.height} pixels. Keep x+width ≤ ${original.width} and y+height ≤ ${original.height}.`,
      );
    }
    const fitted = await fitImage(bytes, {
      region: crop,
      maxEdgePx: args.full_resolution ? undefined : limits.maxEdgePx,
      byteBudget: args.full_resolution || crop ? undefined : limits.readByteBudget,
      passthroughMediaType: media.mediaType,
    });
    if (!fitted.ok) {
      return error(
        `${path} (${original.width}x${original.height}, ${bytes.length} bytes) cannot be compressed to the ${limits.readByteBudget}-byte image budget ` +
          `(smallest attempt: ${fitted.smallestBytes} bytes), so it was not sent. Make a smaller copy with Bash (e.g. \`magick in.png -resize 50% small.png\`, ` +
          `or crop the part you need) and read the copy, or read part of it with region.`,
      );
    }
    const how = fitted.reencoded ? `sent as ${fitted.width}x${fitted.height} ${fitted.mediaType}` : 'sent unchanged';
    const what = crop ? `, ${describeRegion(crop)}` : '';
    const text = `Image ${shown} (${original.width}x${original.height} ${media.format}, ${bytes.length} bytes${what}); ${how}, ${fitted.data.length} bytes.`;
    return {
      content: [
        { type: 'text', text },
        { type: 'image', mediaType: fitted.mediaType, data: fitted.data.toString('base64') },
      ],
      summary: `Read image ${shown}`,
    };
  },
});
