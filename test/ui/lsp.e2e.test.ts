// docs/lsp.md "/lsp", end to end in tmux: after the first message, /lsp shows the session's configured servers from
// the runtime's language-server manager, none started yet in a folder without source files.
import { describe, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send, waitForRequests } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

describe.runIf(hasTmux)('/lsp in the TUI', () => {
  it('before a session says so; after the first message lists the servers as not started', async () => {
    const app = await start({ turns: [{ text: 'hello back' }] });
    send(app, '/lsp');
    await app.tmux.waitFor('No session yet', { timeoutMs: 20_000 });
    app.tmux.keys('Escape');
    await app.tmux.waitForGone('No session yet');
    send(app, 'hello');
    await waitForRequests(app, 1, 30_000);
    await app.tmux.waitFor('hello back', { timeoutMs: 20_000 });
    send(app, '/lsp');
    await app.tmux.waitFor(/typescript — not started/, { timeoutMs: 20_000 });
    await app.tmux.waitFor(/clangd — not started/, { timeoutMs: 5_000 });
  }, 120_000);
});
