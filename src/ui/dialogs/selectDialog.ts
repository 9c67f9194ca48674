// A titled pick list in the live region: sessions, models, permission modes, the trust prompt.
// ↑/↓ move, PgUp/PgDn move by the rows the list shows, Enter picks, 1–9 pick by number, Esc cancels (unless the
// dialog must be answered).
import { matchesKey, SelectList, type Component, type SelectItem, type SelectListTheme } from '@mariozechner/pi-tui';
import type { Theme } from '../theme';
import { boxWriter } from './box';

export interface SelectDialogOptions {
  title: string;
  body?: string[];
  items: SelectItem[];
  initialIndex?: number;
  onSelect(value: string): void;
  /** Omitted: Esc picks nothing and the dialog stays (a question that must be answered). */
  onCancel?(): void;
  maxVisible?: number;
}

export function selectListTheme(theme: Theme): SelectListTheme {
  const { fg } = theme;
  return {
    selectedPrefix: (t) => fg.borderFocus(t),
    selectedText: (t) => theme.bold(fg.borderFocus(t)),
    description: (t) => fg.textDim(t),
    scrollInfo: (t) => fg.textMuted(t),
    noMatch: (t) => fg.textMuted(t),
  };
}

/** A list theme that follows the current theme (the input box's completion menu, the theme picker). */
export function liveSelectListTheme(theme: () => Theme): SelectListTheme {
  return {
    selectedPrefix: (t) => selectListTheme(theme()).selectedPrefix(t),
    selectedText: (t) => selectListTheme(theme()).selectedText(t),
    description: (t) => selectListTheme(theme()).description(t),
    scrollInfo: (t) => selectListTheme(theme()).scrollInfo(t),
    noMatch: (t) => selectListTheme(theme()).noMatch(t),
  };
}

export class SelectDialog implements Component {
  private readonly list: SelectList;

  constructor(
    private readonly theme: Theme,
    private readonly opts: SelectDialogOptions,
  ) {
    this.list = new SelectList(opts.items, this.page(), selectListTheme(theme), {
      minPrimaryColumnWidth: 12,
      maxPrimaryColumnWidth: 60,
    });
    if (opts.initialIndex) this.list.setSelectedIndex(opts.initialIndex);
    this.list.onSelect = (item) => opts.onSelect(item.value);
  }

  handleInput(data: string): void {
    if (matchesKey(data, 'escape') || matchesKey(data, 'ctrl+c')) {
      this.opts.onCancel?.();
      return;
    }
    if (/^[1-9]$/.test(data) && Number(data) <= this.opts.items.length) {
      this.opts.onSelect(this.opts.items[Number(data) - 1].value);
      return;
    }
    if (matchesKey(data, 'pageUp') || matchesKey(data, 'pageDown')) {
      const selected = this.list.getSelectedItem();
      const at = selected ? this.opts.items.indexOf(selected) : 0;
      this.list.setSelectedIndex(at + (matchesKey(data, 'pageUp') ? -1 : 1) * this.page());
      return;
    }
    this.list.handleInput(data);
  }

  /** Rows of the list shown at once: a page for PgUp/PgDn. */
  private page(): number {
    return this.opts.maxVisible ?? 10;
  }

  invalidate(): void {
    this.list.invalidate();
  }

  render(width: number): string[] {
    const { fg } = this.theme;
    const box = boxWriter(this.theme, width);
    const lines = [box.top(), ...box.wrapped(this.theme.bold(this.opts.title))];
    for (const b of this.opts.body ?? []) lines.push(...box.wrapped(b));
    if (this.opts.body?.length) lines.push(box.row(''));
    for (const l of this.list.render(box.inner)) lines.push(box.row(l));
    const cancel = this.opts.onCancel ? ' · Esc cancel' : '';
    lines.push(...box.wrapped(fg.textMuted(`↑/↓ move · Enter select · 1–9 pick${cancel}`)));
    lines.push(box.bottom());
    return lines;
  }
}

/** A scrollable text popup (/help): ↑/↓ one row, PageUp/PageDown the rows it shows, Esc/Enter/q closes. */
export class TextPopup implements Component {
  private offset = 0;
  /** Screen rows of the last render (lines wrap at the width the popup was drawn at). */
  private rowCount: number;
  /** Rows of the frame, title and key hint at the last render's width. */
  private chromeRows = 4;

  constructor(
    private readonly theme: Theme,
    private readonly title: string,
    private readonly lines: string[],
    private readonly onClose: () => void,
    private readonly height: () => number,
  ) {
    this.rowCount = lines.length;
  }

  handleInput(data: string): void {
    if (
      matchesKey(data, 'escape') ||
      matchesKey(data, 'enter') ||
      data === 'q' ||
      data === 'Q' ||
      matchesKey(data, 'ctrl+c')
    )
      this.onClose();
    else if (matchesKey(data, 'up')) this.offset = Math.max(0, this.offset - 1);
    else if (matchesKey(data, 'down')) this.offset = Math.min(this.maxOffset(), this.offset + 1);
    else if (matchesKey(data, 'pageUp')) this.offset = Math.max(0, this.offset - this.visible());
    else if (matchesKey(data, 'pageDown')) this.offset = Math.min(this.maxOffset(), this.offset + this.visible());
  }

  private visible(): number {
    return Math.max(3, this.height() - 4 - this.chromeRows);
  }

  private maxOffset(): number {
    return Math.max(0, this.rowCount - this.visible());
  }

  invalidate(): void {}

  render(width: number): string[] {
    const { fg } = this.theme;
    const box = boxWriter(this.theme, width);
    // Long lines wrap instead of being cut (docs/ui.md "Panels"); scrolling counts screen rows.
    const rows = this.lines.flatMap((l) => box.hanging(l));
    const foot = box.wrapped(fg.textMuted('↑/↓ scroll · PgUp/PgDn page · Esc/Enter/q close'));
    this.chromeRows = 2 + box.wrapped(this.theme.bold(this.title)).length + foot.length;
    this.rowCount = rows.length;
    this.offset = Math.min(this.offset, this.maxOffset());
    const shown = rows.slice(this.offset, this.offset + this.visible());
    const more =
      rows.length > this.visible() ? ` (${this.offset + 1}–${this.offset + shown.length} of ${rows.length})` : '';
    return [
      box.top(),
      ...box.wrapped(this.theme.bold(this.title) + fg.textMuted(more)),
      ...shown,
      ...foot,
      box.bottom(),
    ];
  }
}
