// The rounded, focus-coloured frame every panel in the live region uses: both side borders on every
// row, content cut (with …) or wrapped to the space between them.
import { truncateToWidth, visibleWidth, wrapTextWithAnsi } from '@mariozechner/pi-tui';
import type { Theme } from '../theme';

export interface BoxWriter {
  /** Inner width for content (the frame takes two columns each side). */
  inner: number;
  /** One framed line; text wider than the inner width is cut with "…". */
  row(text: string): string;
  /** Wrapped framed lines. */
  wrapped(text: string, indent?: string): string[];
  /**
   * A numbered choice (`1. Approve once`), wrapped with its continuation lines under the label;
   * the active one is marked `❯` and highlighted. `detail` follows the label, dimmed.
   */
  option(active: boolean, label: string, detail?: string): string[];
  top(): string;
  bottom(): string;
}

export function boxWriter(theme: Theme, width: number): BoxWriter {
  const border = theme.fg.borderFocus;
  const inner = Math.max(1, width - 4);
  const row = (text: string): string => {
    const fitted = visibleWidth(text) > inner ? truncateToWidth(text, inner, '…') : text;
    return `${border('│')} ${fitted}${' '.repeat(Math.max(0, inner - visibleWidth(fitted)))} ${border('│')}`;
  };
  const wrapped = (text: string, indent = ''): string[] =>
    wrapTextWithAnsi(text, Math.max(1, inner - indent.length)).map((l) => row(indent + l));
  return {
    inner,
    row,
    wrapped,
    option(active, label, detail = '') {
      // Continuation lines start under the label's text, after the marker and the number (`❯ [x] 12. `).
      const hang = ' '.repeat(Math.min(Math.floor(inner / 2), 2 + (/^(?:\[.\] )?\d+\. /.exec(label)?.[0].length ?? 0)));
      const body = (active ? border(theme.bold(label)) : label) + detail;
      const lines = wrapTextWithAnsi(body, Math.max(1, inner - hang.length));
      const marker = active ? border(theme.bold('❯ ')) : '  ';
      return lines.map((l, i) => row((i === 0 ? marker : hang) + l));
    },
    top: () => border(`╭${'─'.repeat(Math.max(0, width - 2))}╮`),
    bottom: () => border(`╰${'─'.repeat(Math.max(0, width - 2))}╯`),
  };
}
