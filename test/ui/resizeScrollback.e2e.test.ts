// Resizing during an approval (docs/ui.md "Scrollback"), with the real binary in tmux: after each resize the pane's
// whole history (scrollback and screen, captured each time: a recording of the pane) holds the live region once —
// no stale copy of the approval panel or of the tool card above it — and the live region ends on the screen's last
// row (not at the top of a blank screen). tmux re-wraps lines on a resize and, with `scroll-on-clear`, moves a screen
// erased from its first row into the scrollback: the two ways a copy used to be left behind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send, tempDir, type Launched } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');

const start = appsClosedAfterEach();
const HEIGHT = 30;

const count = (text: string, needle: string) => text.split(needle).length - 1;

/** Resizes the pane, waits until the panel is drawn at the new width, and returns the pane's whole history. */
async function resizeAndRecord(app: Launched, width: number): Promise<string> {
  app.tmux.resize(width, HEIGHT);
  // The panel's bottom rule ends two columns before the edge.
  await app.tmux.waitFor(new RegExp(`^╰─{${width - 3}}$`, 'm'));
  await app.tmux.waitFor(/esc interrupt · ctrl\+s steer/);
  return app.tmux.all();
}

function expectLiveRegionOnce(history: string, screen: string, width: number): void {
  const where = `at ${width} columns:\n${history}`;
  expect(count(history, 'Approval needed'), where).toBe(1);
  // The tool card is live transcript: on a small screen it may be left out to keep room (never twice).
  expect(count(history, '? Write hello.txt'), where).toBeLessThanOrEqual(1);
  expect(count(history, 'waiting for your approval'), where).toBeLessThanOrEqual(1);
  expect(count(history, 'esc interrupt · ctrl+s steer'), where).toBe(1);
  // What the shell printed before jarvis started is there once, in order.
  expect(count(history, 'shell line 60 before jarvis'), where).toBe(1);
  expect(history.indexOf('shell line 1 before')).toBeLessThan(history.indexOf('shell line 60 before'));
  // The live region ends on the screen's last row.
  const rows = screen.replace(/\n$/, '').split('\n');
  expect(rows, where).toHaveLength(HEIGHT);
  expect(rows[HEIGHT - 1], where).toContain('esc interrupt · ctrl+s steer');
}

describe.skipIf(!hasTmux)('resizing during an approval (tmux)', { timeout: 120_000 }, () => {
  it('leaves no copy of the live region in the scrollback, through one resize and through several', async () => {
    const dir = tempDir('jarvis-resize-');
    const raw = join(dir, 'output.bin');
    const app = await start({
      before: 'for i in $(seq 1 60); do echo "shell line $i before jarvis"; done',
      recordTo: raw,
      turns: [
        { toolCalls: [{ name: 'Write', arguments: { path: 'hello.txt', content: 'hello from the model\n' } }] },
        { text: 'The file is written.' },
      ],
    });
    app.tmux.resize(120, HEIGHT);
    send(app, 'write the file');
    await app.tmux.waitFor(/^╰─{117}$/m);
    await app.tmux.waitFor('? Write hello.txt');

    // The sequence, then a narrower terminal and back in steps.
    for (const width of [80, 120, 100, 60, 90, 120]) {
      const history = await resizeAndRecord(app, width);
      expectLiveRegionOnce(history, app.tmux.screen(), width);
      if (width >= 80) expect(count(history, '? Write hello.txt'), history).toBe(1);
    }

    app.tmux.keys('1');
    await app.tmux.waitFor('The file is written.');
    const after = app.tmux.all();
    // The panel was live only: once answered, no copy of it is anywhere in the history.
    expect(count(after, 'Approval needed'), after).toBe(0);
    expect(count(after, 'waiting for your approval'), after).toBe(0);
    expect(count(after, 'Write hello.txt'), after).toBe(1);
    expect(readFileSync(join(app.cwd, 'hello.txt'), 'utf8')).toBe('hello from the model\n');
    // Nothing cleared the terminal's screen or scrollback.
    const bytes = readFileSync(raw, 'latin1');
    expect(bytes).not.toContain('\x1b[3J');
    expect(bytes).not.toContain('\x1b[2J');
  });
});
