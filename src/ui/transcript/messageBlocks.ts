// Conversation blocks: the user's prompts, the assistant's Markdown, thinking, notices.
import { truncateToWidth, wrapTextWithAnsi, type Markdown } from '@mariozechner/pi-tui';
import { renderLatex } from '../latex';
import { markdownView } from '../markdown';
import { Block, clipLines, type ViewState } from './block';

export type UserKind = 'prompt' | 'steer' | 'shell';

export class UserBlock extends Block {
  /** `chips`: the prompt's attachments, shown compactly (`[@src/x.ts 120 lines]`) instead of their content. */
  constructor(
    view: ViewState,
    private readonly text: string,
    private readonly kind: UserKind = 'prompt',
    private readonly chips: readonly string[] = [],
  ) {
    super(view);
    this.done = true;
  }

  protected build(width: number): string[] {
    const { fg } = this.view.theme;
    const color = this.kind === 'shell' ? fg.shellMode : fg.roleUser;
    const mark = this.kind === 'shell' ? '! ' : this.kind === 'steer' ? '» ' : '> ';
    const tag = this.kind === 'steer' ? fg.textMuted(' (steer)') : '';
    const body = wrapTextWithAnsi(this.text, Math.max(1, width - 2));
    const lines = [
      '',
      ...body.map(
        (line, i) =>
          (i === 0 ? color(mark) : '  ') + this.view.theme.bold(color(line)) + (i === body.length - 1 ? tag : ''),
      ),
    ];
    if (this.chips.length)
      lines.push(
        ...wrapTextWithAnsi(this.chips.join(' '), Math.max(1, width - 2)).map((line) => `  ${fg.textDim(line)}`),
      );
    return lines;
  }
}

/**
 * The Markdown renderer pads every line with spaces to the full width. The screen clears each line
 * before writing it, so the padding only costs memory: a long transcript keeps every line.
 */
export function trimPadding(line: string): string {
  return line.endsWith(' ') || line.endsWith('m') ? line.replace(/ +((?:\x1b\[[0-9;]*m)*)$/, '$1') : line;
}

export class AssistantBlock extends Block {
  private md: Markdown | undefined;
  /** What `md` was made with: a theme switch or a `render_latex` change makes it again. */
  private mdTheme: ViewState['theme'] | undefined;
  private mdSource = '';
  private text: string;

  constructor(view: ViewState, text: string) {
    super(view);
    this.text = text;
  }

  setText(text: string): void {
    if (text === this.text) return;
    this.text = text;
    this.changed();
  }

  protected build(width: number): string[] {
    if (!this.text.trim()) return [];
    const source = this.view.renderLatex === false ? this.text : renderLatex(this.text);
    if (!this.md || this.mdTheme !== this.view.theme) {
      this.md = markdownView(source, this.view.theme);
      this.mdTheme = this.view.theme;
    } else if (source !== this.mdSource) this.md.setText(source);
    this.mdSource = source;
    this.md.invalidate();
    const lines = this.md.render(width);
    // A finished block keeps only its lines (the Block cache); the renderer, with its own copy of
    // them, is made again on the rare re-render (resize, Ctrl-O). Long transcripts keep less per turn.
    if (this.done) this.md = undefined;
    return ['', ...lines.map(trimPadding)];
  }
}

export class ThinkingBlock extends Block {
  private text = '';
  private readonly started = Date.now();
  private finishedMs: number | undefined;

  constructor(view: ViewState, text = '') {
    super(view);
    this.text = text;
  }

  append(delta: string): void {
    this.text += delta;
    this.changed();
  }

  finish(): void {
    if (this.done) return;
    this.finishedMs = Date.now() - this.started;
    this.done = true;
    this.changed();
  }

  get empty(): boolean {
    return !this.text.trim();
  }

  protected build(width: number): string[] {
    if (this.empty) return [];
    const { fg } = this.view.theme;
    const secs = this.finishedMs !== undefined ? ` for ${Math.max(1, Math.round(this.finishedMs / 1000))}s` : '';
    const head = fg.textDim(this.done ? `✻ Thought${secs}` : '✻ Thinking…');
    const body = markdownView(this.text.trim(), this.view.theme, { dim: true }).render(width);
    if (this.view.expanded) return ['', head, ...body];
    if (this.done) return ['', head + fg.textMuted(' (ctrl+o to expand)')];
    return ['', head, ...body.slice(-3)];
  }
}

export type NoticeLevel = 'info' | 'warning' | 'error' | 'success';

export class NoticeBlock extends Block {
  constructor(
    view: ViewState,
    private readonly level: NoticeLevel,
    private readonly text: string,
    private readonly hint?: string,
  ) {
    super(view);
    this.done = true;
  }

  protected build(width: number): string[] {
    const { fg } = this.view.theme;
    const style = { info: fg.textDim, warning: fg.warning, error: fg.error, success: fg.success }[this.level];
    const icon = { info: '•', warning: '⚠', error: '✗', success: '✓' }[this.level];
    const lines = wrapTextWithAnsi(this.text, Math.max(1, width - 2)).map((l, i) =>
      style(`${i === 0 ? icon : ' '} ${l}`),
    );
    const hint = this.hint
      ? wrapTextWithAnsi(this.hint, Math.max(1, width - 2)).map((l) => fg.textMuted(`  ${l}`))
      : [];
    return ['', ...clipLines(lines, this.view.expanded ? 10_000 : 20, this.view.theme), ...hint];
  }
}

/** A provider retry: one line, never wrapped — what happens next, then the error's first line, cut to fit. */
export class RetryNoticeBlock extends Block {
  constructor(
    view: ViewState,
    private readonly next: string,
    private readonly error: string,
  ) {
    super(view);
    this.done = true;
  }

  protected build(width: number): string[] {
    return [
      truncateToWidth(
        this.view.theme.fg.warning(`⚠ ${this.next}: ${this.error.split('\n')[0].trim()}`),
        Math.max(1, width),
        '…',
      ),
    ];
  }
}

/** A pre-rendered set of lines (the welcome banner, help text). */
export class LinesBlock extends Block {
  constructor(
    view: ViewState,
    private readonly make: (width: number) => string[],
  ) {
    super(view);
    this.done = true;
  }

  protected build(width: number): string[] {
    return this.make(width);
  }
}
