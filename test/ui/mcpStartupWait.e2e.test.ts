// The interactive UI with an MCP server that never answers its handshake (docs/mcp.md, "In a session"):
// after Enter the prompt is on screen and in the journal and the wait is shown with the server's name
// while the server is still silent; Ctrl-C stops the turn, two more exit, and no process of the
// server's group is left. The real binary in tmux; the times are printed, never asserted.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { latestJournal, waitUntil } from '../helpers/cli';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send, tempDir } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

function running(marker: string): number {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length;
  } catch {
    return 0; // pgrep exits 1 when nothing matches
  }
}

function journalHasPrompt(home: string, prompt: string): boolean {
  try {
    return latestJournal(home).some((r) => r.type === 'turn_start' && r.prompt === prompt);
  } catch {
    return false; // not written yet
  }
}

describe.skipIf(!hasTmux)('the UI with an MCP server that never answers (tmux)', { timeout: 90_000 }, () => {
  it('shows and journals the prompt, names the server it waits for, and Ctrl-C leaves no server process', async () => {
    const home = tempDir('jarvis-ui-silent-');
    const marker = `jarvis-ui-silent-${process.pid}-${Math.random().toString(36).slice(2)}`;
    const child = `setInterval(() => {}, 1000) // ${marker}-child`;
    const script =
      `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: 'ignore' });` +
      ` setInterval(() => {}, 1000) // ${marker}`;
    const silent = { command: process.execPath, args: ['-e', script] };
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { silent } }));
    const app = await start({ home, turns: [{ text: 'never sent' }] });
    await waitUntil(() => running(`${marker}-child`) > 0, 20_000, "the silent server's child");
    const entered = Date.now();
    send(app, 'hello silent server');
    await app.tmux.waitFor('hello silent server', { timeoutMs: 10_000 });
    const onScreen = Date.now() - entered;
    await waitUntil(() => journalHasPrompt(home, 'hello silent server'), 10_000, 'the prompt in the journal');
    const journalled = Date.now() - entered;
    await app.tmux.waitFor(/Waiting for MCP servers? .*"silent"/, { timeoutMs: 10_000 });
    console.log(
      `TUI, never-answering server: prompt on screen ${onScreen} ms, in the journal ${journalled} ms after Enter`,
    );
    expect(app.server.requests).toHaveLength(0);

    const pressed = Date.now();
    app.tmux.keys('C-c');
    await waitUntil(() => latestJournal(home).some((r) => r.type === 'turn_end'), 10_000, 'the turn to end');
    app.tmux.keys('C-c');
    await app.tmux.waitFor('Press Ctrl-C again');
    app.tmux.keys('C-c');
    await app.tmux.waitFor('[exit 0]', { timeoutMs: 10_000 });
    console.log(`TUI, never-answering server: exited ${Date.now() - pressed} ms after the first of three Ctrl-C`);
    expect(latestJournal(home).find((r) => r.type === 'turn_end')).toMatchObject({ reason: 'cancelled' });
    await waitUntil(() => running(marker) === 0, 5_000, 'no process of the silent server');
    expect(running(marker)).toBe(0);
  });
});
