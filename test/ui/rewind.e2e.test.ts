// /rewind in the interactive UI, with the real binary in tmux against the mock model server: pick a
// prompt, choose "Conversation and files", and both the file and the conversation go back; Esc Esc
// offers the same picker next to undo.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, requestText, send } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');

const start = appsClosedAfterEach();

describe.skipIf(!hasTmux)('/rewind (tmux)', { timeout: 90_000 }, () => {
  it('choosing "Conversation and files" restores the file, withdraws the prompt and puts it back in the input', async () => {
    const app = await start({
      args: ['--yolo'],
      turns: [
        { toolCalls: [{ name: 'Write', arguments: { path: 'notes.txt', content: 'version one\n' } }] },
        { text: 'Wrote the notes.' },
        { toolCalls: [{ name: 'Read', arguments: { path: 'notes.txt' } }] },
        {
          toolCalls: [
            { name: 'Edit', arguments: { path: 'notes.txt', old_string: 'version one', new_string: 'version two' } },
          ],
        },
        { text: 'Changed the notes.' },
        { text: 'Fresh answer.' },
      ],
    });
    const file = join(app.cwd, 'notes.txt');
    send(app, 'write the notes');
    await app.tmux.waitFor('Wrote the notes.');
    send(app, 'change the notes');
    await app.tmux.waitFor('Changed the notes.');
    expect(readFileSync(file, 'utf8')).toBe('version two\n');

    send(app, '/rewind');
    const prompts = await app.tmux.waitFor('Rewind to before a prompt');
    expect(prompts).toContain('change the notes');
    expect(prompts).toMatch(/1 file changed since/);
    app.tmux.keys('Enter');
    const scopes = await app.tmux.waitFor('Conversation and files');
    expect(scopes).toContain('Files only');
    expect(scopes).toContain('Conversation only (undo)');
    app.tmux.keys('Enter');

    const after = await app.tmux.waitFor('Rewound the conversation and the files');
    expect(after).toContain('1 file restored');
    // The rewound turn stays in the scrollback where the user saw it (docs/ui.md "Scrollback").
    expect(after).toContain('Wrote the notes.');
    expect(after).toMatch(/^\s?change the notes\s*$/m);
    expect(readFileSync(file, 'utf8')).toBe('version one\n');

    app.tmux.keys('C-u');
    send(app, 'something else');
    await app.tmux.waitFor('Fresh answer.');
    const body = requestText(app, 5);
    expect(body).toContain('write the notes');
    expect(body).toContain('something else');
    expect(body).not.toContain('change the notes');

    // Esc Esc offers the rewind next to undo: the last item of the undo selector.
    app.tmux.keys('Escape');
    app.tmux.keys('Escape');
    const selector = await app.tmux.waitFor('Withdraw prompts (undo)');
    expect(selector).toContain('put the files back too (/rewind)');
    app.tmux.keys('3');
    await app.tmux.waitFor('Rewind to before a prompt');
    app.tmux.keys('Escape');
    await app.tmux.waitForGone('Rewind to before a prompt');
  });
});
