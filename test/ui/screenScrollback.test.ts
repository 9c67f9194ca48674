// The scrollback rule of the screen (docs/ui.md "Scrollback"): nothing the UI does clears the terminal's
// scrollback or the rows above the live region — not a resize, not a reprint, not /undo.
import { afterEach, describe, expect, it } from 'vitest';
import { Screen } from '../../src/ui/screen';

const CLEARS = [/\x1b\[3J/, /\x1b\[2J/, /\x1b\[H/, /\x1b\[\d+;\d+H/];

function terminal(columns = 40, rows = 20) {
  const writes: string[] = [];
  const term = { columns, rows, write: (d: string) => void writes.push(d) };
  return { term, writes };
}

const screens: Screen[] = [];
afterEach(() => {
  for (const s of screens.splice(0)) s.stop();
});

function setUp(history: string[] = ['old 1', 'old 2']) {
  const t = terminal();
  let live = ['> input', 'x'.repeat(40), 'footer'];
  const screen = new Screen(t.term, { render: () => live, invalidate: () => undefined }, () => history);
  screens.push(screen);
  screen.renderNow();
  return { ...t, screen, setLive: (l: string[]) => (live = l) };
}

function expectNoClear(output: string): void {
  for (const re of CLEARS) expect(output).not.toMatch(re);
}

/** The erase from the live region's first row: from column 2 to the end, then the row's first cell. */
const ERASE_FROM_FIRST_ROW = '\r\x1b[2G\x1b[J\r\x1b[K';

describe('the screen keeps the scrollback', () => {
  it('a narrower terminal: the live region is erased from its first row, where the cursor rests, and drawn again', () => {
    const { term, writes, screen } = setUp();
    term.columns = 20;
    writes.length = 0;
    screen.renderNow();
    const out = writes.join('');
    expectNoClear(out);
    // No row arithmetic: the terminal carried the cursor through its reflow.
    expect(out).toMatch(/^\x1b\[\?2026h\r\x1b\[2G\x1b\[J\r\x1b\[K/);
    expect(out).toContain('> input');
    expect(out).not.toContain('old 1');
    // The 3 lines drawn at 40 columns took 1 + 2 + 1 rows at 20: the region keeps the 4 rows (a blank one on top),
    // so it still ends on the screen's last row, and the cursor goes back to its first row.
    expect(out).toContain('\x1b[?7l\x1b[0m\r\n> input');
    expect(out).toMatch(/\x1b\[3A\r\x1b\[\?7h\x1b\[\?2026l$/);
  });

  it('a wider terminal: each drawn line still takes one row', () => {
    const { term, writes, screen } = setUp();
    term.columns = 80;
    writes.length = 0;
    screen.renderNow();
    const out = writes.join('');
    expectNoClear(out);
    expect(out).toContain(ERASE_FROM_FIRST_ROW);
    expect(out).toMatch(/\x1b\[2A\r\x1b\[\?7h\x1b\[\?2026l$/);
  });

  it('never erases from where a frame could start at the screen home (tmux moves such a screen to the scrollback)', () => {
    const { writes, screen, setLive } = setUp();
    setLive(['> changed', 'x'.repeat(40), 'footer']);
    screen.renderNow();
    const out = writes.join('');
    // Every erase to the end of the screen from a region's first row starts at column 2.
    expect(out).not.toMatch(/\r\x1b\[J/);
    expect(out).toContain(ERASE_FROM_FIRST_ROW);
  });

  it('a reprint (Ctrl-O) appends the transcript below what is printed; nothing is cleared', () => {
    const { writes, screen } = setUp();
    writes.length = 0;
    screen.requestReprint();
    screen.renderNow();
    const out = writes.join('');
    expectNoClear(out);
    expect(out).toMatch(/old 1.*\r\nold 2.*\r\n\x1b\[\?7l> input/);
    expect(screen.stats.fullReprints).toBe(1);
  });

  it('a transcript changed in place (/undo) redraws only the live region in the normal screen', () => {
    const { writes, screen, setLive } = setUp();
    writes.length = 0;
    screen.transcriptChanged();
    setLive(['> restored prompt', 'footer']);
    screen.renderNow();
    const out = writes.join('');
    expectNoClear(out);
    expect(out).not.toContain('old 1');
    expect(out).toContain('> restored prompt');
    expect(screen.stats.fullReprints).toBe(0);
  });

  it('in full-screen mode a changed transcript is drawn anew in the alternate screen', () => {
    const history = ['kept', 'withdrawn'];
    const { writes, screen } = setUp(history);
    screen.setFullScreen(true);
    screen.renderNow();
    history.pop();
    writes.length = 0;
    screen.transcriptChanged();
    screen.renderNow();
    const out = writes.join('');
    expect(out).not.toMatch(/\x1b\[3J/);
    expect(out).not.toContain('withdrawn');
    screen.setFullScreen(false);
  });

  it('releasing the live region (Ctrl-G) erases only its own rows and draws it afresh afterwards', () => {
    const { writes, screen } = setUp();
    writes.length = 0;
    screen.releaseLive();
    expect(writes.join('')).toBe(ERASE_FROM_FIRST_ROW);
    screen.renderNow();
    const out = writes.join('');
    expectNoClear(out);
    expect(out).toContain('> input');
  });
});
