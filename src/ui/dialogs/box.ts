// The rounded, focus-coloured frame every panel in the live region uses: a rule above and below and a border on
// the left of every row, content cut (with …) or wrapped to the inner width. Text meant to be read in full (the
// /help and /mcp popups) wraps with continuation lines under its text column (docs/ui.md "Panels").
// The frame is open on the right and a row is only as long as its text, never reaching the last two columns: a
// terminal made narrower re-wraps only the rows longer than its new width, so a panel keeps (nearly) its height
// and stays on the screen instead of being pushed into the scrollback as a stale copy (docs/ui.md "Scrollback").
import { truncateToWidth, visibleWidth, wrapTextWithAnsi } from '@mariozechner/pi-tui';
import type { Theme } from '../theme';

export interface BoxWriter {
  /** Inner width for content (the border and a space on the left, two free columns on the right). */
  inner: number;
  /** One framed line (trailing blanks dropped); text wider than the inner width is cut with "…". */
  row(text: string): string;
  /** Wrapped framed lines. */
  wrapped(text: string, indent?: string): string[];
  /**
   * Wrapped framed lines whose continuations start under the text column: after the first run of two
   * or more spaces (`  /help  keys and commands`), else under the leading indent. Words are split only
   * when longer than the row.
   */
  hanging(text: string): string[];
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
    return `${border('│')} ${fitted}`.replace(/ +$/, '');
  };
  const wrapped = (text: string, indent = ''): string[] =>
    wrapTextWithAnsi(text, Math.max(1, inner - indent.length)).map((l) => row(indent + l));
  return {
    inner,
    row,
    wrapped,
    hanging: (text) => hangingLines(text, inner).map(row),
    option(active, label, detail = '') {
      // Continuation lines start under the label's text, after the marker and the number (`❯ [x] 12. `).
      const hang = ' '.repeat(Math.min(Math.floor(inner / 2), 2 + (/^(?:\[.\] )?\d+\. /.exec(label)?.[0].length ?? 0)));
      const body = (active ? border(theme.bold(label)) : label) + detail;
      const lines = wrapTextWithAnsi(body, Math.max(1, inner - hang.length));
      const marker = active ? border(theme.bold('❯ ')) : '  ';
      return lines.map((l, i) => row((i === 0 ? marker : hang) + l));
    },
    top: () => border(`╭${'─'.repeat(Math.max(0, width - 3))}`),
    bottom: () => border(`╰${'─'.repeat(Math.max(0, width - 3))}`),
  };
}

/** Columns kept for the wrapped text: a text column further right than this hangs under the indent. */
const MIN_TEXT_COLUMNS = 20;
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/y;

/** `text` split after `column` visible columns, escape sequences kept with the part they precede. */
function splitAtColumn(text: string, column: number): [string, string] {
  let i = 0;
  let seen = 0;
  while (i < text.length && seen < column) {
    ANSI.lastIndex = i;
    const escape = ANSI.exec(text);
    if (escape) {
      i += escape[0].length;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i) ?? 0);
    seen += visibleWidth(ch);
    i += ch.length;
  }
  return [text.slice(0, i), text.slice(i)];
}

/** The rows of `text` wrapped to `width` columns with a hanging indent (see BoxWriter.hanging). */
export function hangingLines(text: string, width: number): string[] {
  if (visibleWidth(text) <= width) return [text];
  const plain = text.replace(new RegExp(ANSI.source, 'g'), '');
  const lead = /^\s*/.exec(plain)?.[0].length ?? 0;
  const column = /^\s*\S.*?\s{2,}(?=\S)/.exec(plain)?.[0].length;
  const fitsColumn = column !== undefined && column <= width - MIN_TEXT_COLUMNS;
  const split = fitsColumn ? column : Math.min(lead, Math.max(0, width - MIN_TEXT_COLUMNS));
  const hang = fitsColumn ? column : Math.min(lead + 2, Math.max(0, width - MIN_TEXT_COLUMNS));
  const [head, body] = splitAtColumn(text, split);
  const rest = wrapTextWithAnsi(body, Math.max(1, width - hang));
  return rest.map((line, i) => (i === 0 ? head + line : ' '.repeat(hang) + line));
}
