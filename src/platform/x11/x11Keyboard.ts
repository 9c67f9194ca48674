// Typing and key combinations through XTEST (docs/computer-use.md, "Typing"). A character on the keyboard
// map is typed with its key (and Shift when it is the shifted symbol); any other character — é on a US map,
// ł, →, 中 — is typed by binding its keysym to a spare keycode (one no key uses) first, as xdotool does.
// Each different character gets its own spare keycode, and a spare keycode is rebound only after it has been
// idle a while: an application reads the keyboard map again when it is told it changed, and rebinding a
// keycode it has not read yet would type the wrong character. Spare keycodes are unbound again when idle.
import { MODIFIER_KEYSYM, type KeyCombo, type Modifier } from './keyCombos';
import { KEYSYM, keysymForChar } from './keysyms';
import type { X11Connection } from './x11Connection';
import { changeKeyboardMapping, FAKE, fakeInput, getKeyboardMapping, getModifierMapping } from './x11Requests';

/** A rebinding waits until the keycode has been idle this long (the application has read the map by then). */
const REBIND_AFTER_MS = 250;
/** Spare keycodes are unbound this long after the last use. */
const UNBIND_AFTER_MS = 3_000;

interface KeyPlace {
  keycode: number;
  shift: boolean;
}

export class StoppedError extends Error {
  constructor(readonly done: number) {
    super('stopped');
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class X11Keyboard {
  private places = new Map<number, KeyPlace>();
  private keysymsOf = new Map<number, number[]>();
  private modifierKeycodes = new Map<Modifier, number>();
  /** Spare keycodes: what each is bound to now and when it was last pressed. */
  private spare = new Map<number, { keysym: number; lastUsed: number }>();
  private unbindTimer: NodeJS.Timeout | undefined;
  private loaded: Promise<void> | undefined;

  constructor(
    private readonly c: X11Connection,
    private readonly xtest: number,
  ) {
    // Another program (a layout switch) changed the map: read it again before the next key.
    c.onEvent((e) => {
      if (e.type === 34 && e.bytes[4] !== 2 && !this.isOwnChange(e.bytes[5], e.bytes[6])) this.loaded = undefined;
    });
  }

  private isOwnChange(first: number, count: number): boolean {
    return count === 1 && this.spare.has(first);
  }

  private load(): Promise<void> {
    this.loaded ??= this.read().catch((e: unknown) => {
      this.loaded = undefined;
      throw e;
    });
    return this.loaded;
  }

  private async read(): Promise<void> {
    const { minKeycode, maxKeycode } = this.c.setup;
    const map = await getKeyboardMapping(this.c, minKeycode, maxKeycode - minKeycode + 1);
    const modifiers = await getModifierMapping(this.c);
    const per = map.keysymsPerKeycode;
    this.places = new Map();
    this.keysymsOf = new Map();
    for (let keycode = minKeycode; keycode <= maxKeycode; keycode++) {
      const syms = [...map.keysyms.subarray((keycode - minKeycode) * per, (keycode - minKeycode + 1) * per)];
      this.keysymsOf.set(keycode, syms);
      if (this.spare.has(keycode)) continue;
      if (syms.every((s) => s === 0)) {
        this.spare.set(keycode, { keysym: 0, lastUsed: 0 });
        continue;
      }
      // The first two are the plain and the shifted symbol of the first group.
      for (const [index, sym] of syms.slice(0, 2).entries()) {
        if (sym && !this.places.has(sym)) this.places.set(sym, { keycode, shift: index === 1 });
      }
    }
    const rowOf = (keysyms: number[]) =>
      modifiers.findIndex((row) => row.some((code) => this.keysymsOf.get(code)?.some((s) => keysyms.includes(s))));
    const first = (row: number) => (row >= 0 ? modifiers[row][0] : undefined);
    const found: Array<[Modifier, number | undefined]> = [
      ['shift', first(0)],
      ['ctrl', first(2)],
      ['alt', first(rowOf([KEYSYM.Alt_L, KEYSYM.Alt_R, KEYSYM.Meta_L, KEYSYM.Meta_R]))],
      ['super', first(rowOf([KEYSYM.Super_L, KEYSYM.Super_R, KEYSYM.Hyper_L, KEYSYM.Hyper_R]))],
      ['altgr', first(rowOf([KEYSYM.ISO_Level3_Shift, KEYSYM.Mode_switch]))],
    ];
    this.modifierKeycodes = new Map(found.filter((f): f is [Modifier, number] => f[1] !== undefined));
  }

  /** Types `text` one character at a time, `delayMs` apart; stops before the next character once `signal` aborts. */
  async type(text: string, opts: { signal?: AbortSignal; delayMs: number }): Promise<void> {
    await this.load();
    const chars = [...text.replace(/\r\n?/g, '\n')];
    for (const [i, char] of chars.entries()) {
      if (opts.signal?.aborted) throw new StoppedError(i);
      const place = await this.placeOf(keysymForChar(char.codePointAt(0)!));
      const shift = place.shift ? this.modifier('shift') : undefined;
      if (shift) fakeInput(this.c, this.xtest, FAKE.KEY_PRESS, shift);
      fakeInput(this.c, this.xtest, FAKE.KEY_PRESS, place.keycode);
      fakeInput(this.c, this.xtest, FAKE.KEY_RELEASE, place.keycode);
      if (shift) fakeInput(this.c, this.xtest, FAKE.KEY_RELEASE, shift);
      await this.c.sync();
      this.touch(place.keycode);
      if (i < chars.length - 1 && opts.delayMs > 0) await wait(opts.delayMs);
    }
  }

  /** Presses a combination: modifiers down in order, the key down and up, modifiers up in reverse. */
  async press(combo: KeyCombo): Promise<void> {
    await this.load();
    const modifierKeysyms = new Set(Object.values(MODIFIER_KEYSYM));
    const place = modifierKeysyms.has(combo.keysym)
      ? { keycode: this.modifier(modifierOf(combo.keysym)), shift: false }
      : await this.placeOf(combo.keysym);
    const held = combo.modifiers.map((m) => this.modifier(m));
    if (place.shift && !combo.modifiers.includes('shift')) held.push(this.modifier('shift'));
    for (const code of held) fakeInput(this.c, this.xtest, FAKE.KEY_PRESS, code);
    fakeInput(this.c, this.xtest, FAKE.KEY_PRESS, place.keycode);
    fakeInput(this.c, this.xtest, FAKE.KEY_RELEASE, place.keycode);
    for (const code of [...held].reverse()) fakeInput(this.c, this.xtest, FAKE.KEY_RELEASE, code);
    await this.c.sync();
    this.touch(place.keycode);
  }

  /** The keycodes of modifiers, to hold them around a click. */
  async modifierCodes(modifiers: readonly Modifier[]): Promise<number[]> {
    await this.load();
    return modifiers.map((m) => this.modifier(m));
  }

  private modifier(m: Modifier): number {
    const code = this.modifierKeycodes.get(m);
    if (code === undefined)
      throw new Error(`this keyboard map has no ${m} key (no keycode carries it in the modifier map)`);
    return code;
  }

  private async placeOf(keysym: number): Promise<KeyPlace> {
    const place = this.places.get(keysym);
    if (place) return place;
    for (const [keycode, use] of this.spare) if (use.keysym === keysym) return { keycode, shift: false };
    return this.bindSpare(keysym);
  }

  /** Binds `keysym` to the spare keycode idle longest, waiting until it has been idle long enough. */
  private async bindSpare(keysym: number): Promise<KeyPlace> {
    const free = [...this.spare].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
    if (!free)
      throw new Error(`the keyboard map has no spare keycode to type ${String.fromCodePoint(keysym & 0xffffff)} with`);
    const [keycode, use] = free;
    const idle = Date.now() - use.lastUsed;
    if (use.keysym && idle < REBIND_AFTER_MS) await wait(REBIND_AFTER_MS - idle);
    // Both levels carry it, so Shift or Caps Lock do not change what it types.
    changeKeyboardMapping(this.c, keycode, [keysym, keysym]);
    await this.c.sync();
    this.spare.set(keycode, { keysym, lastUsed: Date.now() });
    return { keycode, shift: false };
  }

  private touch(keycode: number): void {
    const use = this.spare.get(keycode);
    if (!use) return;
    use.lastUsed = Date.now();
    clearTimeout(this.unbindTimer);
    this.unbindTimer = setTimeout(() => void this.unbindSpare().catch(() => undefined), UNBIND_AFTER_MS);
    this.unbindTimer.unref();
  }

  /** Unbinds the spare keycodes bound so far, leaving the map as it was. */
  async unbindSpare(): Promise<void> {
    clearTimeout(this.unbindTimer);
    const bound = [...this.spare].filter(([, use]) => use.keysym !== 0);
    for (const [keycode, use] of bound) {
      changeKeyboardMapping(this.c, keycode, [0, 0]);
      use.keysym = 0;
    }
    if (bound.length) await this.c.sync();
  }
}

function modifierOf(keysym: number): Modifier {
  return (Object.entries(MODIFIER_KEYSYM).find(([, k]) => k === keysym)?.[0] ?? 'shift') as Modifier;
}
