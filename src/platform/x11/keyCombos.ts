// Key combinations as the model writes them (`ctrl+s`, `Control+Shift+T`, `alt+F4`, `Return`) and the ones computer
// use refuses to press: those that lock the screen, log out, switch away from the desktop session, kill the X
// server or reach the kernel's emergency keys (docs/computer-use.md, "Refused key combinations"). A combination is
// judged on what it presses — modifiers and keysym — so case, aliases (`control`, `win`, `del`) and order
// cannot sneak one past the list.
import { KEYSYM, keysymForName, keysymLabel } from './keysyms';

export type Modifier = 'shift' | 'ctrl' | 'alt' | 'super' | 'altgr';

const MODIFIER_ALIASES: Record<string, Modifier> = {
  shift: 'shift',
  ctrl: 'ctrl',
  control: 'ctrl',
  ctl: 'ctrl',
  strg: 'ctrl',
  alt: 'alt',
  option: 'alt',
  opt: 'alt',
  mod1: 'alt',
  // KDE calls the Super key Meta, and keyboards label it with a logo or "Win".
  super: 'super',
  meta: 'super',
  win: 'super',
  windows: 'super',
  cmd: 'super',
  command: 'super',
  logo: 'super',
  mod4: 'super',
  hyper: 'super',
  altgr: 'altgr',
  alt_gr: 'altgr',
  level3: 'altgr',
};

/** The keysym pressed for a modifier named on its own (`super` opens the launcher on many desktops). */
export const MODIFIER_KEYSYM: Record<Modifier, number> = {
  shift: KEYSYM.Shift_L,
  ctrl: KEYSYM.Control_L,
  alt: KEYSYM.Alt_L,
  super: KEYSYM.Super_L,
  altgr: KEYSYM.ISO_Level3_Shift,
};

/** The order modifiers are pressed in and written in. */
const ORDER: Modifier[] = ['ctrl', 'alt', 'shift', 'super', 'altgr'];

export interface KeyCombo {
  /** As written. */
  text: string;
  modifiers: Modifier[];
  keysym: number;
}

export class KeyComboError extends Error {}

/** Reads `ctrl+shift+t`; a key it does not know throws with the names it does. */
export function parseKeyCombo(text: string): KeyCombo {
  const trimmed = text.trim();
  if (!trimmed) throw new KeyComboError('an empty key combination');
  // `ctrl++` and a lone `+` name the plus key.
  const raw =
    trimmed === '+'
      ? ['+']
      : trimmed
          .replace(/\+\+$/, '+plus')
          .split('+')
          .map((p) => p.trim());
  // `U+2192` names a key by its code point: its own + is not a separator.
  const parts: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const codePoint = /^u$/i.test(raw[i]) && /^[0-9a-f]{4,6}$/i.test(raw[i + 1] ?? '');
    parts.push(codePoint ? `U+${raw[++i]}` : raw[i]);
  }
  if (parts.some((p) => !p)) throw new KeyComboError(`"${text}" has an empty part between the + signs`);
  const modifiers = new Set<Modifier>();
  const keyName = parts[parts.length - 1];
  for (const name of parts.slice(0, -1)) {
    const modifier = MODIFIER_ALIASES[name.toLowerCase()];
    if (!modifier)
      throw new KeyComboError(`"${name}" in "${text}" is not a modifier (use shift, ctrl, alt, super or altgr)`);
    modifiers.add(modifier);
  }
  const alone = MODIFIER_ALIASES[keyName.toLowerCase()];
  const keysym = alone ? MODIFIER_KEYSYM[alone] : keysymForName(keyName);
  if (keysym === undefined) {
    throw new KeyComboError(
      `"${keyName}" in "${text}" is not a key name; use a character (a, 7, /, é), an X key name ` +
        '(Return, Escape, BackSpace, Delete, Tab, Home, End, Page_Up, Page_Down, Left, Up, F1…F24, KP_Enter) or U+XXXX',
    );
  }
  return { text: trimmed, modifiers: ORDER.filter((m) => modifiers.has(m)), keysym };
}

const LOCK_OR_LOG_OUT = 'locks the screen or ends the desktop session';

/**
 * Why a combination must not be pressed, or undefined when it may be. The list: Ctrl+Alt+Delete (and the keypad
 * Delete), Ctrl+Alt+Backspace and Terminate_Server, Ctrl+Alt+F1…F12 and the XF86Switch_VT keys, Super+L and
 * Ctrl+Alt+L (with any other modifiers), KDE's Ctrl+Alt+Shift+Page_Up/Page_Down, Alt with SysRq/Print, and the
 * power, sleep, screensaver, log-off and grab-breaking keys on their own or combined.
 */
export function refusedCombo(combo: Pick<KeyCombo, 'modifiers' | 'keysym'>): string | undefined {
  const has = (m: Modifier) => combo.modifiers.includes(m);
  // Letters are judged whatever their case (`U+004C` is an upper-case L).
  const k = combo.keysym >= 0x41 && combo.keysym <= 0x5a ? combo.keysym + 0x20 : combo.keysym;
  const ctrlAlt = has('ctrl') && has('alt');
  if (ctrlAlt && (k === KEYSYM.Delete || k === KEYSYM.KP_Delete))
    return 'it opens the log-out or shut-down dialog, or restarts the computer';
  if ((ctrlAlt && k === KEYSYM.BackSpace) || k === KEYSYM.Terminate_Server)
    return 'it can kill the X server, and every application of the session with it';
  if ((ctrlAlt && k >= KEYSYM.F1 && k <= KEYSYM.F12) || (k >= KEYSYM.XF86Switch_VT_1 && k <= KEYSYM.XF86Switch_VT_12))
    return 'it switches to another virtual terminal, away from the desktop session';
  if (k === 0x6c && (has('super') || ctrlAlt)) return `it ${LOCK_OR_LOG_OUT}`;
  if (ctrlAlt && has('shift') && (k === KEYSYM.Prior || k === KEYSYM.Next))
    return 'it restarts or shuts down the computer without asking (KDE)';
  if (has('alt') && (k === KEYSYM.Sys_Req || k === KEYSYM.Print))
    return "it reaches the kernel's emergency SysRq keys, which can kill every process or reboot";
  const power = [
    KEYSYM.XF86Standby,
    KEYSYM.XF86PowerDown,
    KEYSYM.XF86PowerOff,
    KEYSYM.XF86ScreenSaver,
    KEYSYM.XF86Sleep,
    KEYSYM.XF86LogOff,
    KEYSYM.XF86Suspend,
    KEYSYM.XF86Hibernate,
  ] as number[];
  if (power.includes(k)) return `it ${LOCK_OR_LOG_OUT}, suspends or powers off the computer`;
  const grabs = [KEYSYM.XF86Ungrab, KEYSYM.XF86ClearGrab, KEYSYM.XF86LogWindowTree, KEYSYM.XF86LogGrabInfo] as number[];
  if (grabs.includes(k)) return "it is one of the X server's debugging keys, which break other applications' grabs";
  return undefined;
}

/** How a combination reads in messages: `ctrl+alt+Delete`. */
export function describeCombo(combo: Pick<KeyCombo, 'modifiers' | 'keysym'>): string {
  return [...combo.modifiers, keysymLabel(combo.keysym)].join('+');
}
