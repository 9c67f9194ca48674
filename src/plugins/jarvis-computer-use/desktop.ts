// The desktop the computer-use tools act on (docs/computer-use.md): one X11 connection, opened at the first call,
// and the actions, one at a time in the order they were asked for. Each action shows the on-screen marker while it
// runs, and an action made of steps (the characters of a text, the moves of a drag, the notches of a scroll)
// checks before every step whether it was stopped (Esc / Ctrl-C in Jarvis cancel the call), so it ends there.
import { encodePng } from '../../platform/pngEncode';
import { describeCombo, parseKeyCombo, refusedCombo, type KeyCombo, type Modifier } from '../../platform/x11/keyCombos';
import { unsupportedSession } from '../../platform/x11/desktopProbe';
import { readClipboardText } from '../../platform/x11/x11Clipboard';
import { X11Connection } from '../../platform/x11/x11Connection';
import { StoppedError, X11Keyboard } from '../../platform/x11/x11Keyboard';
import { PointerMarker } from '../../platform/x11/x11Marker';
import {
  Atoms,
  FAKE,
  fakeInput,
  getGeometry,
  getImage,
  queryExtension,
  queryPointer,
  xtestVersion,
} from '../../platform/x11/x11Requests';
import { scaleScreenPixels } from '../../platform/x11/screenPixels';
import { focusWindow, listWindows, type DesktopWindow } from '../../platform/x11/x11Windows';
import { rectToScreen, rectToSpace, screenSpace, toScreen, toSpace, type Rect, type ScreenSpace } from './screenSpace';

/** Pause between typed characters and between the steps of a drag: applications read input at their own pace. */
export const TYPE_DELAY_MS = 8;
const DRAG_STEP_DELAY_MS = 12;
const MARKER_LINGER_MS = 1_500;
const FOCUS_TIMEOUT_MS = 2_000;
const BUTTONS = { left: 1, middle: 2, right: 3 } as const;
const SCROLL_BUTTONS = { up: 4, down: 5, left: 6, right: 7 } as const;

export type Button = keyof typeof BUTTONS;
export type ScrollDirection = keyof typeof SCROLL_BUTTONS;

export class DesktopError extends Error {}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

interface Session {
  c: X11Connection;
  atoms: Atoms;
  xtest: number;
  keyboard: X11Keyboard;
  marker: PointerMarker;
}

export interface Shot {
  png: Buffer;
  space: ScreenSpace;
  /** The part of the space drawn (the whole space, or a window's blocks). */
  rect: Rect;
  /** Where the pointer is (screenshots do not show it), in screenshot pixels. */
  pointer: { x: number; y: number };
  window?: DesktopWindow;
}

export class Desktop {
  private session: Promise<Session> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    /** For tests and the benchmark: how long the marker stays, and the pause between typed characters. */
    private readonly opts: { markerLingerMs?: number; typeDelayMs?: number } = {},
  ) {}

  get display(): string {
    return this.env.DISPLAY?.trim() || this.env.WAYLAND_DISPLAY?.trim() || '(none)';
  }

  /** True in a Wayland session whose X11 display is XWayland's. */
  get xwayland(): boolean {
    return this.env.XDG_SESSION_TYPE === 'wayland' || !!this.env.WAYLAND_DISPLAY?.trim();
  }

  private open(): Promise<Session> {
    this.session ??= (async () => {
      const why = unsupportedSession(this.env);
      if (why) throw new DesktopError(`Computer use cannot start: ${why}.`);
      const c = await X11Connection.open(this.env);
      const xtest = await queryExtension(c, 'XTEST');
      if (!xtest.present) {
        c.close();
        throw new DesktopError(
          `the X server of ${this.display} has no XTEST extension, which computer use sends input through`,
        );
      }
      await xtestVersion(c, xtest.majorOpcode);
      return {
        c,
        atoms: new Atoms(c),
        xtest: xtest.majorOpcode,
        keyboard: new X11Keyboard(c, xtest.majorOpcode),
        marker: new PointerMarker(c),
      };
    })().catch((e: unknown) => {
      this.session = undefined;
      throw e;
    });
    return this.session;
  }

  /** Runs actions one at a time, in the order they came; one stopped while it waited does not run. */
  private run<T>(signal: AbortSignal | undefined, action: (s: Session) => Promise<T>): Promise<T> {
    const turn = this.queue.then(async () => {
      if (signal?.aborted) throw new StoppedError(0);
      const session = await this.open();
      try {
        return await action(session);
      } finally {
        // The X server went away (or stopped answering): the next call connects again.
        if (session.c.broken) this.session = undefined;
      }
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** The space of the screen as it is now (its size can change). */
  private async space(s: Session): Promise<ScreenSpace> {
    const root = await getGeometry(s.c, s.c.screen.root);
    return screenSpace(root.width, root.height);
  }

  screenshot(windowId: number | undefined, signal?: AbortSignal): Promise<Shot> {
    return this.run(signal, async (s) => {
      const space = await this.space(s);
      let rect: Rect = { x: 0, y: 0, width: space.width, height: space.height };
      let window: DesktopWindow | undefined;
      if (windowId !== undefined) {
        window = (await listWindows(s.c, s.atoms)).find((w) => w.id === windowId);
        if (!window)
          throw new DesktopError(
            `there is no window 0x${windowId.toString(16)} (list_windows shows the windows there are)`,
          );
        if (window.minimized)
          throw new DesktopError(`window 0x${windowId.toString(16)} is minimized; focus_window brings it back`);
        rect = rectToSpace(space, window);
      }
      const source = rectToScreen(space, rect);
      const image = await getImage(s.c, s.c.screen.root, source.x, source.y, source.width, source.height);
      const visual = s.c.screen.visuals.get(image.visual) ?? s.c.screen.visuals.get(s.c.screen.rootVisual);
      if (!visual)
        throw new DesktopError('the X server described no visual for the screen, so its pixels cannot be read');
      const rgb = scaleScreenPixels(image.data, source, image.depth, visual, s.c.setup, {
        width: rect.width,
        height: rect.height,
        screenWidth: space.screenWidth,
        screenHeight: space.screenHeight,
        spaceWidth: space.width,
        spaceHeight: space.height,
        originX: rect.x,
        originY: rect.y,
      });
      const p = await queryPointer(s.c, s.c.screen.root);
      const pointer = toSpace(space, p.x, p.y);
      return { png: encodePng(rgb, rect.width, rect.height, 6), space, rect, pointer, ...(window ? { window } : {}) };
    });
  }

  /** The windows, their geometry in screenshot pixels. */
  windows(signal?: AbortSignal): Promise<{ space: ScreenSpace; windows: DesktopWindow[] }> {
    return this.run(signal, async (s) => {
      const space = await this.space(s);
      const windows = (await listWindows(s.c, s.atoms)).map((w) => ({ ...w, ...rectToSpace(space, w) }));
      return { space, windows };
    });
  }

  focus(windowId: number, signal?: AbortSignal): Promise<boolean> {
    return this.run(signal, (s) => focusWindow(s.c, s.atoms, windowId, FOCUS_TIMEOUT_MS, signal));
  }

  /** Where the pointer is, in screenshot pixels. */
  pointer(signal?: AbortSignal): Promise<{ x: number; y: number }> {
    return this.run(signal, async (s) => {
      const p = await queryPointer(s.c, s.c.screen.root);
      return toSpace(await this.space(s), p.x, p.y);
    });
  }

  private async moveTo(s: Session, x: number, y: number): Promise<void> {
    fakeInput(s.c, s.xtest, FAKE.MOTION, 0, s.c.screen.root, x, y);
    await s.marker.showAt(x, y);
    await s.c.sync();
  }

  private async at(s: Session, x: number, y: number): Promise<{ x: number; y: number }> {
    return toScreen(await this.space(s), x, y);
  }

  move(x: number, y: number, signal?: AbortSignal): Promise<{ x: number; y: number }> {
    return this.acting(signal, async (s) => {
      const to = await this.at(s, x, y);
      await this.moveTo(s, to.x, to.y);
      return to;
    });
  }

  /** Clicks `count` times at (x, y) (or where the pointer is), holding `modifiers`. */
  click(
    where: { x: number; y: number } | undefined,
    button: Button,
    count: number,
    modifiers: Modifier[],
    signal?: AbortSignal,
  ): Promise<{ x: number; y: number }> {
    return this.acting(signal, async (s) => {
      const to = where ? await this.at(s, where.x, where.y) : await queryPointer(s.c, s.c.screen.root);
      const held = await s.keyboard.modifierCodes(modifiers);
      await this.moveTo(s, to.x, to.y);
      for (const code of held) fakeInput(s.c, s.xtest, FAKE.KEY_PRESS, code);
      try {
        for (let i = 0; i < count; i++) {
          if (signal?.aborted) throw new StoppedError(i);
          fakeInput(s.c, s.xtest, FAKE.BUTTON_PRESS, BUTTONS[button]);
          fakeInput(s.c, s.xtest, FAKE.BUTTON_RELEASE, BUTTONS[button]);
          await s.c.sync();
        }
      } finally {
        for (const code of [...held].reverse()) fakeInput(s.c, s.xtest, FAKE.KEY_RELEASE, code);
        await s.c.sync();
      }
      return { x: to.x, y: to.y };
    });
  }

  /** Presses at `from`, moves to `to` in steps, releases there. A stopped drag releases where it got to. */
  drag(
    from: { x: number; y: number },
    to: { x: number; y: number },
    button: Button,
    signal?: AbortSignal,
  ): Promise<{ from: { x: number; y: number }; to: { x: number; y: number } }> {
    return this.acting(signal, async (s) => {
      const start = await this.at(s, from.x, from.y);
      const end = await this.at(s, to.x, to.y);
      await this.moveTo(s, start.x, start.y);
      fakeInput(s.c, s.xtest, FAKE.BUTTON_PRESS, BUTTONS[button]);
      await s.c.sync();
      const steps = Math.min(40, Math.max(4, Math.ceil(Math.hypot(end.x - start.x, end.y - start.y) / 12)));
      try {
        for (let i = 1; i <= steps; i++) {
          if (signal?.aborted) throw new StoppedError(i - 1);
          await wait(DRAG_STEP_DELAY_MS);
          await this.moveTo(
            s,
            Math.round(start.x + ((end.x - start.x) * i) / steps),
            Math.round(start.y + ((end.y - start.y) * i) / steps),
          );
        }
      } finally {
        fakeInput(s.c, s.xtest, FAKE.BUTTON_RELEASE, BUTTONS[button]);
        await s.c.sync();
      }
      return { from: start, to: end };
    });
  }

  scroll(
    where: { x: number; y: number } | undefined,
    direction: ScrollDirection,
    amount: number,
    signal?: AbortSignal,
  ): Promise<{ x: number; y: number }> {
    return this.acting(signal, async (s) => {
      const to = where ? await this.at(s, where.x, where.y) : await queryPointer(s.c, s.c.screen.root);
      await this.moveTo(s, to.x, to.y);
      for (let i = 0; i < amount; i++) {
        if (signal?.aborted) throw new StoppedError(i);
        fakeInput(s.c, s.xtest, FAKE.BUTTON_PRESS, SCROLL_BUTTONS[direction]);
        fakeInput(s.c, s.xtest, FAKE.BUTTON_RELEASE, SCROLL_BUTTONS[direction]);
        await s.c.sync();
        if (i < amount - 1) await wait(TYPE_DELAY_MS);
      }
      return { x: to.x, y: to.y };
    });
  }

  type(text: string, signal?: AbortSignal): Promise<void> {
    return this.acting(signal, async (s) => {
      const p = await queryPointer(s.c, s.c.screen.root);
      await s.marker.showAt(p.x, p.y);
      await s.keyboard.type(text, { signal, delayMs: this.opts.typeDelayMs ?? TYPE_DELAY_MS });
    });
  }

  /** Presses each combination in turn, `repeat` times; refused ones are refused before anything is pressed. */
  keys(combos: readonly string[], repeat: number, signal?: AbortSignal): Promise<KeyCombo[]> {
    const parsed = combos.map((text) => parseKeyCombo(text));
    for (const combo of parsed) {
      const why = refusedCombo(combo);
      if (why)
        throw new DesktopError(`${describeCombo(combo)} ("${combo.text}") is refused: ${why}. Nothing was pressed.`);
    }
    return this.acting(signal, async (s) => {
      const p = await queryPointer(s.c, s.c.screen.root);
      await s.marker.showAt(p.x, p.y);
      let done = 0;
      for (let r = 0; r < repeat; r++) {
        for (const combo of parsed) {
          if (signal?.aborted) throw new StoppedError(done);
          await s.keyboard.press(combo);
          done++;
          await wait(TYPE_DELAY_MS);
        }
      }
      return parsed;
    });
  }

  /** Waits `seconds`, or until a window whose title contains `title` is there (then early). */
  waitFor(seconds: number, title: string | undefined, signal?: AbortSignal): Promise<DesktopWindow | undefined> {
    if (!title) return wait(seconds * 1000, signal).then(() => undefined);
    const deadline = Date.now() + seconds * 1000;
    const look = async (): Promise<DesktopWindow | undefined> => {
      const { windows } = await this.windows(signal);
      const found = windows.find((w) => w.title.toLowerCase().includes(title.toLowerCase()));
      if (found || Date.now() >= deadline || signal?.aborted) return found;
      await wait(Math.min(100, Math.max(0, deadline - Date.now())), signal);
      return look();
    };
    return look();
  }

  clipboard(selection: 'CLIPBOARD' | 'PRIMARY', maxBytes: number, signal?: AbortSignal) {
    return this.run(signal, (s) => readClipboardText(s.c, s.atoms, { selection, maxBytes, timeoutMs: 3_000, signal }));
  }

  /** An input action: the marker shows while it runs and a moment after. */
  private acting<T>(signal: AbortSignal | undefined, action: (s: Session) => Promise<T>): Promise<T> {
    return this.run(signal, async (s) => {
      try {
        return await action(s);
      } finally {
        s.marker.hideAfter(this.opts.markerLingerMs ?? MARKER_LINGER_MS);
      }
    });
  }

  /** Unbinds the keys bound for typing and closes the connection. */
  async close(): Promise<void> {
    const session = await this.session?.catch(() => undefined);
    if (!session) return;
    await session.keyboard.unbindSpare().catch(() => undefined);
    session.marker.hide();
    session.c.close();
  }
}
