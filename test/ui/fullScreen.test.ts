// Full-screen mode of the screen (docs/ui.md "Full-screen mode"): the alternate screen, the transcript
// in a viewport above the live region, scrolling, only changed rows rewritten, and the way back to the
// normal screen with everything finished meanwhile in the scrollback.
import { afterEach, describe, expect, it } from 'vitest';
import {
  alternateScreenActive,
  ENTER_ALTERNATE_SCREEN,
  LEAVE_ALTERNATE_SCREEN,
} from '../../src/platform/terminalModes';
import { Screen } from '../../src/ui/screen';

/** A terminal that keeps a grid of rows from the cursor-addressed writes of full-screen frames. */
function gridTerminal(rows = 8, columns = 40) {
  const writes: string[] = [];
  const grid: string[] = Array(rows).fill('');
  return {
    term: {
      columns,
      rows,
      write(data: string) {
        writes.push(data);
        for (const m of data.matchAll(/\x1b\[(\d+);1H\x1b\[2K(.*?)\x1b\[0m/g))
          grid[Number(m[1]) - 1] = m[2].replace(/\x1b\[[0-9;]*m/g, '');
      },
    },
    writes,
    grid,
  };
}

const screens: Screen[] = [];
afterEach(() => {
  for (const s of screens.splice(0)) s.stop();
});

function setUp(historyLines: number) {
  const t = gridTerminal();
  const history = Array.from({ length: historyLines }, (_, i) => `line ${i}`);
  let live = ['> input', 'footer'];
  const screen = new Screen(t.term, { render: () => live, invalidate: () => undefined }, () => history);
  screens.push(screen);
  screen.renderNow();
  return { ...t, screen, history, setLive: (l: string[]) => (live = l) };
}

describe('full-screen mode', () => {
  it('enters the alternate screen and shows the newest transcript lines above the live region', () => {
    const t = setUp(20);
    t.screen.setFullScreen(true);
    t.screen.renderNow();
    expect(t.writes.some((w) => w.includes(ENTER_ALTERNATE_SCREEN))).toBe(true);
    expect(alternateScreenActive()).toBe(true);
    expect(t.grid).toEqual(['line 14', 'line 15', 'line 16', 'line 17', 'line 18', 'line 19', '> input', 'footer']);
  });

  it('a short transcript sits right above the input', () => {
    const t = setUp(2);
    t.screen.setFullScreen(true);
    t.screen.renderNow();
    expect(t.grid).toEqual(['', '', '', '', 'line 0', 'line 1', '> input', 'footer']);
  });

  it('scrolls by lines and pages, says how far, and follows the end again', () => {
    const t = setUp(20);
    t.screen.setFullScreen(true);
    t.screen.renderNow();
    t.screen.scrollTranscript(t.screen.viewportRows - 1);
    t.screen.renderNow();
    expect(t.grid.slice(0, 5)).toEqual(['line 9', 'line 10', 'line 11', 'line 12', 'line 13']);
    expect(t.grid[5]).toContain('↓ 5 more lines below');
    t.screen.scrollTranscript(1000);
    t.screen.renderNow();
    expect(t.grid[0]).toBe('line 0');
    t.screen.scrollTranscript('end');
    t.screen.renderNow();
    expect(t.grid[5]).toBe('line 19');
  });

  it('rewrites only the rows that changed', () => {
    const t = setUp(20);
    t.screen.setFullScreen(true);
    t.screen.renderNow();
    t.setLive(['> input changed', 'footer']);
    t.screen.renderNow();
    const last = t.writes.at(-1)!;
    expect(last.match(/\x1b\[\d+;1H/g)).toEqual(['\x1b[7;1H']);
    const before = t.writes.length;
    t.screen.renderNow();
    expect(t.writes.length).toBe(before);
  });

  it('new transcript lines appear in the viewport and reach the normal scrollback on leaving', () => {
    const t = setUp(3);
    t.screen.setFullScreen(true);
    t.screen.renderNow();
    t.history.push('finished in full screen');
    t.screen.pushScrollback(['finished in full screen']);
    t.screen.renderNow();
    expect(t.grid[5]).toBe('finished in full screen');
    const written = t.writes.length;
    t.screen.setFullScreen(false);
    t.screen.renderNow();
    const after = t.writes.slice(written).join('');
    expect(after.startsWith(LEAVE_ALTERNATE_SCREEN)).toBe(true);
    expect(after).toMatch(/finished in full screen.*\r\n\x1b\[\?7l> input/);
    expect(alternateScreenActive()).toBe(false);
  });

  it('stopping the UI leaves the alternate screen first', () => {
    const t = setUp(3);
    t.screen.setFullScreen(true);
    t.screen.renderNow();
    t.screen.stop();
    expect(t.writes.join('')).toContain(LEAVE_ALTERNATE_SCREEN);
    expect(alternateScreenActive()).toBe(false);
    expect(process.listenerCount('SIGTERM')).toBe(0);
  });
});
