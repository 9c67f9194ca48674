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
import { CURSOR_MARKER, truncateToWidth, visibleWidth, type Component } from '@mariozechner/pi-tui';
import {
  ENTER_ALTERNATE_SCREEN,
  guardAlternateScreen,
  LEAVE_ALTERNATE_SCREEN,
  setAlternateScreenActive,
} from '../platform/terminalModes';

export interface ScreenTerminal {
  write(data: string): void;
  readonly columns: number;
  readonly rows: number;
}

const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
const LINE_RESET = '\x1b[0m';
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
  /** The width the live region was drawn at: after a resize the terminal has reflowed those lines. */
  private drawnWidth = 0;
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
    const lines = this.liveLines(width, height);
    if (this.full) {
      this.fullScreenFrame(width, height, lines);
      this.finishFrame(started, lines);
      return;
    }
    this.historyChanged = false;
    let out: string;
    const reflowed = this.drawn.length > 0 && this.drawnWidth > 0 && width !== this.drawnWidth;
    if (this.reprintRequested || this.pendingScrollback.length || reflowed) {
      let above = this.pendingScrollback;
      if (this.reprintRequested) {
        this.stats.fullReprints++;
        above = this.renderHistory(width);
      }
      this.reprintRequested = false;
      this.pendingScrollback = [];
      out =
        SYNC_START +
        this.eraseLive(width) +
        above.map((l) => `${fit(width)(l)}${LINE_RESET}\r\n`).join('') +
        lines.join('\r\n') +
        SYNC_END;
    } else {
      const first = firstDifference(this.drawn, lines);
      if (first === -1) {
        this.finishFrame(started, lines);
        return;
      }
      if (first >= lines.length) {
        // Only removals: clear from the first removed line, then step back onto the new last line.
        out = SYNC_START + this.moveToLine(first) + '\x1b[J' + (lines.length ? '\x1b[1A' : '') + SYNC_END;
      } else if (first >= this.drawn.length && this.drawn.length > 0) {
        out = SYNC_START + this.moveToLine(this.drawn.length - 1) + '\r\n' + lines.slice(first).join('\r\n') + SYNC_END;
      } else {
        out = SYNC_START + this.moveToLine(first) + '\x1b[J' + lines.slice(first).join('\r\n') + SYNC_END;
      }
    }
    this.term.write(out);
    this.finishFrame(started, lines);
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

  private finishFrame(started: number, lines: string[]): void {
    this.drawn = lines;
    if (!this.full) this.drawnWidth = this.lastWidth;
    this.lastFrameAt = performance.now();
    this.stats.frames++;
    this.stats.frameMs += this.lastFrameAt - started;
  }

  /** The live region's lines, clipped to fit the screen so every drawn line stays addressable. */
  private liveLines(width: number, height: number): string[] {
    const rendered = this.live.render(width);
    const start = Math.max(0, rendered.length - (height - 1));
    const out: string[] = [];
    for (let i = start; i < rendered.length; i++) {
      let line = rendered[i];
      if (line.includes(CURSOR_MARKER)) line = line.replace(CURSOR_MARKER, '');
      out.push(fit(width)(line) + LINE_RESET);
    }
    return out;
  }

  /**
   * Erases the live region as drawn, from its first row down. After a change of width the terminal has
   * reflowed its lines (a line wider than the new width takes several rows), so the rows are counted at the new
   * width; rows above the live region are never touched.
   */
  private eraseLive(width: number): string {
    if (!this.drawn.length) return '\r';
    if (this.drawnWidth === width || !this.drawnWidth) return this.moveToLine(0) + '\x1b[J';
    let rows = 0;
    for (const line of this.drawn) rows += Math.max(1, Math.ceil(visibleWidth(line) / width));
    return (rows > 1 ? `\x1b[${rows - 1}A` : '') + '\r\x1b[J';
  }

  /** Cursor motion from the end of the drawn region (where a frame always leaves it) to column 0 of `row`. */
  private moveToLine(row: number): string {
    if (!this.drawn.length) return '\r';
    const up = this.drawn.length - 1 - row;
    return (up > 0 ? `\x1b[${up}A` : '') + '\r';
  }

  /** Erases the live region and forgets it, so the next frame draws it afresh where the cursor is. */
  releaseLive(): void {
    if (this.stopped || this.full) return;
    if (this.pendingScrollback.length || this.reprintRequested) this.renderNow();
    if (this.drawn.length) this.term.write(this.eraseLive(Math.max(1, this.term.columns)));
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
    if (opts.clearLive && this.drawn.length) this.term.write(this.moveToLine(0) + '\x1b[J');
    else if (this.drawn.length) this.term.write('\r\n');
    this.drawn = [];
  }
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
