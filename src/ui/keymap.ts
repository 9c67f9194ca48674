// The UI's key bindings in one place: what each key does, and the help text built from it.
import { matchesKey, type KeyId } from '@mariozechner/pi-tui';
import type { CommandInfo } from './completion';

export type Action =
  | 'interrupt' // Esc / Ctrl-C while the agent works
  | 'ctrlC'
  | 'ctrlD'
  | 'escape'
  | 'steer'
  | 'toggleExpand'
  | 'externalEditor'
  | 'cycleMode';

const BINDINGS: Array<{ action: Action; keys: KeyId[] }> = [
  { action: 'ctrlC', keys: ['ctrl+c'] },
  { action: 'ctrlD', keys: ['ctrl+d'] },
  { action: 'escape', keys: ['escape'] },
  { action: 'steer', keys: ['ctrl+s'] },
  { action: 'toggleExpand', keys: ['ctrl+o'] },
  { action: 'externalEditor', keys: ['ctrl+g'] },
  { action: 'cycleMode', keys: ['shift+tab'] },
];

export function actionOf(data: string): Action | undefined {
  for (const b of BINDINGS) if (b.keys.some((k) => matchesKey(data, k))) return b.action;
  return undefined;
}

export const KEY_HELP: Array<[string, string]> = [
  ['Enter', 'send the message (queued while the agent works)'],
  ['Shift-Enter / Ctrl-J', 'new line'],
  ['↑ / ↓ (empty input)', 'browse this folder\'s history'],
  ['Ctrl-S', 'steer: add the message to the running turn'],
  ['Esc / Ctrl-C', 'interrupt the agent at once'],
  ['Ctrl-O', 'expand / collapse tool output and thinking'],
  ['Ctrl-G', 'edit the message in $VISUAL / $EDITOR'],
  ['Shift-Tab', 'cycle permission mode: manual → yolo → auto'],
  ['/', 'command menu (Esc closes)'],
  ['@', 'complete a file path'],
  ['! (empty input)', 'shell mode: run a command; its output goes into the next message'],
  ['Ctrl-D (empty input)', 'exit; Ctrl-C twice also exits'],
  ['Approval panel', '↑/↓ move · Enter select · 1–4 pick · Esc reject · Ctrl-E expand the preview'],
];

export function helpLines(commands: readonly CommandInfo[]): string[] {
  const keyWidth = Math.max(...KEY_HELP.map(([k]) => k.length));
  const lines = ['Keys', ...KEY_HELP.map(([k, d]) => `  ${k.padEnd(keyWidth)}  ${d}`), '', 'Commands'];
  const names = commands.map((c) => `/${c.name}${c.aliases.length ? ` (${c.aliases.map((a) => `/${a}`).join(', ')})` : ''}`);
  const nameWidth = Math.max(...names.map((n) => n.length));
  commands.forEach((c, i) => lines.push(`  ${names[i].padEnd(nameWidth)}  ${c.description}`));
  return lines;
}
