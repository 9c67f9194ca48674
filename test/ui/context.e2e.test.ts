// Context commands in the interactive UI — /compact, /undo (and Esc Esc), /fork, /export-md, /usage —
// with the real binary in tmux against the mock model server.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { requestText, send, waitForRequests, appsClosedAfterEach } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');

const start = appsClosedAfterEach();

describe.skipIf(!hasTmux)('context commands (tmux)', { timeout: 60_000 }, () => {
  it('/compact sends the instruction to the summariser and shows the compaction (Ctrl-O: the summary)', async () => {
    const app = await start({
      turns: [
        { text: 'Hello back.' },
        { text: 'Summary: the user greeted me and I answered.' },
        { text: 'Still here.' },
      ],
    });
    send(app, 'hello');
    await app.tmux.waitFor('Hello back.');
    send(app, '/compact keep the greeting verbatim');
    await app.tmux.waitFor('Conversation compacted');
    const summariser = requestText(app, 1);
    expect(summariser).toContain('<user-instruction>');
    expect(summariser).toContain('keep the greeting verbatim');
    expect(app.tmux.screen()).toContain('Instruction: keep the greeting verbatim');
    app.tmux.keys('C-o');
    await app.tmux.waitFor('Summary: the user greeted me and I answered.');
    app.tmux.keys('C-o');
    send(app, 'are you there?');
    await app.tmux.waitFor('Still here.');
    expect(requestText(app, 2)).toContain('compaction-summary');
  });

  it('Esc Esc opens the undo selector; undo puts the prompt back and the model no longer sees the turn', async () => {
    const app = await start({ turns: [{ text: 'Answer one.' }, { text: 'Answer two.' }, { text: 'Answer three.' }] });
    send(app, 'first prompt');
    await app.tmux.waitFor('Answer one.');
    send(app, 'second prompt');
    await app.tmux.waitFor('Answer two.');
    app.tmux.keys('Escape');
    app.tmux.keys('Escape');
    const selector = await app.tmux.waitFor('Withdraw prompts (undo)');
    expect(selector).toContain('first prompt');
    app.tmux.keys('Enter');
    await app.tmux.waitFor('Withdrew the last prompt');
    // The notice and the restored input box may land in different frames: wait for the box.
    const after = await app.tmux.waitFor(/^\s?second prompt\s*$/m);
    // What was printed stays where the user saw it (docs/ui.md "Scrollback"); the model no longer sees it (below).
    expect(after).toContain('Answer two.');
    expect(after).toContain('Answer one.');
    app.tmux.keys('C-u');
    send(app, 'replacement prompt');
    await app.tmux.waitFor('Answer three.');
    const body = requestText(app, 2);
    expect(body).toContain('first prompt');
    expect(body).toContain('replacement prompt');
    expect(body).not.toContain('second prompt');
    expect(body).not.toContain('Answer two.');
  });

  it('/undo <n> withdraws several prompts; commands that need idle are refused while a turn runs', async () => {
    const long = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const app = await start({ turns: [{ text: 'One.' }, { text: 'Two.' }, { text: long, chunkDelayMs: 120 }] });
    send(app, 'p1');
    await app.tmux.waitFor('One.');
    send(app, 'p2');
    await app.tmux.waitFor('Two.');
    send(app, '/undo 2');
    await app.tmux.waitFor('Withdrew 2 prompts');
    app.tmux.keys('C-u');
    send(app, 'p3');
    await app.tmux.waitFor('w0');
    send(app, '/compact');
    await app.tmux.waitFor('/compact is not available while the agent works');
    send(app, '/fork');
    await app.tmux.waitFor('/fork is not available while the agent works');
    app.tmux.keys('Escape');
    await app.tmux.waitFor('Interrupted.');
    await waitForRequests(app, 3);
    expect(requestText(app, 2)).not.toContain('p1');
  });

  it('/fork prints the resume command; /export-md writes the engine transcript; /usage shows the breakdown', async () => {
    const app = await start({ turns: [{ text: 'Forty-two.' }] });
    send(app, 'what is the answer');
    await app.tmux.waitFor('Forty-two.');
    send(app, '/fork');
    const forked = await app.tmux.waitFor(/jarvis --session \S+/);
    const id = /jarvis --session (\S+)/.exec(forked)![1];
    expect(forked).toContain('You are still in');
    expect(id).not.toBe('');
    send(app, '/export-md out.md');
    await app.tmux.waitFor('Exported to');
    const md = readFileSync(join(app.cwd, 'out.md'), 'utf8');
    expect(md).toContain('## User\n\nwhat is the answer');
    expect(md).toContain('Forty-two.');
    send(app, '/usage');
    const usage = await app.tmux.waitFor('Tool schemas');
    expect(usage).toContain('System prompt');
    expect(usage).toContain('Session totals');
    expect(existsSync(join(app.cwd, 'out.md'))).toBe(true);
  });
});
