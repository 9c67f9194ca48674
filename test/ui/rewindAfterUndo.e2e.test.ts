// /rewind after /undo, with the real binary in tmux: the prompt /undo withdrew is not offered again,
// live and after `--continue` replays the journal (docs/sessions.md "Rewind").
import { describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send, tempDir } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');

const start = appsClosedAfterEach();

/** The picker's part of the screen: the withdrawn turn may still be in the transcript above it. */
function picker(screen: string): string {
  return screen.slice(screen.lastIndexOf('Rewind to before a prompt'));
}

describe.skipIf(!hasTmux)('/rewind after /undo (tmux)', { timeout: 90_000 }, () => {
  it('does not list the withdrawn prompt, live and after --continue', async () => {
    const home = tempDir('jarvis-ui-home-');
    const cwd = tempDir('jarvis-ui-cwd-');
    const first = await start({
      home,
      cwd,
      turns: [{ text: 'Answered alpha.' }, { text: 'Answered bravo.' }],
    });
    send(first, 'prompt alpha');
    await first.tmux.waitFor('Answered alpha.');
    send(first, 'prompt bravo');
    await first.tmux.waitFor('Answered bravo.');
    send(first, '/undo 1');
    await first.tmux.waitFor('Withdrew the last prompt');
    // The withdrawn prompt is back in the input box; clear it so the picker is all that names it.
    first.tmux.keys('C-u');
    send(first, '/rewind');
    const live = picker(await first.tmux.waitFor('Rewind to before a prompt'));
    expect(live).toContain('prompt alpha');
    expect(live).not.toContain('prompt bravo');
    first.tmux.keys('Escape');
    await first.tmux.waitForGone('Rewind to before a prompt');
    first.tmux.keys('C-c');
    await first.tmux.waitFor('Press Ctrl-C again');
    first.tmux.keys('C-c');
    await first.tmux.waitFor('[exit 0]');

    const second = await start({ home, cwd, server: first.server, answerTrust: false, args: ['--continue'] });
    await second.tmux.waitFor('Resumed session');
    send(second, '/rewind');
    const resumed = picker(await second.tmux.waitFor('Rewind to before a prompt'));
    expect(resumed).toContain('prompt alpha');
    expect(resumed).not.toContain('prompt bravo');
  });
});
