// A transcript block: one entry of the conversation view (a message, a tool card, a notice). Blocks
// cache their lines per width and view version, so a frame re-renders only what changed.
import type { Component } from '@mariozechner/pi-tui';
import type { Theme } from '../theme';

/** Shared by every block: the theme and the global Ctrl-O expansion state. */
export interface ViewState {
  theme: Theme;
  expanded: boolean;
  cwd: string;
  /** tui.toml `render_latex` (absent: on): answers show `$…$` formulas as Unicode. */
  renderLatex?: boolean;
}

/** A number per theme object: a reloaded theme file with the same name still re-renders every block. */
const themeIds = new WeakMap<Theme, number>();
let nextThemeId = 0;

function themeId(theme: Theme): number {
  let id = themeIds.get(theme);
  if (id === undefined) themeIds.set(theme, (id = nextThemeId++));
  return id;
}

export abstract class Block implements Component {
  private cacheWidth = -1;
  private cacheKey = '';
  private cache: string[] = [];
  /** Bumped by subclasses whenever their content changes. */
  protected version = 0;
  /** Finished blocks move from the live region to the scrollback. */
  done = false;

  constructor(protected readonly view: ViewState) {}

  protected abstract build(width: number): string[];

  protected changed(): void {
    this.version++;
  }

  render(width: number): string[] {
    const key = `${this.version}:${this.view.expanded ? 1 : 0}:${themeId(this.view.theme)}:${this.view.renderLatex === false ? 0 : 1}`;
    if (width !== this.cacheWidth || key !== this.cacheKey) {
      this.cache = this.build(width);
      this.cacheWidth = width;
      this.cacheKey = key;
    }
    return this.cache;
  }

  invalidate(): void {
    this.cacheWidth = -1;
  }
}

/** Keeps the first `max` lines and says how many more there are. */
export function clipLines(lines: string[], max: number, theme: Theme, what = 'lines'): string[] {
  if (lines.length <= max) return lines;
  const more = lines.length - max;
  const noun = more === 1 ? what.replace(/s$/, '') : what;
  return [...lines.slice(0, max), theme.fg.textMuted(`  … ${more} more ${noun} (ctrl+o to expand)`)];
}

/** Keeps the last `max` lines (live output: the newest matters). */
export function tailLines(lines: string[], max: number, theme: Theme): string[] {
  if (lines.length <= max) return lines;
  return [theme.fg.textMuted(`  … ${lines.length - max} earlier lines`), ...lines.slice(-max)];
}
