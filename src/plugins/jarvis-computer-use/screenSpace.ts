// The one coordinate space of computer use (docs/computer-use.md, "Coordinates"): the whole screen scaled down to
// fit MAX_WIDTH × MAX_HEIGHT (never up). Every screenshot is drawn in it — a window's screenshot is the same
// pixels as that part of the whole screen's — and every coordinate the model gives or gets is in it. Screenshot
// pixel x stands for the block of screen columns ⌊x·W/w⌋ … ⌊(x+1)·W/w⌋−1 (W the screen's width, w the space's);
// an action goes to the middle column of the block (rounded down), and a screen column belongs to the block that
// holds it. All of it in whole numbers, so a point converts back to the pixel it came from, exactly.

export const MAX_WIDTH = 1280;
export const MAX_HEIGHT = 800;

export interface ScreenSpace {
  screenWidth: number;
  screenHeight: number;
  width: number;
  height: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function screenSpace(
  screenWidth: number,
  screenHeight: number,
  max = { width: MAX_WIDTH, height: MAX_HEIGHT },
): ScreenSpace {
  const scale = Math.max(screenWidth / max.width, screenHeight / max.height, 1);
  return {
    screenWidth,
    screenHeight,
    width: Math.min(max.width, Math.max(1, Math.round(screenWidth / scale))),
    height: Math.min(max.height, Math.max(1, Math.round(screenHeight / scale))),
  };
}

/** Screen pixels per screenshot pixel, for people and the model (the conversion itself is exact). */
export function scaleOf(space: ScreenSpace): number {
  return Math.round((space.screenWidth / space.width) * 1000) / 1000;
}

/** The first screen pixel of block `i` of `count` blocks over `screen` pixels. */
function blockStart(i: number, screen: number, count: number): number {
  return Math.floor((i * screen) / count);
}

function middle(i: number, screen: number, count: number): number {
  const start = blockStart(i, screen, count);
  const end = Math.max(start + 1, blockStart(i + 1, screen, count));
  return Math.floor((start + end - 1) / 2);
}

function block(screenPixel: number, screen: number, count: number): number {
  return Math.ceil(((screenPixel + 1) * count) / screen) - 1;
}

export class OutsideScreenError extends Error {}

/** The screen pixel an action at screenshot pixel (x, y) goes to. */
export function toScreen(space: ScreenSpace, x: number, y: number): { x: number; y: number } {
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= space.width || y >= space.height) {
    throw new OutsideScreenError(
      `(${x}, ${y}) is not a pixel of the screenshot: x goes from 0 to ${space.width - 1} and y from 0 to ${space.height - 1}`,
    );
  }
  return { x: middle(x, space.screenWidth, space.width), y: middle(y, space.screenHeight, space.height) };
}

/** The screenshot pixel that holds screen pixel (x, y) (clamped to the screen). */
export function toSpace(space: ScreenSpace, x: number, y: number): { x: number; y: number } {
  const cx = Math.min(space.screenWidth - 1, Math.max(0, x));
  const cy = Math.min(space.screenHeight - 1, Math.max(0, y));
  return { x: block(cx, space.screenWidth, space.width), y: block(cy, space.screenHeight, space.height) };
}

/** A rectangle of screen pixels as screenshot pixels: every block it touches (clipped to the screen). */
export function rectToSpace(space: ScreenSpace, rect: Rect): Rect {
  const start = toSpace(space, rect.x, rect.y);
  const end = toSpace(space, rect.x + Math.max(1, rect.width) - 1, rect.y + Math.max(1, rect.height) - 1);
  return { x: start.x, y: start.y, width: end.x - start.x + 1, height: end.y - start.y + 1 };
}

/** The screen pixels a rectangle of screenshot pixels covers. */
export function rectToScreen(space: ScreenSpace, rect: Rect): Rect {
  const x = blockStart(rect.x, space.screenWidth, space.width);
  const y = blockStart(rect.y, space.screenHeight, space.height);
  const right = Math.max(x + 1, blockStart(rect.x + rect.width, space.screenWidth, space.width));
  const bottom = Math.max(y + 1, blockStart(rect.y + rect.height, space.screenHeight, space.height));
  return { x, y, width: right - x, height: bottom - y };
}
