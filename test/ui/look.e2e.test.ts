// How the UI looks, end to end in tmux: /theme's live preview and saved choice (the colours on the
// screen change), and the tui.toml status-line command — its output in the footer, and a command that
// hangs neither blocking typing nor outliving its time limit.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/cli';
import { processesRunning } from '../helpers/processes';
import { requireSystemPart } from '../helpers/requireAll';
import type { TmuxSession } from '../helpers/tmux';
import { appsClosedAfterEach, send, tempDir } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

/** The SGR colour of a hex colour as tmux reports it. */
const sgr = (hex: string) =>
  `38;2;${parseInt(hex.slice(1, 3), 16)};${parseInt(hex.slice(3, 5), 16)};${parseInt(hex.slice(5, 7), 16)}m`;
const DARK_USER = sgr('#FFCB6B');
const LIGHT_USER = sgr('#9A4A00');
const EMBER_USER = sgr('#FF5F1F');

/**
 * The styled line that shows the prompt `> text`, the lowest one: a theme change prints the conversation again below
 * what is on the screen (the scrollback is never cleared, docs/ui.md "Scrollback"), so the newest copy is last.
 */
function promptLine(tmux: TmuxSession, text: string): string {
  return (
    tmux
      .styledScreen()
      .split('\n')
      .filter((l) => l.replace(/\x1b\[[0-9;]*m/g, '').includes(`> ${text}`))
      .at(-1) ?? ''
  );
}

async function waitForStyle(tmux: TmuxSession, text: string, colour: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (promptLine(tmux, text).includes(colour)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the prompt line never took the colour ${colour}: ${JSON.stringify(promptLine(tmux, text))}`);
}

describe.skipIf(!hasTmux)('how the UI looks (tmux)', { timeout: 60_000 }, () => {
  it('/theme previews a theme as the selection moves, Esc restores it, Enter keeps and saves it', async () => {
    const home = tempDir('jarvis-ui-home-');
    mkdirSync(join(home, 'themes'));
    writeFileSync(
      join(home, 'themes', 'ember.json'),
      JSON.stringify({ name: 'ember', base: 'dark', colors: { roleUser: '#FF5F1F' } }),
    );
    // `auto` must come out dark whatever terminal runs the tests.
    const app = await start({ home, env: { COLORFGBG: '15;0' }, turns: [{ text: 'An answer to colour.' }] });
    send(app, 'colour me');
    await app.tmux.waitFor('An answer to colour.');
    await waitForStyle(app.tmux, 'colour me', DARK_USER);

    send(app, '/theme');
    await app.tmux.waitFor('Custom: ember');
    app.tmux.keys('Down', 'Down'); // auto → dark → light
    await waitForStyle(app.tmux, 'colour me', LIGHT_USER);
    app.tmux.keys('Escape');
    await waitForStyle(app.tmux, 'colour me', DARK_USER);
    await app.tmux.waitForGone('Custom: ember');

    send(app, '/theme');
    await app.tmux.waitFor('Custom: ember');
    app.tmux.keys('Down', 'Down', 'Down');
    await waitForStyle(app.tmux, 'colour me', EMBER_USER);
    app.tmux.keys('Enter');
    await app.tmux.waitFor('Theme: Custom: ember (saved to');
    expect(readFileSync(join(home, 'tui.toml'), 'utf8')).toContain('theme = "ember"');
    expect(promptLine(app.tmux, 'colour me')).toContain(EMBER_USER);
  });

  it("shows the status-line command's first line, fed the session as JSON on stdin", async () => {
    const home = tempDir('jarvis-ui-home-');
    // One sed process: it reads the JSON on stdin, prints the status line and a second line.
    writeFileSync(
      join(home, 'status.sed'),
      's/.*"model":"\\([^"]*\\)".*"permission_mode":"\\([^"]*\\)".*/STATUS model=\\1 mode=\\2/p\ns/.*/a second line is not shown/p\n',
    );
    writeFileSync(join(home, 'tui.toml'), `[status_line]\ncommand = "sed -n -f ${join(home, 'status.sed')}"\n`);
    const app = await start({ home });
    const screen = await app.tmux.waitFor('STATUS model=any mode=manual');
    expect(screen).not.toContain('a second line is not shown');
    // The built-in line (`manual · any · context …`) is replaced, the tips line stays.
    expect(screen).not.toMatch(/manual · any/);
    expect(screen).toContain('/ commands');
  });

  it('a hanging status-line command does not block typing, is stopped, and leaves the built-in line', async () => {
    const home = tempDir('jarvis-ui-home-');
    writeFileSync(join(home, 'tui.toml'), '[status_line]\ncommand = "echo HANGING; exec sleep 7777"\n');
    const app = await start({ home });
    await app.tmux.waitFor('took longer than 300 ms');
    app.tmux.type('typing still works');
    // The typed text and the built-in footer are drawn in separate frames: wait for the screen with both.
    const screen = await app.tmux.waitFor(/typing still works[\s\S]*manual · any/);
    expect(screen).not.toContain('HANGING');
    expect(screen.split('took longer than 300 ms').length - 1).toBe(1);
    await until(() => processesRunning('sleep 7777') === 0, 'the stopped command to be gone');
  });

  it('full-screen mode: the alternate screen, PgUp scrolls the conversation, /fullscreen off and a kill restore the normal screen', async () => {
    const answer = Array.from({ length: 60 }, (_, i) => `- item ${i + 1}`).join('\n');
    const app = await start({ env: { JARVIS_CODE_TUI_FULL_SCREEN: '1' }, turns: [{ text: answer }] });
    await until(() => app.tmux.display('#{alternate_on}') === '1', 'the alternate screen');
    send(app, 'a long list please');
    await app.tmux.waitFor('item 60');
    app.tmux.keys('PageUp');
    await app.tmux.waitFor('more lines below');
    expect(app.tmux.screen()).not.toContain('item 60');
    app.tmux.keys('PageDown');
    await app.tmux.waitFor('item 60');

    send(app, '/fullscreen off');
    await until(() => app.tmux.display('#{alternate_on}') === '0', 'the normal screen');
    const all = await app.tmux.waitFor('Full-screen mode off.', { scrollback: true });
    expect(all).toContain('a long list please');
    expect(all).toContain('item 1\n');
    expect(all).toContain('item 60');

    send(app, '/fullscreen');
    await until(() => app.tmux.display('#{alternate_on}') === '1', 'the alternate screen again');
    const node = execFileSync('pgrep', ['-P', app.tmux.display('#{pane_pid}')], { encoding: 'utf8' })
      .trim()
      .split('\n')[0];
    process.kill(Number(node), 'SIGTERM');
    await app.tmux.waitFor('[exit 143]');
    expect(app.tmux.display('#{alternate_on}')).toBe('0');
  });
});

const until = (check: () => boolean, what: string) => waitUntil(check, 15_000, what);
