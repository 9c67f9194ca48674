// The popups meant to be read in full (/help, /mcp, any TextPopup) wrap long lines with continuation
// rows under the text column instead of cutting them with "…" (docs/ui.md "Panels").
import { visibleWidth } from '@mariozechner/pi-tui';
import { describe, expect, it } from 'vitest';
import { hangingLines } from '../../src/ui/dialogs/box';
import { TextPopup } from '../../src/ui/dialogs/selectDialog';
import { loadTheme } from '../../src/ui/theme';

const theme = loadTheme('dark', '/nonexistent').theme;
const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, '');
const HELP = '  /reload     reopen this session with config.toml, plugins, skills, agents, hooks and MCP servers';

describe('hangingLines', () => {
  it('hangs continuation lines under the text column and keeps every word whole', () => {
    const rows = hangingLines(HELP, 56);
    expect(rows[0]).toMatch(/^ {2}\/reload {5}reopen/);
    for (const row of rows.slice(1)) expect(row).toMatch(/^ {14}\S/);
    for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(56);
    expect(rows.join(' ').replace(/\s+/g, ' ').trim()).toBe(HELP.replace(/\s+/g, ' ').trim());
  });

  it('hangs under the indent when the text column would leave too little room (narrow terminals)', () => {
    const rows = hangingLines(`  ${'/a-long-command-name'.padEnd(24)}  does something worth reading in full`, 36);
    expect(rows[0]).toMatch(/^ {2}\/a-long-command-name/);
    for (const row of rows.slice(1)) expect(row).toMatch(/^ {4}\S/);
    expect(rows.join(' ')).toContain('in');
    expect(rows.join(' ').replace(/\s+/g, ' ')).toContain('does something worth reading in full');
  });

  it('splits a word only when it is longer than the row; keeps colours; short lines unchanged', () => {
    const word = 'x'.repeat(50);
    const rows = hangingLines(`  ${word}`, 30);
    expect(rows.map((r) => r.trim()).join('')).toBe(word);
    for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(30);
    expect(hangingLines('short', 30)).toEqual(['short']);
    const coloured = hangingLines(`\x1b[2mname\x1b[0m  ${'word '.repeat(12)}`, 30);
    expect(plain(coloured[0])).toMatch(/^name {2}word/);
    expect(plain(coloured[1])).toMatch(/^ {6}word/);
  });
});

describe('TextPopup', () => {
  it.each([60, 40])('at %i columns shows the whole long line, no "…", scrolling by screen rows', (width) => {
    const lines = [HELP, ...Array.from({ length: 30 }, (_, i) => `line ${i}`)];
    const popup = new TextPopup(
      theme,
      'Help',
      lines,
      () => undefined,
      () => 20,
    );
    const rows = popup.render(width).map(plain);
    // The frame is open on the right and leaves the last two columns free (docs/ui.md "Scrollback").
    for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(width - 2);
    const text = rows
      .slice(1, -1)
      .map((r) => r.slice(2).trim())
      .join(' ')
      .replace(/\s+/g, ' ');
    expect(text).toContain(HELP.replace(/\s+/g, ' ').trim());
    expect(rows.some((r) => r.includes('…'))).toBe(false);
    expect(rows.length).toBeLessThanOrEqual(20 - 4 + 1);
    for (let i = 0; i < 40; i++) popup.handleInput('\x1b[B');
    const end = popup.render(width).map(plain);
    expect(end.some((r) => r.includes('line 29'))).toBe(true);
  });
});
