// docs/lsp.md "/lsp", end to end in tmux: after the first message, /lsp shows the session's configured servers from
// the runtime's language-server manager, none started yet in a folder without source files; an Edit that breaks the
// types shows the count of its new errors on its card, and Ctrl-O lists them.
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send, tempDir, waitForRequests } from './e2eHarness';

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

describe.runIf(hasTmux)('the edit card in the TUI', () => {
  it('shows the new errors as a count, and the expanded card (Ctrl-O) lists them', async () => {
    const home = tempDir('jarvis-ui-home-');
    const cwd = tempDir('jarvis-ui-cwd-');
    cpSync(resolve(__dirname, '../fixtures/lsp/ts-project'), cwd, { recursive: true });
    // Servers take seconds to start on a loaded machine: the wait is a bound, not a duration.
    writeFileSync(join(home, 'config.toml'), '[lsp]\ndiagnostics_wait_ms = 60000\n');
    setWorkspaceTrust(home, cwd, true);
    const edit = { path: 'src/cart.ts', old_string: 'formatPrice(total)', new_string: 'formatPrice("x")' };
    const app = await start({
      home,
      cwd,
      answerTrust: false,
      env: { PATH: `${resolve(__dirname, '../../node_modules/.bin')}:${process.env.PATH}` },
      turns: [
        { toolCalls: [{ id: 'read', name: 'Read', arguments: { path: 'src/cart.ts' } }] },
        { toolCalls: [{ id: 'edit', name: 'Edit', arguments: edit }] },
        { text: 'edited it' },
      ],
    });
    await app.tmux.waitFor('Type a message', { timeoutMs: 20_000 });
    send(app, 'break the cart');
    await app.tmux.waitFor('Approve once', { timeoutMs: 60_000 });
    app.tmux.keys('Enter');
    await app.tmux.waitFor('edited it', { timeoutMs: 120_000 });
    await app.tmux.waitFor(/Edited .*cart\.ts \(1 replacement\) \+1 -1 1 error/, { timeoutMs: 5_000 });
    app.tmux.keys('C-o');
    await app.tmux.waitFor(/- src\/cart\.ts:5:22: Argument of type 'string'/, { timeoutMs: 10_000 });
  }, 180_000);
});
