// `/goal next manage`: the queue of upcoming goals edited in a panel — reorder, edit (with new lines),
// delete — and saved into the session's queue; Esc leaves the queue as it was.
import type { Component } from '@mariozechner/pi-tui';
import { describe, expect, it } from 'vitest';
import { GoalQueuePanel } from '../../src/ui/dialogs/goalQueuePanel';
import { GOAL_COMMAND } from '../../src/ui/goalCommand';
import type { CommandHost, PanelHost } from '../../src/ui/slashCommands';
import { loadTheme } from '../../src/ui/theme';
import { makeEngine, verifyEnginesAfterEach } from '../helpers/engineHarness';

verifyEnginesAfterEach();

const theme = loadTheme('dark', '/nonexistent').theme;
const plain = (lines: string[]) => lines.join('\n').replace(/\x1b\[[0-9;]*m/g, '');
const KEYS = { up: '\x1b[A', down: '\x1b[B', enter: '\r', escape: '\x1b', ctrlJ: '\n', shiftEnterKitty: '\x1b[13;2u' };

function open(goals: string[]) {
  const engine = makeEngine({ responses: [] });
  engine.runtime.goals.setUpcoming(goals);
  const notices: string[] = [];
  let panel: GoalQueuePanel | undefined;
  const host = {
    runtime: engine.runtime,
    theme,
    notice: (_level: string, text: string) => void notices.push(text),
    showPanel(make: (h: PanelHost) => Component) {
      panel = make({
        close: () => (panel = undefined),
        terminal: { rows: 40, columns: 100 },
        requestRender: () => undefined,
      }) as GoalQueuePanel;
    },
  } as unknown as CommandHost;
  const run = () => GOAL_COMMAND.run(host, 'next manage');
  const press = (...keys: string[]) => {
    for (const k of keys)
      for (const piece of k.length > 1 && !k.startsWith('\x1b') ? [...k] : [k]) panel!.handleInput(piece);
  };
  return {
    engine,
    notices,
    run,
    press,
    get panel() {
      return panel;
    },
  };
}

describe('/goal next manage', () => {
  it('reorders, edits (with a new line) and deletes, then saves the queue', () => {
    const q = open(['first', 'second', 'third', 'fourth']);
    q.run();
    expect(plain(q.panel!.render(80))).toContain('1. first');
    q.press(KEYS.down, ' ', KEYS.down, ' '); // "second" moves below "third"
    expect(q.panel!.goals).toEqual(['first', 'third', 'second', 'fourth']);
    q.press(KEYS.up, KEYS.up, 'e');
    expect(q.panel!.editing).toBe(true);
    q.press(' goal', KEYS.ctrlJ, 'with details', KEYS.enter);
    expect(q.panel!.goals[0]).toBe('first goal\nwith details');
    q.press(KEYS.down, KEYS.down, KEYS.down, 'd');
    expect(q.panel!.goals).toEqual(['first goal\nwith details', 'third', 'second']);
    q.press(KEYS.enter);
    expect(q.panel).toBeUndefined();
    expect(q.engine.runtime.goals.upcoming()).toEqual(['first goal\nwith details', 'third', 'second']);
    expect(q.notices).toEqual(['Saved the queue: 3 upcoming goals.']);
  });

  it('Esc leaves the queue as it was; Esc in the edit field drops only the edit', () => {
    const q = open(['one', 'two']);
    q.run();
    q.press('e', 'X', KEYS.escape);
    expect(q.panel!.goals).toEqual(['one', 'two']);
    q.press('d', KEYS.escape);
    expect(q.panel).toBeUndefined();
    expect(q.engine.runtime.goals.upcoming()).toEqual(['one', 'two']);
  });

  it('an empty edit is refused; a queue that changed meanwhile is not overwritten', () => {
    const q = open(['one', 'two']);
    q.run();
    q.press('e', '\x7f', '\x7f', '\x7f', KEYS.enter);
    expect(plain(q.panel!.render(80))).toContain('A goal cannot be empty');
    q.press(KEYS.escape, 'd');
    q.engine.runtime.goals.setUpcoming(['two']); // the first queued goal started meanwhile
    q.press(KEYS.enter);
    expect(plain(q.panel!.render(80))).toContain('The queue changed while it was open');
    expect(q.engine.runtime.goals.upcoming()).toEqual(['two']);
  });

  it('says so when there is nothing queued', () => {
    const q = open([]);
    q.run();
    expect(q.panel).toBeUndefined();
    expect(q.notices).toEqual(['No upcoming goals.']);
  });

  it('the panel draws the picked goal and the keys of each mode', () => {
    const panel = new GoalQueuePanel(theme, {
      goals: ['a', 'b'],
      onSave: () => undefined,
      onClose: () => undefined,
      terminal: { rows: 40, columns: 80 },
      requestRender: () => undefined,
    });
    expect(plain(panel.render(120))).toContain('Space pick up to move · E edit · D delete · Enter save · Esc cancel');
    panel.handleInput(' ');
    expect(plain(panel.render(80))).toContain('1. ↕ a');
    expect(plain(panel.render(80))).toContain('↑/↓ move the goal');
  });
});
