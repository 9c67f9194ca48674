// The screen: finished transcript output goes to the terminal's own scrollback, written once; only
// the live region at the bottom (streaming text, running tools, panels, input, footer) is redrawn,
// differentially (from the first changed line down) and inside a synchronized-output block. A frame
// therefore costs the size of the live region, not of the transcript. Nothing is drawn unless
// something asked for it: no timers run while the UI is idle.
// Full-screen mode (docs/ui.md "Full-screen mode") draws on the terminal's alternate screen instead: the
// transcript in a scrollable viewport above the same live region, each frame rewriting only the rows
// that changed. Lines finished meanwhile are kept for the normal screen, where they land on leaving.
// The terminal's scrollback belongs to the user (docs/ui.md "Scrollback"): nothing here ever clears it or the
// screen above the live region. A resize redraws only the live region (the terminal reflows what is above);
// a reprint (Ctrl-O, a theme change) appends the re-rendered transcript below what is already there.
// Between frames the (hidden) cursor rests on the first column of the live region's first row. A terminal that
// re-wraps its lines on a resize carries the cursor along with the text, so after any resize the live region
// starts exactly where the cursor is: no row arithmetic that a terminal's own reflow rules could prove wrong.
import { CURSOR_MARKER, truncateToWidth, visibleWidth, type Component } from '@mariozechner/pi-tui';
import {
  ENTER_ALTERNATE_SCREEN,
  guardAlternateScreen,
  LEAVE_ALTERNATE_SCREEN,
  setAlternateScreenActive,
} from '../platform/terminalModes';
import { hasParts, liveRows, rowsAfterResize } from './liveRows';

export interface ScreenTerminal {
  write(data: string): void;
  readonly columns: number;
  readonly rows: number;
}

const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
const LINE_RESET = '\x1b[0m';
/**
 * Erases from the cursor's row (at column 0) to the end of the screen without ever erasing from the screen's
 * home position: tmux (`scroll-on-clear`) and some terminals move a screen erased from there into the scrollback,
 * which would leave a copy of the live region behind. The erase starts at column 1, then the row's first cell.
 */
const ERASE_DOWN_FROM_ROW = '\x1b[2G\x1b[J\r\x1b[K';
/**
 * The live region is written with the terminal's line wrap off: should the terminal have become narrower since the
 * size was read, a line is cut at the edge instead of taking a second row, so the way back to the first row stays
 * right and the cursor stays where the next frame (and the terminal's reflow) expects it.
 */
const WRAP_OFF = '\x1b[?7l';
const WRAP_ON = '\x1b[?7h';
/** Live frames are at most this often; a request inside the window is folded into the next frame. */
export const MIN_FRAME_INTERVAL_MS = 16;

export interface FrameStats {
  frames: number;
  /** Total time spent building and diffing frames, ms. */
  frameMs: number;
  fullReprints: number;
}

export class Screen {
  /** Lines of the live region as last drawn. */
  private drawn: string[] = [];
  private pendingScrollback: string[] = [];
  private scheduled: ReturnType<typeof setTimeout> | undefined;
  private lastFrameAt = 0;
  private stopped = false;
  private lastWidth = 0;
  /** The size the live region was drawn at: after a resize it is drawn again from its first row (the cursor). */
  private drawnWidth = 0;
  private drawnHeight = 0;
  private reprintRequested = false;
  private historyChanged = false;
  /** Full-screen mode: the transcript's lines, the rows on screen, how far the viewport is scrolled up. */
  private full:
    | {
        history: string[];
        rows: string[];
        height: number;
        scroll: number;
        inlineDrawn: string[];
        inlineWidth: number;
        inlineHeight: number;
        reprintOnLeave: boolean;
        unguard: () => void;
      }
    | undefined;
  readonly stats: FrameStats = { frames: 0, frameMs: 0, fullReprints: 0 };

  constructor(
    private readonly term: ScreenTerminal,
    private readonly live: Component,
    /** Renders the whole committed transcript at a width: used after a resize or a global toggle. */
    private readonly renderHistory: (width: number) => string[],
  ) {}

  /** Queues finished lines for the scrollback; they are written above the live region on the next frame. */
  pushScrollback(lines: readonly string[]): void {
    for (const line of lines) this.pendingScrollback.push(line);
    if (this.full) for (const line of lines) this.full.history.push(fit(this.lastWidth || this.term.columns)(line));
    this.requestRender();
  }

  get fullScreen(): boolean {
    return !!this.full;
  }

  /** Enters or leaves full-screen mode; leaving puts the transcript written meanwhile into the normal screen. */
  setFullScreen(on: boolean): void {
    if (this.stopped || on === !!this.full) return;
    if (on) {
      const width = Math.max(1, this.term.columns);
      this.lastWidth = width;
      // A crash or a kill must not leave the terminal on the alternate screen.
      const unguard = guardAlternateScreen(() => this.leaveFullScreen());
      this.full = {
        history: this.renderHistory(width).map(fit(width)),
        rows: [],
        height: 0,
        scroll: 0,
        inlineDrawn: this.drawn,
        inlineWidth: this.drawnWidth,
        inlineHeight: this.drawnHeight,
        reprintOnLeave: this.reprintRequested,
        unguard,
      };
      this.reprintRequested = false;
      setAlternateScreenActive(true);
      this.term.write(ENTER_ALTERNATE_SCREEN + '\x1b[2J');
    } else {
      this.leaveFullScreen();
    }
    this.requestRender();
  }

  private leaveFullScreen(): void {
    if (!this.full) return;
    this.full.unguard();
    this.term.write(LEAVE_ALTERNATE_SCREEN);
    setAlternateScreenActive(false);
    this.drawn = this.full.inlineDrawn;
    this.drawnWidth = this.full.inlineWidth;
    this.drawnHeight = this.full.inlineHeight;
    if (this.full.reprintOnLeave) this.reprintRequested = true;
    this.full = undefined;
  }

  /** Full-screen mode: scrolls the transcript viewport up (positive) or down; 'end' follows the newest line again. */
  scrollTranscript(by: number | 'end'): void {
    if (!this.full) return;
    this.full.scroll = by === 'end' ? 0 : Math.max(0, this.full.scroll + by);
    this.requestRender();
  }

  /** Rows of the transcript viewport (a page for PgUp/PgDn). */
  get viewportRows(): number {
    return Math.max(1, this.term.rows - this.drawnLiveRows);
  }
  private drawnLiveRows = 0;

  /** Prints the whole transcript again below what is there (Ctrl-O, a theme change); the scrollback stays. */
  requestReprint(): void {
    this.reprintRequested = true;
    this.requestRender();
  }

  /**
   * The committed transcript changed in place (/undo, /rewind): full-screen mode shows it anew; the normal
   * screen keeps what it printed (the user's scrollback is never rewritten) and only the live region redraws.
   */
  transcriptChanged(): void {
    this.historyChanged = true;
    this.requestRender();
  }

  requestRender(): void {
    if (this.stopped || this.scheduled) return;
    const wait = Math.max(0, MIN_FRAME_INTERVAL_MS - (performance.now() - this.lastFrameAt));
    this.scheduled = setTimeout(() => {
      this.scheduled = undefined;
      this.renderNow();
    }, wait);
  }

  /** Draws one frame now (tests and the benchmark call this directly). */
  renderNow(): void {
    if (this.stopped) return;
    const started = performance.now();
    const width = Math.max(1, this.term.columns);
    const height = Math.max(2, this.term.rows);
    if (this.full && this.lastWidth && width !== this.lastWidth) this.historyChanged = true;
    this.lastWidth = width;
    if (this.full) {
      const lines = this.liveLines(width, height);
      this.fullScreenFrame(width, height, lines);
      this.finishFrame(started, lines, height);
      return;
    }
    this.historyChanged = false;
    const resized = this.drawn.length > 0 && (width !== this.drawnWidth || height !== this.drawnHeight);
    let above = this.pendingScrollback;
    if (this.reprintRequested) {
      this.stats.fullReprints++;
      above = this.renderHistory(width);
    }
    // The rows the region takes now: after a resize, its old lines as the terminal re-wrapped them; lines written
    // above it take their place first.
    const reserved = resized ? rowsAfterResize(this.drawn, this.drawnWidth, width) : this.drawn.length;
    const lines = this.liveLines(width, height, Math.max(0, reserved - above.length));
    let out: string;
    if (this.reprintRequested || above.length || resized) {
      this.reprintRequested = false;
      this.pendingScrollback = [];
      out =
        SYNC_START +
        this.eraseLive() +
        above.map((l) => `${fit(width)(l)}${LINE_RESET}\r\n`).join('') +
        WRAP_OFF +
        lines.join('\r\n') +
        backToFirstRow(lines.length) +
        WRAP_ON +
        SYNC_END;
    } else {
      const first = firstDifference(this.drawn, lines);
      if (first === -1) {
        this.finishFrame(started, lines, height);
        return;
      }
      out = SYNC_START + WRAP_OFF + this.redrawFrom(first, lines) + WRAP_ON + SYNC_END;
    }
    this.term.write(out);
    this.finishFrame(started, lines, height);
  }

  /** Rewrites the live region from its row `first` down (the cursor is on its first row, and ends there again). */
  private redrawFrom(first: number, lines: string[]): string {
    if (this.drawn.length === 0) return '\r' + lines.join('\r\n') + backToFirstRow(lines.length);
    if (first >= this.drawn.length) {
      // Only additions: step onto the last drawn row and go on below it.
      return down(this.drawn.length - 1) + '\r\n' + lines.slice(first).join('\r\n') + backToFirstRow(lines.length);
    }
    const erase = first === 0 ? '\r' + ERASE_DOWN_FROM_ROW : `${down(first)}\r\x1b[J`;
    // Only removals: erase from the first removed row, then back to the first row.
    if (first >= lines.length) return erase + (first > 0 ? `\x1b[${first}A` : '') + '\r';
    return erase + lines.slice(first).join('\r\n') + backToFirstRow(lines.length);
  }

  private fullScreenFrame(width: number, height: number, live: string[]): void {
    const full = this.full!;
    if (this.reprintRequested || this.historyChanged) {
      if (this.reprintRequested) {
        this.stats.fullReprints++;
        full.reprintOnLeave = true;
      }
      this.reprintRequested = false;
      this.historyChanged = false;
      full.history = this.renderHistory(width).map(fit(width));
      full.rows = [];
    }
    if (height !== full.height) {
      // After a change of height the terminal's rows no longer match ours: draw every row again.
      full.height = height;
      full.rows = [];
    }
    this.drawnLiveRows = live.length;
    const viewRows = Math.max(0, height - live.length);
    full.scroll = Math.min(full.scroll, Math.max(0, full.history.length - viewRows));
    const end = full.history.length - full.scroll;
    const shown = full.history.slice(Math.max(0, end - viewRows), end);
    const rows = [...Array<string>(viewRows - shown.length).fill(''), ...shown];
    if (full.scroll > 0 && viewRows > 0) rows[viewRows - 1] = fit(width)(this.scrolledNote(full.scroll));
    rows.push(...live);
    let out = '';
    for (let i = 0; i < rows.length; i++)
      if (rows[i] !== full.rows[i]) out += `\x1b[${i + 1};1H\x1b[2K${rows[i]}${LINE_RESET}`;
    full.rows = rows;
    if (out) this.term.write(SYNC_START + out + SYNC_END);
  }

  /** The viewport's last row while scrolled up: how to get back. */
  private scrolledNote(scroll: number): string {
    return `\x1b[7m ↓ ${scroll} more line${scroll === 1 ? '' : 's'} below · PgDn scrolls down \x1b[27m`;
  }

  private finishFrame(started: number, lines: string[], height: number): void {
    this.drawn = lines;
    if (!this.full) {
      this.drawnWidth = this.lastWidth;
      this.drawnHeight = height;
    }
    this.lastFrameAt = performance.now();
    this.stats.frames++;
    this.stats.frameMs += this.lastFrameAt - started;
  }

  /**
   * The live region's lines, clipped to fit the screen so every drawn line stays addressable. In the normal screen
   * the region keeps room to be re-wrapped and takes at least `reserved` rows (liveRows.ts).
   */
  private liveLines(width: number, height: number, reserved = 0): string[] {
    const rendered = this.full
      ? this.live.render(width)
      : liveRows(
          hasParts(this.live) ? this.live.renderParts(width) : { elastic: [], fixed: this.live.render(width) },
          reserved,
          width,
          height,
        );
    // Full-screen mode keeps at least a row for the conversation.
    const start = Math.max(0, rendered.length - (this.full ? height - 1 : height));
    const out: string[] = [];
    for (let i = start; i < rendered.length; i++) {
      let line = rendered[i];
      if (line.includes(CURSOR_MARKER)) line = line.replace(CURSOR_MARKER, '');
      out.push(fit(width)(line) + LINE_RESET);
    }
    return out;
  }

  /** Erases the live region from its first row, where the cursor rests (after a resize too: the terminal moved it). */
  private eraseLive(): string {
    return this.drawn.length ? '\r' + ERASE_DOWN_FROM_ROW : '\r';
  }

  /** Erases the live region and forgets it, so the next frame draws it afresh where the cursor is. */
  releaseLive(): void {
    if (this.stopped || this.full) return;
    if (this.pendingScrollback.length || this.reprintRequested) this.renderNow();
    if (this.drawn.length) this.term.write(this.eraseLive());
    this.drawn = [];
  }

  /** Leaves the cursor below the live region, ready for the shell. */
  stop(opts: { clearLive?: boolean } = {}): void {
    if (this.stopped) return;
    if (this.scheduled) clearTimeout(this.scheduled);
    this.scheduled = undefined;
    this.leaveFullScreen();
    if (this.pendingScrollback.length || this.reprintRequested) this.renderNow();
    this.stopped = true;
    if (opts.clearLive && this.drawn.length) this.term.write(this.eraseLive());
    else if (this.drawn.length) this.term.write(down(this.drawn.length - 1) + '\r\n');
    this.drawn = [];
  }
}

/** Cursor motion down `rows` rows (never scrolls: the rows are the live region's own). */
function down(rows: number): string {
  return rows > 0 ? `\x1b[${rows}B` : '';
}

/** From the end of the live region's last line back to the first column of its first row. */
function backToFirstRow(lineCount: number): string {
  return (lineCount > 1 ? `\x1b[${lineCount - 1}A` : '') + '\r';
}

function firstDifference(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** Lines must never be wider than the terminal, or the terminal wraps them and the row maths breaks. */
function fit(width: number): (line: string) => string {
  return (line) => (line.length <= width || visibleWidth(line) <= width ? line : truncateToWidth(line, width, ''));
}
