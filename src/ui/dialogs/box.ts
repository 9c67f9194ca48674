// The rounded, focus-coloured frame every panel in the live region uses.
import { truncateToWidth, wrapTextWithAnsi } from '@mariozechner/pi-tui';
import type { Theme } from '../theme';

export interface BoxWriter {
  /** Inner width for content (the frame takes two columns each side). */
  inner: number;
  /** One framed line, truncated to the width. */
  row(text: string): string;
  /** Wrapped framed lines. */
  wrapped(text: string, indent?: string): string[];
  top(): string;
  bottom(): string;
}

export function boxWriter(theme: Theme, width: number): BoxWriter {
  const border = theme.fg.borderFocus;
  const inner = Math.max(10, width - 4);
  const row = (text: string) => truncateToWidth(`${border('│')} ${text}`, width);
  return {
    inner,
    row,
    wrapped: (text, indent = '') => wrapTextWithAnsi(text, Math.max(1, inner - indent.length)).map((l) => row(indent + l)),
    top: () => border(`╭${'─'.repeat(Math.max(0, width - 2))}╮`),
    bottom: () => border(`╰${'─'.repeat(Math.max(0, width - 2))}╯`),
  };
}
