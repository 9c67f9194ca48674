// `/goal next manage` (docs/plan-goals-context.md): the queue of upcoming goals in a panel. ↑/↓ browse;
// Space picks the goal up, ↑/↓ then move it, Space or Enter puts it down; E edits it in a text field
// (Shift-Enter / Ctrl-J new line, Enter keeps the edit, Esc drops it); D deletes it; Enter saves the
// queue and closes; Esc closes without saving.
import { Editor, matchesKey, type Component, type TUI } from '@mariozechner/pi-tui';
import type { Theme } from '../theme';
import { boxWriter } from './box';
import { selectListTheme } from './selectDialog';

export interface GoalQueuePanelOptions {
  goals: readonly string[];
  /** Saves the edited queue; a message when it cannot (the panel stays open and shows it). */
  onSave(goals: string[]): string | undefined;
  onClose(): void;
  /** The terminal, for the edit field's height and redraws. */
  terminal: { readonly rows: number; readonly columns: number };
  requestRender(): void;
}

type Mode = { kind: 'browse' } | { kind: 'move' } | { kind: 'edit'; field: Editor };

const VISIBLE = 10;

export class GoalQueuePanel implements Component {
  readonly goals: string[];
  selected = 0;
  private mode: Mode = { kind: 'browse' };
  private problem: string | undefined;

  constructor(
    private readonly theme: Theme,
    private readonly opts: GoalQueuePanelOptions,
  ) {
    this.goals = [...opts.goals];
  }

  get moving(): boolean {
    return this.mode.kind === 'move';
  }

  get editing(): boolean {
    return this.mode.kind === 'edit';
  }

  handleInput(data: string): void {
    this.problem = undefined;
    if (this.mode.kind === 'edit') return this.editInput(this.mode.field, data);
    const up = matchesKey(data, 'up');
    const down = matchesKey(data, 'down');
    if (this.mode.kind === 'move') {
      if (up || down) this.move(up ? -1 : 1);
      else if (data === ' ' || matchesKey(data, 'enter') || matchesKey(data, 'escape')) this.mode = { kind: 'browse' };
      return;
    }
    if (up) this.selected = Math.max(0, this.selected - 1);
    else if (down) this.selected = Math.min(this.goals.length - 1, this.selected + 1);
    else if (data === ' ' && this.goals.length > 1) this.mode = { kind: 'move' };
    else if ((data === 'e' || data === 'E') && this.goals.length) this.startEdit();
    else if ((data === 'd' || data === 'D' || matchesKey(data, 'delete')) && this.goals.length) {
      this.goals.splice(this.selected, 1);
      this.selected = Math.max(0, Math.min(this.selected, this.goals.length - 1));
    } else if (matchesKey(data, 'enter')) {
      this.problem = this.opts.onSave([...this.goals]);
      if (!this.problem) this.opts.onClose();
    } else if (matchesKey(data, 'escape') || matchesKey(data, 'ctrl+c')) this.opts.onClose();
  }

  private move(by: -1 | 1): void {
    const to = this.selected + by;
    if (to < 0 || to >= this.goals.length) return;
    [this.goals[this.selected], this.goals[to]] = [this.goals[to], this.goals[this.selected]];
    this.selected = to;
  }

  private startEdit(): void {
    const host = { terminal: this.opts.terminal, requestRender: () => this.opts.requestRender() } as unknown as TUI;
    const field = new Editor(host, { borderColor: this.theme.fg.borderFocus, selectList: selectListTheme(this.theme) });
    field.focused = true;
    field.setText(this.goals[this.selected]);
    field.onSubmit = (text) => {
      if (!text.trim()) {
        this.problem = 'A goal cannot be empty: press Esc to keep it as it was, or D to delete it.';
        return;
      }
      this.goals[this.selected] = text.trim();
      this.mode = { kind: 'browse' };
    };
    this.mode = { kind: 'edit', field };
  }

  private editInput(field: Editor, data: string): void {
    if (matchesKey(data, 'escape')) this.mode = { kind: 'browse' };
    else field.handleInput(data);
  }

  invalidate(): void {}

  render(width: number): string[] {
    const { fg } = this.theme;
    const box = boxWriter(this.theme, width);
    const lines = [
      box.top(),
      box.row(
        this.theme.bold('Upcoming goals') +
          fg.textMuted(` (${this.goals.length}; the first starts when the current goal completes)`),
      ),
    ];
    if (!this.goals.length)
      lines.push(box.row(fg.textMuted('No upcoming goals. Enter saves the empty queue; Esc keeps it as it was.')));
    const first = Math.max(0, Math.min(this.selected - Math.floor(VISIBLE / 2), this.goals.length - VISIBLE));
    this.goals.slice(first, first + VISIBLE).forEach((goal, i) => {
      const index = first + i;
      const active = index === this.selected;
      const mark = active && this.mode.kind === 'move' ? '↕ ' : '';
      const label = `${index + 1}. ${mark}${goal.split('\n')[0]}${goal.includes('\n') ? ' …' : ''}`;
      lines.push(...box.option(active, label));
    });
    if (this.goals.length > VISIBLE)
      lines.push(
        box.row(fg.textMuted(`(${first + 1}–${Math.min(first + VISIBLE, this.goals.length)} of ${this.goals.length})`)),
      );
    if (this.mode.kind === 'edit') {
      lines.push(box.row(''), box.row(`Edit goal ${this.selected + 1}:`));
      for (const l of this.mode.field.render(box.inner)) lines.push(box.row(l));
    }
    if (this.problem) lines.push(...box.wrapped(fg.error(this.problem)));
    const help =
      this.mode.kind === 'edit'
        ? 'Enter keep the edit · Shift-Enter / Ctrl-J new line · Esc drop the edit'
        : this.mode.kind === 'move'
          ? '↑/↓ move the goal · Space / Enter put it down'
          : '↑/↓ browse · Space pick up to move · E edit · D delete · Enter save · Esc cancel';
    lines.push(...box.wrapped(fg.textMuted(help)), box.bottom());
    return lines;
  }
}
