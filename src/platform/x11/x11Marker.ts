// The on-screen sign that the agent is acting (docs/computer-use.md, "Consent and control"): a small orange square
// just below and right of the pointer, above every window (override-redirect: no window manager frames or moves
// it), shown while an action runs and a moment after. It takes no input — its input shape is empty (the SHAPE
// extension) — so a click always reaches the application under the pointer. Without SHAPE there is no marker.
import type { X11Connection } from './x11Connection';
import {
  clearInputShape,
  CONFIG,
  configureWindow,
  createWindow,
  mapWindow,
  queryExtension,
  STACK_ABOVE,
  unmapWindow,
  WINDOW_ATTR,
} from './x11Requests';

const SIZE = 12;
const OFFSET = 10;
const ORANGE = [0xff, 0x8c, 0x00] as const;

/** The pixel value of an RGB colour in the screen's true-colour visual. */
function pixelOf(c: X11Connection, rgb: readonly [number, number, number]): number {
  const visual = c.screen.visuals.get(c.screen.rootVisual);
  if (!visual) return c.screen.whitePixel;
  const place = (mask: number, value: number) => {
    let shift = 0;
    while (mask && ((mask >>> shift) & 1) === 0) shift++;
    const max = mask >>> shift;
    return (Math.round((value / 255) * max) << shift) >>> 0;
  };
  return (place(visual.redMask, rgb[0]) | place(visual.greenMask, rgb[1]) | place(visual.blueMask, rgb[2])) >>> 0;
}

export class PointerMarker {
  private window: number | undefined;
  private shown = false;
  private hideTimer: NodeJS.Timeout | undefined;
  private available: Promise<boolean> | undefined;

  constructor(private readonly c: X11Connection) {}

  /** Whether this server can show the marker (it has SHAPE). */
  supported(): Promise<boolean> {
    this.available ??= queryExtension(this.c, 'SHAPE').then(async (shape) => {
      if (!shape.present) return false;
      const id = this.c.newId();
      createWindow(
        this.c,
        id,
        this.c.screen.root,
        { x: 0, y: 0, width: SIZE, height: SIZE, border: 1 },
        {
          mask: WINDOW_ATTR.BACKGROUND_PIXEL | WINDOW_ATTR.BORDER_PIXEL | WINDOW_ATTR.OVERRIDE_REDIRECT,
          values: [pixelOf(this.c, ORANGE), this.c.screen.blackPixel, 1],
        },
      );
      clearInputShape(this.c, shape.majorOpcode, id);
      await this.c.sync();
      this.window = id;
      return true;
    });
    return this.available;
  }

  /** Shows the marker beside (x, y) on top of everything; it stays until `hideAfter` elapses. */
  async showAt(x: number, y: number): Promise<void> {
    if (!(await this.supported()) || this.window === undefined) return;
    clearTimeout(this.hideTimer);
    const { width, height } = this.c.screen;
    const left = x + OFFSET + SIZE + 2 > width ? x - OFFSET - SIZE - 2 : x + OFFSET;
    const top = y + OFFSET + SIZE + 2 > height ? y - OFFSET - SIZE - 2 : y + OFFSET;
    configureWindow(this.c, this.window, CONFIG.X | CONFIG.Y | CONFIG.STACK_MODE, [left, top, STACK_ABOVE]);
    if (!this.shown) mapWindow(this.c, this.window);
    this.shown = true;
  }

  /** Hides the marker `ms` from now (unless it is shown again before). */
  hideAfter(ms: number): void {
    clearTimeout(this.hideTimer);
    this.hideTimer = setTimeout(() => this.hide(), ms);
    this.hideTimer.unref();
  }

  hide(): void {
    clearTimeout(this.hideTimer);
    if (!this.shown || this.window === undefined) return;
    unmapWindow(this.c, this.window);
    this.shown = false;
    // A failure here means the connection is gone, and the window with it.
    void this.c.sync().catch(() => undefined);
  }
}
