// The zlib-only PNG encoder: what it writes decodes (by libvips, through sharp) to the same pixels.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../src/platform/pngEncode';

describe('encodePng', () => {
  it.each([
    [1, 1],
    [7, 3],
    [64, 48],
  ])('%i×%i round-trips through a real decoder', async (width, height) => {
    const rgb = new Uint8Array(width * height * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 37 + (i >> 5) * 11) & 0xff;
    const png = encodePng(rgb, width, height, 6);
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([width, height, 3]);
    expect(Buffer.from(data).equals(Buffer.from(rgb))).toBe(true);
  });

  it('refuses pixels that do not match the size', () => {
    expect(() => encodePng(new Uint8Array(5), 1, 2)).toThrow('expected 6 bytes of RGB, got 5');
  });
});
