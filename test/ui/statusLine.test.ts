// The status line (docs/ui.md "Status line"): the items of tui.toml `[status_line] items`, and the
// external command — JSON on stdin, first line shown, throttled, stopped after its time limit, stale
// output kept until a new run ends, failures reported once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/cli';
import { processesRunning } from '../helpers/processes';
import { Footer, compactCount, type FooterState } from '../../src/ui/footer';
import { firstLine, StatusLineCommand } from '../../src/ui/statusLineCommand';
import { statusSnapshot } from '../../src/ui/tuiPreferences';
import { loadTheme } from '../../src/ui/theme';

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const theme = loadTheme('dark', '/nonexistent').theme;
const base: FooterState = {
  mode: 'manual',
  plan: false,
  model: 'gpt',
  contextTokens: 500,
  contextLimit: 1000,
  cwd: '/w/p',
  branch: 'main',
  shell: false,
  busy: false,
};
const footer = (s: Partial<FooterState>) =>
  new Footer(
    () => theme,
    () => ({ ...base, ...s }),
  )
    .render(200)
    .map(plain);

const until = (check: () => boolean, what: string) => waitUntil(check, 10_000, what);

describe('footer items', () => {
  it('the default layout: mode, model, context, cwd, branch, then the tips line', () => {
    expect(footer({})).toEqual([
      'manual · gpt · context 50% · /w/p · ⎇ main',
      '/ commands · @ files · ! shell · shift+tab mode/plan · esc esc undo · ctrl+o expand',
    ]);
    expect(footer({ tasks: 2 })[0]).toBe('manual · gpt · context 50% · 2 tasks running · /w/p · ⎇ main');
  });

  it('[status_line] items pick and order the items; without tips only hints that matter show', () => {
    expect(footer({ items: ['git', 'model', 'tokens'], tokens: { input: 12_345, output: 950 } })).toEqual([
      '⎇ main · gpt · ↑12k ↓950 tokens',
    ]);
    expect(footer({ items: ['model'], hint: 'Press Ctrl-C again to exit (Ctrl-D also exits)' })).toEqual([
      'gpt',
      'Press Ctrl-C again to exit (Ctrl-D also exits)',
    ]);
    expect(footer({ items: ['mode', 'goal'], mode: 'yolo', plan: true, goal: { status: 'active', turns: 2 } })[0]).toBe(
      'YOLO · PLAN · goal active (2 turns)',
    );
  });

  it("the command's line replaces the status line and keeps the hint line", () => {
    expect(footer({ custom: 'my status' })).toEqual(['my status', expect.stringContaining('/ commands')]);
  });

  it('counts read compactly', () => {
    expect([
      compactCount(0),
      compactCount(999),
      compactCount(1000),
      compactCount(1530),
      compactCount(12_345),
      compactCount(2_500_000),
    ]).toEqual(['0', '999', '1k', '1.5k', '12k', '2.5M']);
  });

  it('the snapshot the command gets', () => {
    expect(
      statusSnapshot({ ...base, tokens: { input: 3, output: 4 }, tasks: 1 }, { version: '1.2.3', sessionId: 's1' }),
    ).toEqual({
      version: '1.2.3',
      session_id: 's1',
      cwd: '/w/p',
      model: 'gpt',
      git_branch: 'main',
      permission_mode: 'manual',
      plan_mode: false,
      swarm_mode: false,
      busy: false,
      context: { used_tokens: 500, limit_tokens: 1000, percent: 50 },
      tokens: { input: 3, output: 4 },
      background_tasks: 1,
      goal: null,
    });
  });
});

describe('firstLine', () => {
  it('keeps colours, drops cursor motion, OSC and control characters, skips blank lines', () => {
    expect(firstLine('\n  \n\x1b[31mred\x1b[0m\x1b[2J\x1b]0;title\x07 ok\x07\tx\r\nsecond')).toBe(
      '\x1b[31mred\x1b[0m ok x',
    );
    expect(firstLine('')).toBeUndefined();
  });
});

describe('the status-line command', () => {
  let dir: string;
  const commands: StatusLineCommand[] = [];
  const make = (command: string, opts: { intervalMs?: number; timeoutMs?: number } = {}) => {
    dir = mkdtempSync(join(tmpdir(), 'jarvis-status-'));
    const errors: string[] = [];
    let changes = 0;
    const c = new StatusLineCommand({
      command,
      cwd: dir,
      env: process.env,
      onChange: () => changes++,
      onError: (m) => errors.push(m),
      ...opts,
    });
    commands.push(c);
    return { c, errors, changes: () => changes };
  };
  afterEach(() => {
    for (const c of commands.splice(0)) c.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gets the snapshot as JSON on stdin and shows its first line', async () => {
    const { c, changes } = make('cat; echo; echo second');
    c.update({ model: 'gpt', n: 1 });
    await until(() => c.line !== undefined, 'the line');
    expect(c.line).toBe('{"model":"gpt","n":1}');
    expect(changes()).toBe(1);
  });

  it('runs only when the snapshot changed, at most once per interval, with the newest snapshot', async () => {
    const { c } = make('cat', { intervalMs: 200 });
    c.update({ n: 1 });
    c.update({ n: 2 });
    c.update({ n: 3 });
    await until(() => c.line === '{"n":3}', 'the newest snapshot');
    expect(c.runs).toBe(2);
    c.update({ n: 3 });
    c.update({ n: 3 });
    expect(c.runs).toBe(2);
  });

  it('a hanging command does not hold the caller, keeps the last line until it is stopped, and is killed', async () => {
    const marker = `sleep 77${process.pid % 100}`;
    const { c, errors } = make(`read -r x; case "$x" in *slow*) exec ${marker};; *) echo "fast $x";; esac`, {
      intervalMs: 0,
      timeoutMs: 300,
    });
    c.update({ speed: 'fast' });
    await until(() => c.line === 'fast {"speed":"fast"}', 'the first line');
    c.update({ speed: 'slow' }); // returns at once: the run goes on in the background
    expect(c.runs).toBe(2);
    expect(c.line).toBe('fast {"speed":"fast"}');
    await until(() => errors.length === 1, 'the time limit');
    expect(errors[0]).toBe(
      'The status-line command took longer than 300 ms and was stopped; showing the built-in status line.',
    );
    expect(c.line).toBeUndefined();
    await until(() => processesRunning(marker) === 0, 'the hanging command to be killed');
  });

  it('reports a failure once, not on every run, and again after a success', async () => {
    const { c, errors } = make('read -r x; case "$x" in *ok*) echo fine;; *) echo "no luck" >&2; exit 3;; esac', {
      intervalMs: 0,
    });
    c.update({ state: 'bad 1' });
    await until(() => c.runs === 1 && errors.length === 1, 'the first failure');
    c.update({ state: 'bad 2' });
    await until(() => c.runs === 2, 'the second run');
    c.update({ state: 'ok' });
    await until(() => c.line === 'fine', 'the success');
    c.update({ state: 'bad 3' });
    await until(() => errors.length === 2, 'the failure after the success');
    expect(errors).toEqual(
      Array(2).fill('The status-line command exited with code 3: no luck; showing the built-in status line.'),
    );
  });
});
