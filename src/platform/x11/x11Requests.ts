// The X11 core requests (and the two extension requests) computer use needs, encoded and decoded by hand:
// each function is one request of the X Window System Protocol, with its opcode and byte layout.
import { padded, type X11Connection } from './x11Connection';

export const NONE = 0;
export const ANY_PROPERTY_TYPE = 0;
export const CURRENT_TIME = 0;

/** Predefined atoms of the core protocol. */
export const ATOM = { ATOM: 4, CARDINAL: 6, STRING: 31, WINDOW: 33, WM_NAME: 39, WM_CLASS: 67 } as const;

/** Event masks. */
export const EVENT_MASK = {
  PROPERTY_CHANGE: 0x400000,
  SUBSTRUCTURE_NOTIFY: 0x80000,
  SUBSTRUCTURE_REDIRECT: 0x100000,
} as const;

/** Event types. */
export const EVENT = { PROPERTY_NOTIFY: 28, SELECTION_NOTIFY: 31, CLIENT_MESSAGE: 33 } as const;

function body(size: number, fill: (b: Buffer) => void): Buffer {
  const b = Buffer.alloc(size);
  fill(b);
  return b;
}

const u32s = (...values: number[]) =>
  body(values.length * 4, (b) => values.forEach((v, i) => b.writeUInt32LE(v >>> 0, i * 4)));

/** Atoms by name, asked once per connection. */
export class Atoms {
  private readonly known = new Map<string, Promise<number>>();
  constructor(private readonly c: X11Connection) {}

  get(name: string): Promise<number> {
    let atom = this.known.get(name);
    if (!atom) {
      const text = Buffer.from(name, 'latin1');
      const request = body(4 + padded(text.length), (b) => {
        b.writeUInt16LE(text.length, 0);
        text.copy(b, 4);
      });
      atom = this.c.request(16, 0, request).then((r) => r.readUInt32LE(8));
      this.known.set(name, atom);
    }
    return atom;
  }
}

export interface PropertyValue {
  type: number;
  format: number;
  value: Buffer;
  bytesAfter: number;
}

export async function getProperty(
  c: X11Connection,
  window: number,
  property: number,
  opts: { type?: number; maxBytes?: number; offsetBytes?: number; delete?: boolean } = {},
): Promise<PropertyValue> {
  const longs = Math.ceil((opts.maxBytes ?? 1 << 20) / 4);
  const r = await c.request(
    20,
    opts.delete ? 1 : 0,
    u32s(window, property, opts.type ?? ANY_PROPERTY_TYPE, (opts.offsetBytes ?? 0) / 4, longs),
  );
  const format = r[1];
  const units = r.readUInt32LE(16);
  return {
    format,
    type: r.readUInt32LE(8),
    bytesAfter: r.readUInt32LE(12),
    value: r.subarray(32, 32 + units * (format / 8)),
  };
}

/** A property of 32-bit values (WINDOW, CARDINAL, ATOM lists) as numbers; empty when absent. */
export async function getCardinals(c: X11Connection, window: number, property: number): Promise<number[]> {
  const p = await getProperty(c, window, property);
  if (p.format !== 32) return [];
  const out: number[] = [];
  for (let i = 0; i + 4 <= p.value.length; i += 4) out.push(p.value.readUInt32LE(i));
  return out;
}

export function deleteProperty(c: X11Connection, window: number, property: number): void {
  c.send(19, 0, u32s(window, property));
}

export interface Geometry {
  root: number;
  x: number;
  y: number;
  width: number;
  height: number;
  depth: number;
}

export async function getGeometry(c: X11Connection, drawable: number): Promise<Geometry> {
  const r = await c.request(14, 0, u32s(drawable));
  return {
    depth: r[1],
    root: r.readUInt32LE(8),
    x: r.readInt16LE(12),
    y: r.readInt16LE(14),
    width: r.readUInt16LE(16),
    height: r.readUInt16LE(18),
  };
}

export async function queryTree(
  c: X11Connection,
  window: number,
): Promise<{ root: number; parent: number; children: number[] }> {
  const r = await c.request(15, 0, u32s(window));
  const count = r.readUInt16LE(16);
  const children: number[] = [];
  for (let i = 0; i < count; i++) children.push(r.readUInt32LE(32 + 4 * i));
  return { root: r.readUInt32LE(8), parent: r.readUInt32LE(12), children };
}

/** Where (x, y) of `from` is in `to`'s coordinates. */
export async function translateCoordinates(
  c: X11Connection,
  from: number,
  to: number,
  x = 0,
  y = 0,
): Promise<{ x: number; y: number }> {
  const b = body(12, (b) => {
    b.writeUInt32LE(from, 0);
    b.writeUInt32LE(to, 4);
    b.writeInt16LE(x, 8);
    b.writeInt16LE(y, 10);
  });
  const r = await c.request(40, 0, b);
  return { x: r.readInt16LE(12), y: r.readInt16LE(14) };
}

export async function getWindowAttributes(
  c: X11Connection,
  window: number,
): Promise<{ viewable: boolean; overrideRedirect: boolean }> {
  const r = await c.request(3, 0, u32s(window));
  return { viewable: r[26] === 2, overrideRedirect: r[27] === 1 };
}

export interface PointerState {
  x: number;
  y: number;
  /** Modifier and button state (Shift 0x1, Lock 0x2, Control 0x4, Mod1–5 0x8–0x80, buttons 0x100…). */
  mask: number;
}

export async function queryPointer(c: X11Connection, window: number): Promise<PointerState> {
  const r = await c.request(38, 0, u32s(window));
  return { x: r.readInt16LE(16), y: r.readInt16LE(18), mask: r.readUInt16LE(24) };
}

export async function getInputFocus(c: X11Connection): Promise<number> {
  const r = await c.request(43, 0);
  return r.readUInt32LE(8);
}

/** Gives `window` the keyboard focus; when it goes away, focus reverts to its parent. */
export function setInputFocus(c: X11Connection, window: number): void {
  c.send(42, 2, u32s(window, CURRENT_TIME));
}

/** Sends a 32-byte event to `destination` (SendEvent). */
export function sendEvent(c: X11Connection, destination: number, eventMask: number, event: Buffer): void {
  const b = Buffer.alloc(40);
  b.writeUInt32LE(destination, 0);
  b.writeUInt32LE(eventMask, 4);
  event.copy(b, 8, 0, 32);
  c.send(25, 0, b);
}

/** A ClientMessage event with five 32-bit values. */
export function clientMessage(window: number, type: number, data: number[]): Buffer {
  return body(32, (b) => {
    b[0] = EVENT.CLIENT_MESSAGE;
    b[1] = 32;
    b.writeUInt32LE(window, 4);
    b.writeUInt32LE(type, 8);
    data.slice(0, 5).forEach((v, i) => b.writeUInt32LE(v >>> 0, 12 + 4 * i));
  });
}

export const CONFIG = { X: 1, Y: 2, WIDTH: 4, HEIGHT: 8, STACK_MODE: 64 } as const;
export const STACK_ABOVE = 0;

/** ConfigureWindow with the values in mask order (x, y, width, height, border, sibling, stack mode). */
export function configureWindow(c: X11Connection, window: number, mask: number, values: number[]): void {
  const b = Buffer.alloc(8 + 4 * values.length);
  b.writeUInt32LE(window, 0);
  b.writeUInt16LE(mask, 4);
  values.forEach((v, i) => b.writeInt32LE(v, 8 + 4 * i));
  c.send(12, 0, b);
}

export const WINDOW_ATTR = {
  BACKGROUND_PIXEL: 0x2,
  BORDER_PIXEL: 0x8,
  OVERRIDE_REDIRECT: 0x200,
  EVENT_MASK: 0x800,
} as const;

export function createWindow(
  c: X11Connection,
  id: number,
  parent: number,
  geometry: { x: number; y: number; width: number; height: number; border?: number },
  attributes: { mask: number; values: number[] },
): void {
  const b = Buffer.alloc(28 + 4 * attributes.values.length);
  b.writeUInt32LE(id, 0);
  b.writeUInt32LE(parent, 4);
  b.writeInt16LE(geometry.x, 8);
  b.writeInt16LE(geometry.y, 10);
  b.writeUInt16LE(geometry.width, 12);
  b.writeUInt16LE(geometry.height, 14);
  b.writeUInt16LE(geometry.border ?? 0, 16);
  b.writeUInt16LE(1, 18); // InputOutput
  b.writeUInt32LE(0, 20); // the parent's visual
  b.writeUInt32LE(attributes.mask, 24);
  attributes.values.forEach((v, i) => b.writeUInt32LE(v >>> 0, 28 + 4 * i));
  c.send(1, 0, b); // depth 0: the parent's depth
}

export const mapWindow = (c: X11Connection, window: number) => c.send(8, 0, u32s(window));
export const unmapWindow = (c: X11Connection, window: number) => c.send(10, 0, u32s(window));
export const destroyWindow = (c: X11Connection, window: number) => c.send(4, 0, u32s(window));

export interface RawImage {
  depth: number;
  visual: number;
  data: Buffer;
}

/** The pixels of a rectangle of `drawable` in ZPixmap format. */
export async function getImage(
  c: X11Connection,
  drawable: number,
  x: number,
  y: number,
  width: number,
  height: number,
): Promise<RawImage> {
  const b = body(16, (b) => {
    b.writeUInt32LE(drawable, 0);
    b.writeInt16LE(x, 4);
    b.writeInt16LE(y, 6);
    b.writeUInt16LE(width, 8);
    b.writeUInt16LE(height, 10);
    b.writeUInt32LE(0xffffffff, 12);
  });
  const r = await c.request(73, 2, b);
  return { depth: r[1], visual: r.readUInt32LE(8), data: r.subarray(32) };
}

export interface Extension {
  present: boolean;
  majorOpcode: number;
  firstEvent: number;
}

export async function queryExtension(c: X11Connection, name: string): Promise<Extension> {
  const text = Buffer.from(name, 'latin1');
  const b = body(4 + padded(text.length), (b) => {
    b.writeUInt16LE(text.length, 0);
    text.copy(b, 4);
  });
  const r = await c.request(98, 0, b);
  return { present: r[8] === 1, majorOpcode: r[9], firstEvent: r[10] };
}

export interface KeyboardMapping {
  firstKeycode: number;
  keysymsPerKeycode: number;
  keysyms: Uint32Array;
}

export async function getKeyboardMapping(
  c: X11Connection,
  firstKeycode: number,
  count: number,
): Promise<KeyboardMapping> {
  const r = await c.request(
    101,
    0,
    body(4, (b) => ((b[0] = firstKeycode), (b[1] = count))),
  );
  const per = r[1];
  const keysyms = new Uint32Array(count * per);
  for (let i = 0; i < keysyms.length; i++) keysyms[i] = r.readUInt32LE(32 + 4 * i);
  return { firstKeycode, keysymsPerKeycode: per, keysyms };
}

/** Sets the keysyms of `keycode` (ChangeKeyboardMapping for one keycode). */
export function changeKeyboardMapping(c: X11Connection, keycode: number, keysyms: number[]): void {
  const b = Buffer.alloc(4 + 4 * keysyms.length);
  b[0] = keycode;
  b[1] = keysyms.length;
  keysyms.forEach((k, i) => b.writeUInt32LE(k >>> 0, 4 + 4 * i));
  c.send(100, 1, b);
}

/** The keycodes of each of the eight modifiers (Shift, Lock, Control, Mod1…Mod5), zeros dropped. */
export async function getModifierMapping(c: X11Connection): Promise<number[][]> {
  const r = await c.request(119, 0);
  const per = r[1];
  const rows: number[][] = [];
  for (let m = 0; m < 8; m++) {
    const row: number[] = [];
    for (let k = 0; k < per; k++) {
      const code = r[32 + m * per + k];
      if (code) row.push(code);
    }
    rows.push(row);
  }
  return rows;
}

export async function getSelectionOwner(c: X11Connection, selection: number): Promise<number> {
  const r = await c.request(23, 0, u32s(selection));
  return r.readUInt32LE(8);
}

export function convertSelection(
  c: X11Connection,
  requestor: number,
  selection: number,
  target: number,
  property: number,
): void {
  c.send(24, 0, u32s(requestor, selection, target, property, CURRENT_TIME));
}

/** XTEST: the version, which also proves the extension answers. */
export async function xtestVersion(c: X11Connection, major: number): Promise<string> {
  const r = await c.request(
    major,
    0,
    body(4, (b) => ((b[0] = 2), b.writeUInt16LE(2, 2))),
  );
  return `${r[1]}.${r.readUInt16LE(8)}`;
}

export const FAKE = { KEY_PRESS: 2, KEY_RELEASE: 3, BUTTON_PRESS: 4, BUTTON_RELEASE: 5, MOTION: 6 } as const;

/** XTEST FakeInput: a key or button press/release, or an absolute pointer motion on `root`. */
export function fakeInput(
  c: X11Connection,
  major: number,
  type: number,
  detail: number,
  root = NONE,
  x = 0,
  y = 0,
): void {
  const b = Buffer.alloc(32);
  b[0] = type;
  b[1] = detail;
  b.writeUInt32LE(CURRENT_TIME, 4);
  b.writeUInt32LE(root, 8);
  b.writeInt16LE(x, 20);
  b.writeInt16LE(y, 22);
  c.send(major, 2, b);
}

/** SHAPE: makes `window` take no pointer input (an empty input shape), so clicks go to what is below it. */
export function clearInputShape(c: X11Connection, shapeMajor: number, window: number): void {
  const b = Buffer.alloc(12);
  b[0] = 0; // Set
  b[1] = 2; // the input shape
  b[2] = 0; // unsorted
  b.writeUInt32LE(window, 4);
  c.send(shapeMajor, 1, b);
}
