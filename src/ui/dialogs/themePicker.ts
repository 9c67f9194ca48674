// The /theme picker (docs/ui.md "Themes"): moving the selection previews that theme on the whole
// screen (the caller restyles the transcript and footer); Enter keeps it, Esc puts the previous one back.
// The picker draws itself in whatever theme is current, so it changes with the preview.
import { matchesKey, SelectList, type Component } from '@mariozechner/pi-tui';
import type { Theme, ThemeChoice } from '../theme';
import { boxWriter } from './box';
import { liveSelectListTheme } from './selectDialog';

export interface ThemePickerOptions {
  choices: ThemeChoice[];
  /** The theme in use when the picker opened (selected first). */
  current: string;
  theme(): Theme;
  preview(name: string): void;
  keep(name: string): void;
  cancel(): void;
}

export class ThemePicker implements Component {
  private readonly list: SelectList;

  constructor(private readonly opts: ThemePickerOptions) {
    const items = opts.choices.map((c) => ({ value: c.name, label: c.label, description: c.description }));
    this.list = new SelectList(items, 10, liveSelectListTheme(opts.theme), {
      minPrimaryColumnWidth: 12,
      maxPrimaryColumnWidth: 40,
    });
    const at = opts.choices.findIndex((c) => c.name === opts.current);
    if (at > 0) this.list.setSelectedIndex(at);
    this.list.onSelectionChange = (item) => opts.preview(item.value);
    this.list.onSelect = (item) => opts.keep(item.value);
  }

  handleInput(data: string): void {
    if (matchesKey(data, 'escape') || matchesKey(data, 'ctrl+c')) return this.opts.cancel();
    this.list.handleInput(data);
  }

  invalidate(): void {
    this.list.invalidate();
  }

  render(width: number): string[] {
    const theme = this.opts.theme();
    const box = boxWriter(theme, width);
    const lines = [box.top(), box.row(theme.bold('Theme'))];
    for (const l of this.list.render(box.inner)) lines.push(box.row(l));
    lines.push(box.row(theme.fg.textMuted('↑/↓ preview · Enter keep (saved to tui.toml) · Esc restore')));
    lines.push(box.bottom());
    return lines;
  }
}
