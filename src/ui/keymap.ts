// The UI's key bindings in one place: what each key does, and the help text built from it.
import { isKeyRelease, matchesKey, type KeyId } from '@mariozechner/pi-tui';
import type { CommandInfo } from './completion';

export type Action =
  | 'interrupt' // Esc / Ctrl-C while the agent works
  | 'ctrlC'
  | 'ctrlD'
  | 'escape'
  | 'steer'
  | 'toggleExpand'
  | 'externalEditor'
  | 'cycleMode'
  | 'toggleTodos'
  /** Shift-Enter or Ctrl-J, however the terminal reports them (legacy, kitty CSI-u, modifyOtherKeys). */
  | 'newline'
  /** Ctrl-V: an image from the clipboard (its text otherwise). */
  | 'pasteImage'
  | 'pageUp'
  | 'pageDown'
  /** Two Esc presses that reached us as one chunk (a terminal sends ESC ESC as alt+escape). */
  | 'doubleEscape';

const BINDINGS: Array<{ action: Action; keys: KeyId[] }> = [
  { action: 'ctrlC', keys: ['ctrl+c'] },
  { action: 'ctrlD', keys: ['ctrl+d'] },
  { action: 'escape', keys: ['escape'] },
  { action: 'steer', keys: ['ctrl+s'] },
  { action: 'toggleExpand', keys: ['ctrl+o'] },
  { action: 'externalEditor', keys: ['ctrl+g'] },
  { action: 'cycleMode', keys: ['shift+tab'] },
  { action: 'toggleTodos', keys: ['ctrl+t'] },
  { action: 'newline', keys: ['shift+enter', 'ctrl+j'] },
  { action: 'pasteImage', keys: ['ctrl+v'] },
  { action: 'pageUp', keys: ['pageUp'] },
  { action: 'pageDown', keys: ['pageDown'] },
];

/**
 * A key as the rest of the UI should see it, or undefined to drop it. The terminal is asked for the
 * kitty keyboard protocol (modifyOtherKeys where it does not answer; pi-tui's ProcessTerminal does
 * both and restores the terminal on exit), so Shift-Enter arrives as `CSI 13;2u` or `CSI 27;2;13~`
 * and Ctrl-J as `CSI 106;5u`: both become the plain line feed the input box takes as a new line.
 * Key releases, which that protocol also reports, are dropped (a Ctrl-C release is no second Ctrl-C).
 */
export function normalizeKey(data: string): string | undefined {
  if (isKeyRelease(data)) return undefined;
  return actionOf(data) === 'newline' ? '\n' : data;
}

export function actionOf(data: string): Action | undefined {
  if (data === '\x1b\x1b' || matchesKey(data, 'alt+escape')) return 'doubleEscape';
  for (const b of BINDINGS) if (b.keys.some((k) => matchesKey(data, k))) return b.action;
  return undefined;
}

export const KEY_HELP: Array<[string, string]> = [
  ['Enter', 'send the message (queued while the agent works)'],
  ['Shift-Enter / Ctrl-J', 'new line'],
  ['↑ / ↓ (empty input)', "browse this folder's history"],
  ['Ctrl-S', 'steer: add the message to the running turn'],
  ['Esc / Ctrl-C', 'interrupt the agent at once'],
  ['Ctrl-O', 'expand / collapse tool output, thinking and compaction summaries'],
  ['Ctrl-T', 'expand / collapse the todo list'],
  ['Ctrl-G', 'edit the message in $VISUAL / $EDITOR'],
  ['Ctrl-V', 'paste an image from the clipboard (models with image input); a pasted image path attaches it too'],
  ['Shift-Tab', 'cycle manual → plan → yolo → auto (plan = plan mode on, permissions as before)'],
  ['Esc Esc (empty input)', 'withdraw recent prompts (undo selector; Rewind… puts files back too)'],
  ['/', 'command menu (Esc closes)'],
  ['@', 'complete a file path; @path attaches the file (text, image or folder listing)'],
  ['! (empty input)', 'shell mode: run a command; its output goes into the next message'],
  ['Ctrl-D (empty input)', 'exit; Ctrl-C twice also exits'],
  ['PgUp / PgDn (full screen)', 'scroll the conversation (/fullscreen)'],
  ['Approval panel', '↑/↓ move · Enter select · 1–4 pick · Esc reject · Ctrl-E expand the preview'],
  ['Plan review', '↑/↓ move · Enter select · 1–9 pick · Esc reject · PgUp/PgDn scroll · Ctrl-E expand the plan'],
  ['Questions', '↑/↓ move · Enter pick · Space toggle (multi) · ←/→ question · Esc dismiss'],
  [
    'Goal queue (/goal next manage)',
    '↑/↓ browse · Space pick up / put down · E edit · D delete · Enter save · Esc cancel',
  ],
];

export function helpLines(commands: readonly CommandInfo[]): string[] {
  const keyWidth = Math.max(...KEY_HELP.map(([k]) => k.length));
  const lines = ['Keys', ...KEY_HELP.map(([k, d]) => `  ${k.padEnd(keyWidth)}  ${d}`), '', 'Commands'];
  const names = commands.map(
    (c) => `/${c.name}${c.aliases.length ? ` (${c.aliases.map((a) => `/${a}`).join(', ')})` : ''}`,
  );
  const nameWidth = Math.max(...names.map((n) => n.length));
  commands.forEach((c, i) => lines.push(`  ${names[i].padEnd(nameWidth)}  ${c.description}`));
  return lines;
}

/**
 * Shift-Tab's cycle (docs/ui.md names Shift-Tab as the way into plan mode; the permission modes have
 * their own commands): manual → plan → yolo → auto → manual. "plan" is plan mode on top of the
 * permission mode the session had; leaving it goes on to yolo. Plan mode turned on by /plan in yolo or
 * auto is the plan stop too, so one press always leaves plan mode.
 */
export function nextCycleStop(
  mode: 'manual' | 'yolo' | 'auto',
  plan: boolean,
): { mode: 'manual' | 'yolo' | 'auto'; plan: boolean } {
  if (plan) return { mode: 'yolo', plan: false };
  if (mode === 'manual') return { mode: 'manual', plan: true };
  if (mode === 'yolo') return { mode: 'auto', plan: false };
  return { mode: 'manual', plan: false };
}
