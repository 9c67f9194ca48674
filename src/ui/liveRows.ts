// The rows of the live region in the normal screen (screen.ts; docs/ui.md "Scrollback"). The terminal's reflow
// decides two things here. A terminal made narrower re-wraps every line longer than its new width and keeps only
// the last screenful of rows on the screen: whatever of the live region no longer fits is in the scrollback, as a
// stale copy nothing can erase. So the live region keeps room to be re-wrapped and stays at the bottom of the
// screen (`liveRows`): rows it gives up become blank rows at its top rather than blank rows below it, which the
// terminal would keep on the screen while pushing the live region's top into the scrollback.
import { visibleWidth, type Component } from '@mariozechner/pi-tui';

/**
 * A live region that says which of its lines may be left out when rows are short: `elastic` (the live
 * transcript: a streaming answer, running tools; drawn above `fixed`, its newest lines kept) and `fixed`
 * (panels, the input box, the footer).
 */
export interface LiveParts extends Component {
  renderParts(width: number): LiveLines;
}

export interface LiveLines {
  elastic: string[];
  fixed: string[];
}

export function hasParts(live: Component): live is LiveParts {
  return typeof (live as Partial<LiveParts>).renderParts === 'function';
}

/** Rows a line takes once the terminal is `width` columns wide (a terminal that re-wraps; others cut it). */
function rowsAt(line: string, width: number): number {
  return Math.max(1, Math.ceil(visibleWidth(line) / Math.max(1, width)));
}

/** Rows the live region drawn at `drawnWidth` takes after the terminal was resized to `width` columns. */
export function rowsAfterResize(drawn: readonly string[], drawnWidth: number, width: number): number {
  if (width >= drawnWidth) return drawn.length;
  let rows = 0;
  for (const line of drawn) rows += rowsAt(line, width);
  return rows;
}

/**
 * The region's rows on a screen of `height` rows: at least `reserved` rows (the rows it took on the screen), blank
 * rows at its top making up the difference, never more than `height` rows. Its lines, re-wrapped at half the
 * width (a line wider than that counts as two rows), must still fit on the screen: the live transcript shows only
 * as many of its newest lines as allow that, so a terminal narrowed to half its width pushes out at most the blank
 * rows. Panels, the input box and the footer are never left out for this; the live transcript is whole in the
 * scrollback once it is finished.
 */
export function liveRows(parts: LiveLines, reserved: number, width: number, height: number): string[] {
  const max = Math.max(1, height);
  const half = Math.ceil(width / 2);
  let room = max;
  for (const line of parts.fixed) room -= rowsAt(line, half);
  let shown = 0;
  while (shown < parts.elastic.length) {
    const cost = rowsAt(parts.elastic[parts.elastic.length - 1 - shown], half);
    if (cost > room) break;
    room -= cost;
    shown++;
  }
  const elastic = shown === parts.elastic.length ? parts.elastic : parts.elastic.slice(parts.elastic.length - shown);
  const pad = Math.max(0, Math.min(reserved, max) - elastic.length - parts.fixed.length);
  const rows = [...Array<string>(pad).fill(''), ...elastic, ...parts.fixed];
  return rows.length > max ? rows.slice(rows.length - max) : rows;
}
