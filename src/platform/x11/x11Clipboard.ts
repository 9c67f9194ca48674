// Reading the X11 clipboard as text (docs/computer-use.md, "Clipboard"): the application that owns the CLIPBOARD
// selection is asked to convert it to UTF8_STRING (else STRING) into a property of a small window of ours, which
// we then read. Large contents come in pieces (the INCR protocol), each announced by a PropertyNotify.
import type { EventQueue, X11Connection } from './x11Connection';
import {
  type Atoms,
  convertSelection,
  createWindow,
  destroyWindow,
  EVENT,
  EVENT_MASK,
  getProperty,
  getSelectionOwner,
  NONE,
  WINDOW_ATTR,
} from './x11Requests';

export interface ClipboardText {
  /** Undefined when no application owns the clipboard or it holds no text. */
  text?: string;
  truncated: boolean;
  why?: string;
}

export async function readClipboardText(
  c: X11Connection,
  atoms: Atoms,
  opts: { selection?: 'CLIPBOARD' | 'PRIMARY'; maxBytes: number; timeoutMs: number; signal?: AbortSignal },
): Promise<ClipboardText> {
  const selection = await atoms.get(opts.selection ?? 'CLIPBOARD');
  if ((await getSelectionOwner(c, selection)) === NONE)
    return { truncated: false, why: 'no application owns the clipboard (it is empty)' };
  const window = c.newId();
  createWindow(
    c,
    window,
    c.screen.root,
    { x: -10, y: -10, width: 1, height: 1 },
    { mask: WINDOW_ATTR.EVENT_MASK, values: [EVENT_MASK.PROPERTY_CHANGE] },
  );
  const property = await atoms.get('JARVIS_CLIPBOARD');
  const incr = await atoms.get('INCR');
  // Queued from the start: a piece announced while a reply is awaited must not be missed.
  const notifications = c.queueEvents((e) => e.type === EVENT.SELECTION_NOTIFY && e.bytes.readUInt32LE(8) === window);
  const pieces = c.queueEvents(
    (e) =>
      e.type === EVENT.PROPERTY_NOTIFY &&
      e.bytes.readUInt32LE(4) === window &&
      e.bytes.readUInt32LE(8) === property &&
      e.bytes[16] === 0,
  );
  try {
    for (const target of ['UTF8_STRING', 'STRING']) {
      const type = await atoms.get(target);
      convertSelection(c, window, selection, type, property);
      const notify = await notifications.next(opts.timeoutMs, 'the clipboard owner answering', opts.signal);
      if (notify.bytes.readUInt32LE(20) === NONE) continue; // refused this target
      const bytes = await readProperty(c, window, property, incr, pieces, opts);
      return {
        text: bytes.data.toString(target === 'STRING' ? 'latin1' : 'utf8'),
        truncated: bytes.truncated,
      };
    }
    return { truncated: false, why: 'the clipboard holds no text (its owner offers no text form of it)' };
  } finally {
    notifications.stop();
    pieces.stop();
    destroyWindow(c, window);
  }
}

async function readProperty(
  c: X11Connection,
  window: number,
  property: number,
  incr: number,
  announced: EventQueue,
  opts: { maxBytes: number; timeoutMs: number; signal?: AbortSignal },
): Promise<{ data: Buffer; truncated: boolean }> {
  // The owner set the property before it answered: what was announced until now is that value itself.
  announced.clear();
  const first = await getProperty(c, window, property, { maxBytes: opts.maxBytes, delete: true });
  if (first.type !== incr) return { data: first.value, truncated: first.bytesAfter > 0 };
  // INCR: deleting the property asked for the first piece; each new value is the next one, an empty one ends it.
  const pieces: Buffer[] = [];
  let size = 0;
  for (;;) {
    await announced.next(opts.timeoutMs, 'the next piece of the clipboard', opts.signal);
    const piece = await getProperty(c, window, property, { maxBytes: opts.maxBytes, delete: true });
    if (!piece.value.length) return { data: Buffer.concat(pieces), truncated: false };
    if (size + piece.value.length > opts.maxBytes) {
      pieces.push(piece.value.subarray(0, opts.maxBytes - size));
      return { data: Buffer.concat(pieces), truncated: true };
    }
    pieces.push(piece.value);
    size += piece.value.length;
  }
}
