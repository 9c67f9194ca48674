// The application windows of an X11 desktop and how to bring one to the front (docs/computer-use.md, "Windows").
// With a window manager the list is its own (_NET_CLIENT_LIST_STACKING, EWMH) and a window is activated the way a
// task bar asks for it (_NET_ACTIVE_WINDOW); without one, the mapped top-level windows are the list and a window
// is raised and given the focus directly.
import { X11Error, type X11Connection } from './x11Connection';
import {
  ATOM,
  type Atoms,
  clientMessage,
  CONFIG,
  configureWindow,
  CURRENT_TIME,
  EVENT_MASK,
  getCardinals,
  getGeometry,
  getInputFocus,
  getProperty,
  getWindowAttributes,
  queryTree,
  sendEvent,
  setInputFocus,
  STACK_ABOVE,
  translateCoordinates,
} from './x11Requests';

export interface DesktopWindow {
  id: number;
  title: string;
  /** WM_CLASS's class name (`Mousepad`, `XTerm`), else its instance name. */
  app: string;
  pid?: number;
  /** Screen pixels of the window's content (without the window manager's frame). */
  x: number;
  y: number;
  width: number;
  height: number;
  focused: boolean;
  minimized: boolean;
}

const BAD_WINDOW = 3;
const BAD_DRAWABLE = 9;

/** Runs `read` on a window that may close meanwhile: a window that went away reads as undefined. */
async function ifStillThere<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof X11Error && (e.code === BAD_WINDOW || e.code === BAD_DRAWABLE)) return undefined;
    throw e;
  }
}

async function text(c: X11Connection, atoms: Atoms, window: number): Promise<string> {
  const utf8 = await getProperty(c, window, await atoms.get('_NET_WM_NAME'), {
    type: await atoms.get('UTF8_STRING'),
    maxBytes: 4096,
  });
  if (utf8.value.length) return utf8.value.toString('utf8');
  const plain = await getProperty(c, window, ATOM.WM_NAME, { maxBytes: 4096 });
  return plain.value.toString(plain.type === (await atoms.get('UTF8_STRING')) ? 'utf8' : 'latin1');
}

/** The client windows, topmost first, or the mapped top-level windows when no window manager lists them. */
async function clientWindows(c: X11Connection, atoms: Atoms): Promise<{ ids: number[]; managed: boolean }> {
  const root = c.screen.root;
  const stacking = await getCardinals(c, root, await atoms.get('_NET_CLIENT_LIST_STACKING'));
  const list = stacking.length ? stacking : await getCardinals(c, root, await atoms.get('_NET_CLIENT_LIST'));
  if (list.length) return { ids: [...list].reverse(), managed: true };
  const ids: number[] = [];
  for (const child of (await queryTree(c, root)).children.reverse()) {
    const attributes = await ifStillThere(() => getWindowAttributes(c, child));
    if (attributes?.viewable && !attributes.overrideRedirect) ids.push(child);
  }
  return { ids, managed: false };
}

/** The window that has the keyboard: the manager's active one, else the top-level window holding the focus. */
async function activeWindow(c: X11Connection, atoms: Atoms, ids: readonly number[]): Promise<number | undefined> {
  const [active] = await getCardinals(c, c.screen.root, await atoms.get('_NET_ACTIVE_WINDOW'));
  if (active) return active;
  let window = await getInputFocus(c);
  for (let depth = 0; window > 1 && depth < 64; depth++) {
    if (ids.includes(window)) return window;
    const tree = await ifStillThere(() => queryTree(c, window));
    if (!tree || tree.parent === 0 || window === tree.root) return undefined;
    window = tree.parent;
  }
  return undefined;
}

export async function listWindows(c: X11Connection, atoms: Atoms): Promise<DesktopWindow[]> {
  const { ids } = await clientWindows(c, atoms);
  const active = await activeWindow(c, atoms, ids);
  const hidden = await atoms.get('_NET_WM_STATE_HIDDEN');
  const out: DesktopWindow[] = [];
  for (const id of ids) {
    const window = await ifStillThere(async (): Promise<DesktopWindow> => {
      const geometry = await getGeometry(c, id);
      const at = await translateCoordinates(c, id, c.screen.root);
      const wmClass = (await getProperty(c, id, ATOM.WM_CLASS, { maxBytes: 1024 })).value
        .toString('latin1')
        .split('\0');
      const [pid] = await getCardinals(c, id, await atoms.get('_NET_WM_PID'));
      const state = await getCardinals(c, id, await atoms.get('_NET_WM_STATE'));
      const attributes = await getWindowAttributes(c, id);
      return {
        id,
        title: await text(c, atoms, id),
        app: wmClass[1] || wmClass[0] || '',
        ...(pid ? { pid } : {}),
        x: at.x,
        y: at.y,
        width: geometry.width,
        height: geometry.height,
        focused: id === active,
        minimized: state.includes(hidden) || !attributes.viewable,
      };
    });
    if (window) out.push(window);
  }
  return out;
}

/**
 * Activates `id` and waits (up to `timeoutMs`) until it has the focus. Answers whether it got it; throws when
 * there is no such window.
 */
export async function focusWindow(
  c: X11Connection,
  atoms: Atoms,
  id: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  const { ids, managed } = await clientWindows(c, atoms);
  if (!ids.includes(id))
    throw new Error(`there is no window 0x${id.toString(16)} (list_windows shows the windows there are)`);
  if (managed) {
    const message = clientMessage(id, await atoms.get('_NET_ACTIVE_WINDOW'), [2, CURRENT_TIME, 0]);
    sendEvent(c, c.screen.root, EVENT_MASK.SUBSTRUCTURE_REDIRECT | EVENT_MASK.SUBSTRUCTURE_NOTIFY, message);
  } else {
    configureWindow(c, id, CONFIG.STACK_MODE, [STACK_ABOVE]);
    setInputFocus(c, id);
  }
  await c.sync();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await activeWindow(c, atoms, ids)) === id) return true;
    if (Date.now() > deadline || signal?.aborted) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
