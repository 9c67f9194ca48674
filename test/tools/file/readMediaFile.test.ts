import { closeSync, openSync, readdirSync, readFileSync, writeFileSync, ftruncateSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentPart } from '../../../src/llm/types';
import {
  IMAGE_LIMITS,
  IMAGE_MAX_EDGE_PX,
  IMAGE_READ_BYTE_BUDGET,
  MODEL_MEDIA_INPUT,
  readMediaFileTool,
} from '../../../src/tools/file';
import { makeToolHarness, type ToolHarness } from '../../helpers/toolHarness';

type ImagePart = Extract<ContentPart, { type: 'image' }>;

function imagesOf(content: string | ContentPart[]): ImagePart[] {
  return typeof content === 'string' ? [] : content.filter((p): p is ImagePart => p.type === 'image');
}

async function sizeOf(part: ImagePart) {
  const meta = await sharp(Buffer.from(part.data, 'base64')).metadata();
  return { width: meta.width ?? 0, height: meta.height ?? 0, bytes: Buffer.from(part.data, 'base64').length };
}

/** Random pixels compress badly: the hardest case for the byte budget. */
function noise(width: number, height: number) {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 12345;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = seed >> 16;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

let fixtures: { small: Buffer; large: Buffer; alpha: Buffer };

beforeAll(async () => {
  fixtures = {
    small: await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer(),
    large: await noise(2600, 1800).png({ compressionLevel: 1 }).toBuffer(),
    alpha: await sharp({
      create: { width: 3000, height: 1000, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer(),
  };
});

function harnessWith(files: Record<string, Buffer | string>): ToolHarness {
  const h = makeToolHarness();
  for (const [name, data] of Object.entries(files)) writeFileSync(join(h.cwd, name), data);
  return h;
}

describe('ReadMediaFile', () => {
  it('sends a small image unchanged with a text line', async () => {
    const h = harnessWith({ 'small.png': fixtures.small });
    const r = await h.run(readMediaFileTool, { path: 'small.png' });
    expect(r.isError).toBeFalsy();
    const [image] = imagesOf(r.content);
    expect(image.mediaType).toBe('image/png');
    expect(Buffer.from(image.data, 'base64')).toEqual(fixtures.small);
    expect(r.text).toContain('40x30');
    expect(r.text).toContain('sent unchanged');
  });

  it('downscales to max_edge_px and fits read_byte_budget by default (rules 28, 29)', async () => {
    const h = harnessWith({ 'large.png': fixtures.large });
    const r = await h.run(readMediaFileTool, { path: 'large.png' });
    expect(r.isError).toBeFalsy();
    const size = await sizeOf(imagesOf(r.content)[0]);
    expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(IMAGE_MAX_EDGE_PX);
    expect(size.bytes).toBeLessThanOrEqual(IMAGE_READ_BYTE_BUDGET);
  });

  it('keeps transparency when re-encoding an image with alpha', async () => {
    const h = harnessWith({ 'alpha.png': fixtures.alpha });
    const r = await h.run(readMediaFileTool, { path: 'alpha.png' });
    const image = imagesOf(r.content)[0];
    expect(['image/png', 'image/webp']).toContain(image.mediaType);
    const size = await sizeOf(image);
    expect(size.width).toBe(IMAGE_MAX_EDGE_PX);
    expect((await sharp(Buffer.from(image.data, 'base64')).metadata()).hasAlpha).toBe(true);
  });

  it('takes limits from the [image] settings service', async () => {
    const h = harnessWith({ 'large.png': fixtures.large });
    h.register(IMAGE_LIMITS, { maxEdgePx: 500, readByteBudget: 200_000 });
    const size = await sizeOf(imagesOf((await h.run(readMediaFileTool, { path: 'large.png' })).content)[0]);
    expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(500);
    expect(size.bytes).toBeLessThanOrEqual(200_000);
  });

  it('errors without sending the original when compression cannot fit (rule 26)', async () => {
    const h = harnessWith({ 'large.png': fixtures.large });
    h.register(IMAGE_LIMITS, { maxEdgePx: IMAGE_MAX_EDGE_PX, readByteBudget: 2_000 });
    const r = await h.run(readMediaFileTool, { path: 'large.png' });
    expect(r.isError).toBe(true);
    expect(imagesOf(r.content)).toHaveLength(0);
    expect(r.text).toContain('smaller copy');
    expect(r.text).toContain('not sent');
  });

  it('crops a region in original pixels at full detail, exempt from the byte budget', async () => {
    const h = harnessWith({ 'large.png': fixtures.large });
    h.register(IMAGE_LIMITS, { maxEdgePx: IMAGE_MAX_EDGE_PX, readByteBudget: 2_000 });
    const r = await h.run(readMediaFileTool, {
      path: 'large.png',
      region: { x: 100, y: 200, width: 300, height: 150 },
    });
    expect(r.isError).toBeFalsy();
    const size = await sizeOf(imagesOf(r.content)[0]);
    expect([size.width, size.height]).toEqual([300, 150]);
    expect(size.bytes).toBeGreaterThan(2_000);
    expect(r.text).toContain('region x=100 y=200 300x150');
  });

  it('rejects a region outside the image, naming its size', async () => {
    const h = harnessWith({ 'small.png': fixtures.small });
    const r = await h.run(readMediaFileTool, { path: 'small.png', region: { x: 30, y: 0, width: 20, height: 10 } });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('40x30');
  });

  it('full_resolution keeps the original size', async () => {
    const h = harnessWith({ 'large.png': fixtures.large });
    const r = await h.run(readMediaFileTool, { path: 'large.png', full_resolution: true });
    const size = await sizeOf(imagesOf(r.content)[0]);
    expect([size.width, size.height]).toEqual([2600, 1800]);
  });

  it('rejects files larger than 100 MB (rule 25)', async () => {
    const h = harnessWith({ 'huge.png': fixtures.small });
    const fd = openSync(join(h.cwd, 'huge.png'), 'r+');
    ftruncateSync(fd, 100 * 1024 * 1024 + 1);
    closeSync(fd);
    const r = await h.run(readMediaFileTool, { path: 'huge.png' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('100 MB');
  });

  const ftyp = (brand: string, compatible = 'mif1') =>
    Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from(`ftyp${brand}\0\0\0\0${brand}${compatible}`)]);

  it.each([
    ['photo.heic', ftyp('heic'), 'HEIC/HEIF'],
    ['photo.heif', ftyp('mif1'), 'heif-convert'],
  ])('refuses %s with a conversion hint', async (name, bytes, hint) => {
    const h = harnessWith({ [name]: bytes });
    const r = await h.run(readMediaFileTool, { path: name });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(hint);
  });

  it.each([
    ['img.bmp', Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]), 'BMP'],
    ['img.tiff', Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0]), Buffer.alloc(60)]), 'TIFF'],
    ['img.avif', ftyp('avif'), 'AVIF'],
    ['icon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>', 'SVG'],
  ])('gives a clear error for unsupported %s', async (name, bytes, format) => {
    const h = harnessWith({ [name]: bytes });
    const r = await h.run(readMediaFileTool, { path: name });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(format);
    expect(r.text).toContain('Supported: PNG, JPEG, GIF, WebP');
  });

  it('refuses text files, pointing to Read', async () => {
    const h = harnessWith({ 'notes.txt': 'hello' });
    const r = await h.run(readMediaFileTool, { path: 'notes.txt' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Read');
  });

  it('reports an undecodable image', async () => {
    const h = harnessWith({ 'broken.png': Buffer.concat([fixtures.small.subarray(0, 16), Buffer.alloc(100)]) });
    const r = await h.run(readMediaFileTool, { path: 'broken.png' });
    expect(r.isError).toBe(true);
  });

  it('sends a video as a video/* part', async () => {
    const mp4 = Buffer.concat([ftyp('isom', 'mp41'), Buffer.alloc(200)]);
    const h = harnessWith({ 'clip.mp4': mp4 });
    const r = await h.run(readMediaFileTool, { path: 'clip.mp4' });
    expect(r.isError).toBeFalsy();
    const [video] = imagesOf(r.content);
    expect(video.mediaType).toBe('video/mp4');
    expect(Buffer.from(video.data, 'base64')).toEqual(mp4);
    expect(r.text).toContain('Video clip.mp4');
  });

  it('refuses a video when the session says the model takes only images', async () => {
    const h = harnessWith({ 'clip.webm': Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(60)]) });
    h.register(MODEL_MEDIA_INPUT, { image: true, video: false });
    const r = await h.run(readMediaFileTool, { path: 'clip.webm' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('does not accept video');
  });

  it.each([
    [['image_in'], true],
    [['video_in'], true],
    [['image_in', 'video_in', 'thinking'], true],
    [['thinking'], false],
    [[], false],
  ])('is offered with capabilities %j: %s (rule 27)', (capabilities, offered) => {
    expect(readMediaFileTool.isAvailable?.({ capabilities, nonInteractive: false })).toBe(offered);
  });

  it('loads sharp only through a dynamic import', () => {
    const dirs = ['../../../src/tools/file', '../../../src/platform'].map((d) => resolve(__dirname, d));
    for (const dir of dirs) {
      for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
        const source = readFileSync(join(dir, name), 'utf8');
        expect(source, name).not.toMatch(/^import (?!type )[^;]*from 'sharp'/m);
      }
    }
  });
});
