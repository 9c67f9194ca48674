// The scrollback rule (docs/ui.md "Scrollback") with the real binary in tmux: what the shell printed before
// `jarvis` started is still in the terminal's history after a resize and an /undo, and the UI never writes the
// sequence that erases a terminal's scrollback (ESC [3J).
import { readFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send, tempDir } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');

const start = appsClosedAfterEach();

describe.skipIf(!hasTmux)('scrollback (tmux)', { timeout: 60_000 }, () => {
  it('keeps the text printed before jarvis started through a resize and an /undo', async () => {
    const dir = tempDir('jarvis-scrollback-');
    const raw = join(dir, 'output.bin');
    try {
      const app = await start({
        // More lines than the 40-row window: some are already in the history when the UI opens.
        before: 'for i in $(seq 1 60); do echo "shell line $i before jarvis"; done',
        turns: [{ text: 'First answer.' }, { text: 'Second answer.' }],
        answerTrust: false,
      });
      app.tmux.recordOutput(raw);
      await app.tmux.waitFor("Don't trust", { timeoutMs: 20_000 });
      app.tmux.keys('Enter');
      await app.tmux.waitForGone("Don't trust");
      send(app, 'first prompt');
      await app.tmux.waitFor('First answer.');
      send(app, 'second prompt');
      await app.tmux.waitFor('Second answer.');

      const rules = (text: string, width: number) => text.match(new RegExp(`^─{${width}}$`, 'gm'))?.length ?? 0;
      const drawn = rules(app.tmux.screen(), 120);
      expect(drawn).toBeGreaterThan(0);
      app.tmux.resize(90, 30);
      await app.tmux.waitFor(/^─{90}$/m);
      app.tmux.resize(120, 40);
      // The live region is drawn once at the new width: no stale copy of it is left on the screen.
      const resized = await app.tmux.waitFor(/^─{120}$/m);
      expect(rules(resized, 120)).toBe(drawn);
      send(app, '/undo');
      await app.tmux.waitFor('Withdraw prompts (undo)');
      app.tmux.keys('Enter');
      await app.tmux.waitFor('Withdrew the last prompt');
      await app.tmux.waitFor(/^\s?second prompt\s*$/m);

      const history = app.tmux.all();
      for (const i of [1, 30, 60]) expect(history).toContain(`shell line ${i} before jarvis`);
      // In order, once each: nothing was reprinted over or cleared.
      expect(history.indexOf('shell line 1 before')).toBeLessThan(history.indexOf('shell line 60 before'));
      expect(history.match(/shell line 60 before jarvis/g)).toHaveLength(1);
      expect(history.indexOf('shell line 60 before')).toBeLessThan(history.indexOf('First answer.'));
      expect(existsSync(raw)).toBe(true);
      const bytes = readFileSync(raw, 'latin1');
      expect(bytes).toContain('Withdrew the last prompt');
      expect(bytes).not.toContain('\x1b[3J');
      expect(bytes).not.toContain('\x1b[2J');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
