// The todo list (TodoList tool, docs/tools.md) above the input box: a compact view of the latest list,
// at most COLLAPSED_TODOS items around the one in progress; Ctrl-T shows all of them.
import { truncateToWidth, type Component } from '@mariozechner/pi-tui';
import type { TodoItem } from '../tools/todo/todoService';
import type { Theme } from './theme';

export const COLLAPSED_TODOS = 5;

export interface TodoPanelState {
  todos: readonly TodoItem[];
  expanded: boolean;
  /** A finished list is only shown while the agent works. */
  busy: boolean;
}

/** Which items a collapsed list shows: a window that starts just before the first unfinished one. */
export function todoWindow(todos: readonly TodoItem[], max: number): { start: number; end: number } {
  if (todos.length <= max) return { start: 0, end: todos.length };
  let focus = todos.findIndex((t) => t.status === 'in_progress');
  if (focus < 0) focus = todos.findIndex((t) => t.status === 'pending');
  if (focus < 0) focus = todos.length - 1;
  const start = Math.max(0, Math.min(focus - 1, todos.length - max));
  return { start, end: start + max };
}

export class TodoPanel implements Component {
  constructor(
    private readonly theme: () => Theme,
    private readonly state: () => TodoPanelState,
  ) {}

  invalidate(): void {}

  render(width: number): string[] {
    const { todos, expanded, busy } = this.state();
    if (!todos.length) return [];
    const done = todos.filter((t) => t.status === 'done').length;
    if (done === todos.length && !busy) return [];
    const theme = this.theme();
    const { fg } = theme;
    const out = [
      '',
      truncateToWidth(`${theme.bold(fg.primary('Todos'))} ${fg.textDim(`${done}/${todos.length} done`)}`, width),
    ];
    const { start, end } = expanded ? { start: 0, end: todos.length } : todoWindow(todos, COLLAPSED_TODOS);
    if (start > 0) out.push(fg.textMuted(`  … ${start} earlier`));
    for (const t of todos.slice(start, end)) {
      const line =
        t.status === 'done'
          ? fg.success('  ✓ ') + theme.strike(fg.textDim(t.title))
          : t.status === 'in_progress'
            ? fg.warning('  ◐ ') + theme.bold(fg.text(t.title))
            : fg.textDim('  ○ ') + fg.text(t.title);
      out.push(truncateToWidth(line, width));
    }
    if (end < todos.length) out.push(fg.textMuted(`  … ${todos.length - end} more (ctrl+t to expand)`));
    else if (expanded && todos.length > COLLAPSED_TODOS) out.push(fg.textMuted('  (ctrl+t to collapse)'));
    return out;
  }
}
