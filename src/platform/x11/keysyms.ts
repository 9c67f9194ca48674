// X keysyms computer use names (values from the X11 keysym tables), with the names a model is likely to write
// for them: X's own (`Page_Up`, `BackSpace`, `KP_Enter`) and common aliases (`pgup`, `backspace`, `enter`).
// Names are looked up case-insensitively. A character is its own key: Latin-1 characters are their code
// point, every other character is the Unicode keysym 0x01000000 + code point.

export const KEYSYM = {
  BackSpace: 0xff08,
  Tab: 0xff09,
  Return: 0xff0d,
  Pause: 0xff13,
  Scroll_Lock: 0xff14,
  Sys_Req: 0xff15,
  Escape: 0xff1b,
  Delete: 0xffff,
  Home: 0xff50,
  Left: 0xff51,
  Up: 0xff52,
  Right: 0xff53,
  Down: 0xff54,
  Prior: 0xff55,
  Next: 0xff56,
  End: 0xff57,
  Print: 0xff61,
  Insert: 0xff63,
  Menu: 0xff67,
  Break: 0xff6b,
  Num_Lock: 0xff7f,
  KP_Enter: 0xff8d,
  KP_Delete: 0xff9f,
  F1: 0xffbe,
  F12: 0xffc9,
  Shift_L: 0xffe1,
  Shift_R: 0xffe2,
  Control_L: 0xffe3,
  Control_R: 0xffe4,
  Caps_Lock: 0xffe5,
  Meta_L: 0xffe7,
  Meta_R: 0xffe8,
  Alt_L: 0xffe9,
  Alt_R: 0xffea,
  Super_L: 0xffeb,
  Super_R: 0xffec,
  Hyper_L: 0xffed,
  Hyper_R: 0xffee,
  ISO_Level3_Shift: 0xfe03,
  Mode_switch: 0xff7e,
  Terminate_Server: 0xfed5,
  XF86Standby: 0x1008ff10,
  XF86PowerDown: 0x1008ff21,
  XF86PowerOff: 0x1008ff2a,
  XF86ScreenSaver: 0x1008ff2d,
  XF86Sleep: 0x1008ff2f,
  XF86LogOff: 0x1008ff61,
  XF86Suspend: 0x1008ffa7,
  XF86Hibernate: 0x1008ffa8,
  XF86Switch_VT_1: 0x1008fe01,
  XF86Switch_VT_12: 0x1008fe0c,
  XF86Ungrab: 0x1008fe20,
  XF86ClearGrab: 0x1008fe21,
  XF86LogWindowTree: 0x1008fe24,
  XF86LogGrabInfo: 0x1008fe25,
} as const;

const PUNCTUATION: Record<string, string> = {
  space: ' ',
  exclam: '!',
  quotedbl: '"',
  numbersign: '#',
  dollar: '$',
  percent: '%',
  ampersand: '&',
  apostrophe: "'",
  parenleft: '(',
  parenright: ')',
  asterisk: '*',
  plus: '+',
  comma: ',',
  minus: '-',
  period: '.',
  slash: '/',
  colon: ':',
  semicolon: ';',
  less: '<',
  equal: '=',
  greater: '>',
  question: '?',
  at: '@',
  bracketleft: '[',
  backslash: '\\',
  bracketright: ']',
  asciicircum: '^',
  underscore: '_',
  grave: '`',
  braceleft: '{',
  bar: '|',
  braceright: '}',
  asciitilde: '~',
  // aliases
  spc: ' ',
  dot: '.',
  quote: "'",
  backtick: '`',
  equals: '=',
  hash: '#',
  pipe: '|',
};

const NAMED: Record<string, number> = {
  backspace: KEYSYM.BackSpace,
  back_space: KEYSYM.BackSpace,
  bksp: KEYSYM.BackSpace,
  tab: KEYSYM.Tab,
  return: KEYSYM.Return,
  enter: KEYSYM.Return,
  ret: KEYSYM.Return,
  linefeed: 0xff0a,
  clear: 0xff0b,
  pause: KEYSYM.Pause,
  scroll_lock: KEYSYM.Scroll_Lock,
  scrolllock: KEYSYM.Scroll_Lock,
  sys_req: KEYSYM.Sys_Req,
  sysrq: KEYSYM.Sys_Req,
  escape: KEYSYM.Escape,
  esc: KEYSYM.Escape,
  delete: KEYSYM.Delete,
  del: KEYSYM.Delete,
  home: KEYSYM.Home,
  left: KEYSYM.Left,
  up: KEYSYM.Up,
  right: KEYSYM.Right,
  down: KEYSYM.Down,
  arrowleft: KEYSYM.Left,
  arrowup: KEYSYM.Up,
  arrowright: KEYSYM.Right,
  arrowdown: KEYSYM.Down,
  prior: KEYSYM.Prior,
  page_up: KEYSYM.Prior,
  pageup: KEYSYM.Prior,
  pgup: KEYSYM.Prior,
  next: KEYSYM.Next,
  page_down: KEYSYM.Next,
  pagedown: KEYSYM.Next,
  pgdn: KEYSYM.Next,
  end: KEYSYM.End,
  begin: 0xff58,
  select: 0xff60,
  print: KEYSYM.Print,
  printscreen: KEYSYM.Print,
  prtsc: KEYSYM.Print,
  prtscr: KEYSYM.Print,
  insert: KEYSYM.Insert,
  ins: KEYSYM.Insert,
  undo: 0xff65,
  redo: 0xff66,
  menu: KEYSYM.Menu,
  apps: KEYSYM.Menu,
  contextmenu: KEYSYM.Menu,
  find: 0xff68,
  cancel: 0xff69,
  help: 0xff6a,
  break: KEYSYM.Break,
  num_lock: KEYSYM.Num_Lock,
  numlock: KEYSYM.Num_Lock,
  caps_lock: KEYSYM.Caps_Lock,
  capslock: KEYSYM.Caps_Lock,
  kp_enter: KEYSYM.KP_Enter,
  kp_home: 0xff95,
  kp_left: 0xff96,
  kp_up: 0xff97,
  kp_right: 0xff98,
  kp_down: 0xff99,
  kp_prior: 0xff9a,
  kp_page_up: 0xff9a,
  kp_next: 0xff9b,
  kp_page_down: 0xff9b,
  kp_end: 0xff9c,
  kp_begin: 0xff9d,
  kp_insert: 0xff9e,
  kp_delete: KEYSYM.KP_Delete,
  kp_equal: 0xffbd,
  kp_multiply: 0xffaa,
  kp_add: 0xffab,
  kp_separator: 0xffac,
  kp_subtract: 0xffad,
  kp_decimal: 0xffae,
  kp_divide: 0xffaf,
  shift_l: KEYSYM.Shift_L,
  shift_r: KEYSYM.Shift_R,
  control_l: KEYSYM.Control_L,
  control_r: KEYSYM.Control_R,
  alt_l: KEYSYM.Alt_L,
  alt_r: KEYSYM.Alt_R,
  meta_l: KEYSYM.Meta_L,
  meta_r: KEYSYM.Meta_R,
  super_l: KEYSYM.Super_L,
  super_r: KEYSYM.Super_R,
  hyper_l: KEYSYM.Hyper_L,
  hyper_r: KEYSYM.Hyper_R,
  iso_level3_shift: KEYSYM.ISO_Level3_Shift,
  mode_switch: KEYSYM.Mode_switch,
  terminate_server: KEYSYM.Terminate_Server,
  xf86audiolowervolume: 0x1008ff11,
  xf86audiomute: 0x1008ff12,
  xf86audioraisevolume: 0x1008ff13,
  xf86audioplay: 0x1008ff14,
  xf86audiostop: 0x1008ff15,
  xf86audioprev: 0x1008ff16,
  xf86audionext: 0x1008ff17,
  xf86back: 0x1008ff26,
  xf86forward: 0x1008ff27,
  xf86refresh: 0x1008ff29,
  xf86copy: 0x1008ff57,
  xf86cut: 0x1008ff58,
  xf86paste: 0x1008ff6d,
  xf86standby: KEYSYM.XF86Standby,
  xf86powerdown: KEYSYM.XF86PowerDown,
  xf86poweroff: KEYSYM.XF86PowerOff,
  xf86screensaver: KEYSYM.XF86ScreenSaver,
  xf86sleep: KEYSYM.XF86Sleep,
  xf86logoff: KEYSYM.XF86LogOff,
  xf86suspend: KEYSYM.XF86Suspend,
  xf86hibernate: KEYSYM.XF86Hibernate,
  xf86ungrab: KEYSYM.XF86Ungrab,
  xf86cleargrab: KEYSYM.XF86ClearGrab,
  xf86logwindowtree: KEYSYM.XF86LogWindowTree,
  xf86loggrabinfo: KEYSYM.XF86LogGrabInfo,
};

for (let n = 1; n <= 35; n++) NAMED[`f${n}`] = KEYSYM.F1 + n - 1;
for (let n = 0; n <= 9; n++) NAMED[`kp_${n}`] = 0xffb0 + n;
for (let n = 1; n <= 12; n++) NAMED[`xf86switch_vt_${n}`] = KEYSYM.XF86Switch_VT_1 + n - 1;
for (const [name, char] of Object.entries(PUNCTUATION)) NAMED[name] = char.charCodeAt(0);

/** The keysym that types `codePoint` (`\n` is Return, `\t` Tab). */
export function keysymForChar(codePoint: number): number {
  if (codePoint === 0x0a) return KEYSYM.Return;
  if (codePoint === 0x09) return KEYSYM.Tab;
  if ((codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff)) return codePoint;
  return 0x01000000 + codePoint;
}

/**
 * The keysym a key name means, or undefined. A single character is that character's key, a letter always
 * the lower-case one (Shift is asked for with `shift+`).
 */
export function keysymForName(name: string): number | undefined {
  const chars = [...name];
  if (chars.length === 1) {
    const lower = chars[0].toLowerCase();
    return keysymForChar((lower.length === 1 ? lower : chars[0]).codePointAt(0)!);
  }
  const named = NAMED[name.toLowerCase()];
  if (named !== undefined) return named;
  const unicode = /^u\+([0-9a-f]{4,6})$/i.exec(name);
  if (unicode) return keysymForChar(parseInt(unicode[1], 16));
  return undefined;
}

/** A name to show for a keysym: X's own for the named keys, the character otherwise. */
export function keysymLabel(keysym: number): string {
  if (keysym >= KEYSYM.F1 && keysym < KEYSYM.F1 + 35) return `F${keysym - KEYSYM.F1 + 1}`;
  for (const [name, value] of Object.entries(KEYSYM)) if (value === keysym) return name;
  const named = Object.entries(NAMED).find(([, v]) => v === keysym);
  if (named && named[0].length > 1 && keysym > 0xff) return named[0];
  if (keysym >= 0x20 && keysym <= 0xff) return String.fromCodePoint(keysym);
  if (keysym >= 0x01000000 && keysym <= 0x0110ffff) return String.fromCodePoint(keysym - 0x01000000);
  return `0x${keysym.toString(16)}`;
}
