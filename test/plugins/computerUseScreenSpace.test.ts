// The one coordinate space of computer use (docs/computer-use.md, "Coordinates"): sizes, and that every screenshot
// pixel converts to a screen pixel inside the block it averages and back to itself, exactly, at every scale.
import { describe, expect, it } from 'vitest';
import {
  OutsideScreenError,
  rectToScreen,
  rectToSpace,
  scaleOf,
  screenSpace,
  toScreen,
  toSpace,
} from '../../src/plugins/jarvis-computer-use/screenSpace';

describe('the screenshot space', () => {
  it.each([
    [1280, 800, 1280, 800],
    [1024, 768, 1024, 768],
    [1600, 1000, 1280, 800],
    [1920, 1080, 1280, 720],
    [1920, 1200, 1280, 800],
    [2560, 1440, 1280, 720],
    [3840, 2160, 1280, 720],
    [1366, 768, 1280, 720],
    [1080, 1920, 450, 800],
    [1281, 801, 1279, 800],
  ])('%i×%i is drawn at %i×%i', (w, h, sw, sh) => {
    const space = screenSpace(w, h);
    expect([space.width, space.height]).toEqual([sw, sh]);
  });

  it('says the scale for people', () => {
    expect(scaleOf(screenSpace(1600, 1000))).toBe(1.25);
    expect(scaleOf(screenSpace(1366, 768))).toBe(1.067);
  });

  it.each([
    [1280, 800],
    [1600, 1000],
    [1920, 1080],
    [1366, 768],
    [3840, 2160],
    [1281, 801],
    [1080, 1920],
  ])('%i×%i: each pixel goes to its own block and comes back', (w, h) => {
    const space = screenSpace(w, h);
    for (let x = 0; x < space.width; x++) {
      const screen = toScreen(space, x, 0);
      const block = rectToScreen(space, { x, y: 0, width: 1, height: 1 });
      expect(screen.x).toBeGreaterThanOrEqual(block.x);
      expect(screen.x).toBeLessThan(block.x + block.width);
      expect(toSpace(space, screen.x, 0).x).toBe(x);
    }
    for (let y = 0; y < space.height; y++) expect(toSpace(space, 0, toScreen(space, 0, y).y).y).toBe(y);
    // Every screen pixel belongs to exactly one block, the blocks cover the screen in order.
    let last = 0;
    for (let sx = 0; sx < w; sx++) {
      const b = toSpace(space, sx, 0).x;
      expect(b === last || b === last + 1).toBe(true);
      last = b;
    }
    expect(last).toBe(space.width - 1);
  });

  it('refuses points outside the screenshot, with its size', () => {
    const space = screenSpace(1600, 1000);
    expect(() => toScreen(space, 1280, 10)).toThrow(OutsideScreenError);
    expect(() => toScreen(space, 1280, 10)).toThrow('x goes from 0 to 1279 and y from 0 to 799');
    expect(() => toScreen(space, -1, 0)).toThrow(OutsideScreenError);
    expect(() => toScreen(space, 1.5, 0)).toThrow(OutsideScreenError);
  });

  it('maps a window to the blocks it touches, and those blocks back to screen pixels that hold it', () => {
    const space = screenSpace(1600, 1000);
    const window = { x: 101, y: 53, width: 640, height: 479 };
    const inSpace = rectToSpace(space, window);
    expect(inSpace).toEqual({ x: 81, y: 43, width: 512, height: 383 });
    const back = rectToScreen(space, inSpace);
    expect(back.x).toBeLessThanOrEqual(window.x);
    expect(back.x + back.width).toBeGreaterThanOrEqual(window.x + window.width);
    // Clipped to the screen.
    expect(rectToSpace(space, { x: -50, y: 900, width: 100, height: 500 })).toEqual({
      x: 0,
      y: 720,
      width: 40,
      height: 80,
    });
  });
});
