// /help and /mcp in the real binary (tmux) at 60 and 40 columns: a line longer than the terminal
// wraps under its text column, nothing is cut with "…" (docs/ui.md "Panels"); PgDn/PgUp move by a page.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send, tempDir, type Launched } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');

const start = appsClosedAfterEach();

const CTRL_V =
  'Ctrl-V paste an image from the clipboard (models with image input); a pasted image path attaches it too';

/** The popup's rows (framed `│ …`), frame taken off, joined, whitespace collapsed. */
function popupText(screen: string): string {
  return screen
    .split('\n')
    .filter((l) => /^│ /.test(l))
    .map((l) => l.slice(2).trim())
    .join(' ')
    .replace(/\s+/g, ' ');
}

async function openAt(app: Launched, width: number, command: string, title: string): Promise<string> {
  app.tmux.resize(width, 100);
  send(app, command);
  const screen = await app.tmux.waitFor(new RegExp(`${title}[^]*Esc/Enter/q close`));
  for (const line of screen.split('\n')) expect(line.trimEnd().length).toBeLessThanOrEqual(width);
  return screen;
}

describe.skipIf(!hasTmux)('long lines in /help and /mcp (tmux)', { timeout: 90_000 }, () => {
  it('/help at 60 and 40 columns shows the whole key line, wrapped, with no …', async () => {
    const app = await start({});
    for (const width of [60, 40]) {
      const screen = await openAt(app, width, '/help', 'Jarvis Code — help');
      const help = screen.slice(screen.indexOf('Jarvis Code — help'));
      expect(popupText(help)).toContain(CTRL_V);
      // The one "…" of the help text is its own ("Rewind…"); nothing is cut.
      expect(popupText(help).replace('Rewind…', '')).not.toContain('…');
      app.tmux.keys('Escape');
      await app.tmux.waitForGone('Esc/Enter/q close');
    }
  });

  it('/mcp at 60 and 40 columns shows a long server line and its error in full', async () => {
    const home = tempDir('jarvis-ui-mcp-');
    const args = ['--config', '/srv/mcp/servers/a-rather-long-configuration-folder/inventory-settings.json'];
    writeFileSync(
      join(home, 'mcp.json'),
      JSON.stringify({ mcpServers: { inventory: { command: 'no-such-inventory-mcp-binary', args } } }),
    );
    const app = await start({ home });
    await app.tmux.waitFor('MCP server "inventory" is not available', { timeoutMs: 30_000 });
    for (const width of [60, 40]) {
      const screen = await openAt(app, width, '/mcp', 'MCP servers');
      const popup = screen.slice(screen.lastIndexOf('MCP servers'));
      // A path longer than the row is split (the only word that may be); compare without the breaks.
      const text = popupText(popup).replace(/\s+/g, '');
      const line = `inventory failed (user, stdio: no-such-inventory-mcp-binary ${args.join(' ')})`;
      expect(text).toContain(line.replace(/\s+/g, ''));
      expect(text).toContain('couldnotstart:command"no-such-inventory-mcp-binary"wasnotfound');
      // Continuation rows start under the state column ("inventory  " is 11 wide, after "│ ").
      const rows = popup.split('\n');
      const first = rows.findIndex((l) => l.startsWith('│ inventory  failed'));
      expect(rows[first + 1]).toMatch(/^│ {12}\S/);
      expect(popupText(popup)).not.toContain('…');
      app.tmux.keys('Escape');
      await app.tmux.waitForGone('Esc/Enter/q close');
    }
  });

  it('PgDn and PgUp move /help by the rows it shows', async () => {
    const app = await start({});
    app.tmux.resize(100, 30);
    send(app, '/help');
    const range = async (pattern: RegExp) =>
      (await app.tmux.waitFor(pattern))
        .match(/Jarvis Code — help \((\d+)–(\d+) of (\d+)\)/)!
        .slice(1)
        .map(Number);
    const [first, last, total] = await range(/Jarvis Code — help \(1–\d+ of \d+\)/);
    expect(first).toBe(1);
    const page = last;
    expect(page).toBeGreaterThan(10);
    expect(total).toBeGreaterThan(2 * page);
    app.tmux.keys('NPage');
    expect(await range(new RegExp(`help \\(${page + 1}–${2 * page} of`))).toEqual([page + 1, 2 * page, total]);
    app.tmux.keys('PPage');
    expect(await range(new RegExp(`help \\(1–${page} of`))).toEqual([1, page, total]);
  });
});
