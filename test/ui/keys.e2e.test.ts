// The UI's keys end to end (docs/ui.md, "Keys"): steer, queueing, the external editor, new lines,
// exiting and the session picker — the real binary in tmux against the mock model server.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send, tempDir, waitForRequests, type Launched } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');

const start = appsClosedAfterEach();

/** The user messages of request `i` (chat wire format), each as its text. */
function userMessages(app: Launched, i: number): string[] {
  const messages: Array<{ role: string; content: unknown }> = app.server.requests[i]?.body?.messages ?? [];
  return messages
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : (m.content as Array<{ type: string; text?: string }>)
            .map((p) => (p.type === 'text' ? (p.text ?? '') : ''))
            .join(''),
    );
}

/** Polls (bounded) until `file` holds `text`. */
async function waitForFileText(file: string, text: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(file) && readFileSync(file, 'latin1').includes(text)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${JSON.stringify(text)} in ${file}`);
}

/** How many user turns the transcript shows (each starts with a "> prompt" line; steers show "» … (steer)"). */
function turnsStarted(screenAll: string): number {
  return (screenAll.match(/^ ?> /gm) ?? []).length;
}

/** The programs the pane's shell runs now: `node` while the UI runs; nothing once it has exited (the shell then execs its `sleep`). */
function paneChild(app: Launched): string {
  const pid = execFileSync('tmux', ['-L', app.tmux.socket, 'display-message', '-p', '-t', 'main', '#{pane_pid}'], {
    encoding: 'utf8',
  }).trim();
  try {
    return execFileSync('ps', ['-o', 'comm=', '--ppid', pid], { encoding: 'utf8' }).trim();
  } catch {
    return ''; // no child at all
  }
}

/** Waits a little and checks the text did not appear (for "nothing happens" checks). */
async function staysAbsent(app: Launched, text: string, ms = 800): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    expect(app.tmux.screen()).not.toContain(text);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const longText = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe.skipIf(!hasTmux)('interactive UI keys (tmux)', { timeout: 60_000 }, () => {
  it('Ctrl-S steers a running tool step: the next request of the same turn carries the steer', async () => {
    const app = await start({
      args: ['--yolo'],
      turns: [
        // The tool waits for a file the test creates once the steer is in, so the order is certain.
        {
          toolCalls: [
            { name: 'Bash', arguments: { command: 'while [ ! -f go ]; do sleep 0.05; done; echo released' } },
          ],
        },
        { text: 'Steered answer.' },
      ],
    });
    send(app, 'run the slow command');
    await waitForRequests(app, 1);
    await app.tmux.waitFor('-f go');
    await app.tmux.waitFor('ctrl+s steer');
    app.tmux.type('use the other approach');
    app.tmux.keys('C-s');
    await app.tmux.waitFor('use the other approach (steer)');
    writeFileSync(join(app.cwd, 'go'), '');
    await app.tmux.waitFor('Steered answer.');
    await app.tmux.waitForGone('ctrl+s steer');
    expect(app.server.requests).toHaveLength(2);
    // The same turn: one prompt, then the tool result, then the steer as a user message.
    expect(userMessages(app, 1)).toEqual(['run the slow command', 'use the other approach']);
    const second = app.server.requests[1].body.messages as Array<{ role: string }>;
    expect(second.map((m) => m.role).slice(-3)).toEqual(['assistant', 'tool', 'user']);
    expect(turnsStarted(app.tmux.all())).toBe(1);
  });

  it('Ctrl-S while an answer streams gives the steer to the model in the next request', async () => {
    const app = await start({
      turns: [{ text: longText(60), chunkDelayMs: 50 }, { text: 'Taking the steer into account.' }],
    });
    send(app, 'talk for a while');
    await app.tmux.waitFor('word0');
    app.tmux.type('be brief');
    app.tmux.keys('C-s');
    await app.tmux.waitFor('be brief (steer)');
    expect(app.tmux.screen()).not.toContain('word59');
    await app.tmux.waitFor('Taking the steer into account.', { timeoutMs: 20_000 });
    await app.tmux.waitForGone('ctrl+s steer');
    expect(app.server.requests).toHaveLength(2);
    expect(userMessages(app, 1)).toEqual(['talk for a while', 'be brief']);
    const second = app.server.requests[1].body.messages as Array<{ role: string; content: unknown }>;
    expect(second.slice(-2).map((m) => m.role)).toEqual(['assistant', 'user']);
    expect(JSON.stringify(second.at(-2)?.content)).toContain('word59');
  });

  // A step that ends without tool calls must not end the turn while a steer waits: the steer is answered
  // in the same turn (it used to be drained as a turn of its own).
  it('Ctrl-S while an answer streams keeps the same turn (no second "> prompt")', async () => {
    const app = await start({
      turns: [{ text: longText(60), chunkDelayMs: 50 }, { text: 'Taking the steer into account.' }],
    });
    send(app, 'talk for a while');
    await app.tmux.waitFor('word0');
    app.tmux.type('be brief');
    app.tmux.keys('C-s');
    await app.tmux.waitFor('be brief (steer)');
    await app.tmux.waitFor('Taking the steer into account.', { timeoutMs: 20_000 });
    await app.tmux.waitForGone('ctrl+s steer');
    const all = app.tmux.all();
    expect(all).not.toMatch(/^ ?> be brief/m);
    expect(turnsStarted(all)).toBe(1);
  });

  it('Enter while the agent works queues the message and sends it as its own prompt after the turn', async () => {
    const app = await start({ turns: [{ text: longText(40), chunkDelayMs: 40 }, { text: 'Second answer.' }] });
    send(app, 'first prompt');
    await app.tmux.waitFor('word0');
    send(app, 'second prompt');
    await app.tmux.waitFor('queued: second prompt');
    expect(app.server.requests).toHaveLength(1);
    await app.tmux.waitFor('Second answer.', { timeoutMs: 20_000 });
    await app.tmux.waitForGone('queued: second prompt');
    expect(app.server.requests).toHaveLength(2);
    expect(userMessages(app, 0)).toEqual(['first prompt']);
    expect(userMessages(app, 1)).toEqual(['first prompt', 'second prompt']);
    // The first answer was complete before the queued prompt went out.
    const second = app.server.requests[1].body.messages as Array<{ role: string; content: unknown }>;
    expect(second.slice(-2).map((m) => m.role)).toEqual(['assistant', 'user']);
    expect(JSON.stringify(second.at(-2)?.content)).toContain('word39');
    const all = app.tmux.all();
    expect(all.indexOf('word39')).toBeLessThan(all.lastIndexOf('> second prompt'));
  });

  it('Ctrl-G edits the input in $VISUAL and Enter sends what the editor wrote', async () => {
    const tools = tempDir('jarvis-ui-editor-');
    const editor = join(tools, 'fake-editor.sh');
    // Appends to the text it was given, so the test sees both directions of the hand-over.
    writeFileSync(
      editor,
      '#!/bin/sh\n{ cat "$1"; printf \' and more from the editor\\nsecond line\\n\'; } > "$1.new" && mv "$1.new" "$1"\n',
    );
    chmodSync(editor, 0o755);
    const app = await start({
      turns: [{ text: 'Got the edited text.' }],
      env: { VISUAL: editor, EDITOR: '/bin/false' },
    });
    await app.tmux.waitFor('manual · any');
    app.tmux.type('draft');
    await app.tmux.waitFor('draft');
    app.tmux.keys('C-g');
    const screen = await app.tmux.waitFor('draft and more from the editor');
    expect(screen).toContain('second line');
    expect(app.server.requests).toHaveLength(0);
    app.tmux.keys('Enter');
    await app.tmux.waitFor('Got the edited text.');
    expect(userMessages(app, 0)).toEqual(['draft and more from the editor\nsecond line']);
  });

  it('Ctrl-J inserts a new line instead of sending', async () => {
    const app = await start({ turns: [{ text: 'Two lines received.' }] });
    await app.tmux.waitFor('manual · any');
    app.tmux.type('line one');
    app.tmux.keys('C-j');
    app.tmux.type('line two');
    await app.tmux.waitFor(/^line one\s*\nline two\s*$/m);
    expect(app.server.requests).toHaveLength(0);
    app.tmux.keys('Enter');
    await app.tmux.waitFor('Two lines received.');
    expect(userMessages(app, 0)).toEqual(['line one\nline two']);
  });

  it('Shift-Enter inserts a new line where the terminal reports it (tmux extended-keys: the UI asks for modifyOtherKeys)', async () => {
    const output = join(tempDir('jarvis-ui-keys-out-'), 'pane.out');
    const app = await start({
      turns: [{ text: 'Two lines received.' }],
      tmuxServerOptions: { 'extended-keys': 'on' },
      recordTo: output,
    });
    await app.tmux.waitFor('manual · any');
    // The UI asks for modifyOtherKeys a moment after start (when the terminal does not answer the kitty query);
    // a key sent before tmux has seen that request cannot be reported as Shift-Enter.
    await waitForFileText(output, '\x1b[>4;2m');
    app.tmux.type('line one');
    app.tmux.keys('S-Enter');
    app.tmux.type('line two');
    await app.tmux.waitFor(/^line one\s*\nline two\s*$/m);
    expect(app.server.requests).toHaveLength(0);
    app.tmux.keys('Enter');
    await app.tmux.waitFor('Two lines received.');
    expect(userMessages(app, 0)).toEqual(['line one\nline two']);
  });

  it('Ctrl-D exits on empty input and deletes a character otherwise', async () => {
    const app = await start({});
    await app.tmux.waitFor('manual · any');
    app.tmux.type('abc');
    app.tmux.keys('Home', 'C-d');
    await app.tmux.waitFor(/^bc\s*$/m);
    expect(app.tmux.screen()).not.toContain('[exit');
    app.tmux.keys('C-d');
    await app.tmux.waitFor(/^c\s*$/m);
    app.tmux.keys('C-d');
    await app.tmux.waitForGone(/^c\s*$/m);
    expect(app.tmux.screen()).not.toContain('[exit');
    expect(paneChild(app)).toBe('node');
    app.tmux.keys('C-d');
    await app.tmux.waitFor('[exit 0]');
    expect(paneChild(app)).not.toContain('node');
  });

  it('Ctrl-C once shows the hint and keeps running; twice exits', async () => {
    const app = await start({ turns: [{ text: 'still here' }] });
    await app.tmux.waitFor('manual · any');
    app.tmux.keys('C-c');
    await app.tmux.waitFor('Press Ctrl-C again');
    await staysAbsent(app, '[exit');
    // Another key disarms it: the next Ctrl-C only shows the hint again.
    send(app, 'are you there');
    await app.tmux.waitFor('still here');
    await app.tmux.waitForGone('Press Ctrl-C again');
    app.tmux.keys('C-c');
    await app.tmux.waitFor('Press Ctrl-C again');
    await staysAbsent(app, '[exit', 300);
    expect(paneChild(app)).toBe('node');
    app.tmux.keys('C-c');
    const after = await app.tmux.waitFor('[exit 0]');
    expect(after).toMatch(/Resume this session with: jarvis --session \S+/);
    expect(paneChild(app)).not.toContain('node');
  });

  it('--session without an id opens the picker; choosing a session shows its history', async () => {
    const home = tempDir('jarvis-ui-home-');
    const cwd = tempDir('jarvis-ui-cwd-');
    const first = await start({
      home,
      cwd,
      turns: [{ text: 'The capital is Paris.' }, { text: 'Back in the old session.' }],
    });
    send(first, 'what is the capital of France');
    await first.tmux.waitFor('The capital is Paris.');
    first.tmux.keys('C-d');
    await first.tmux.waitFor('[exit 0]');

    const second = await start({ home, cwd, server: first.server, answerTrust: false, args: ['--session'] });
    const picker = await second.tmux.waitFor('Resume a session');
    expect(picker).toContain('what is the capital of France');
    expect(picker).not.toContain('The capital is Paris.');
    second.tmux.keys('Enter');
    const screen = await second.tmux.waitFor('Resumed session');
    expect(screen).toContain('> what is the capital of France');
    expect(screen).toContain('The capital is Paris.');
    send(second, 'and now');
    await second.tmux.waitFor('Back in the old session.');
    expect(userMessages(second, 1)).toEqual(['what is the capital of France', 'and now']);
  });
});
