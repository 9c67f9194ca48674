// The /plugins MCP sub-view in the real binary (tmux), on the bundled Jarvis Documents plugin: each server's
// line says its state in this session now (redrawn when the server becomes ready, no key needed), a switch
// says what waits for /reload, and the result of a switch does not outlive the visit (docs/plugins.md).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send, tempDir } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');

const start = appsClosedAfterEach();

/** The sub-view's part of the screen (the transcript above repeats each change as a notice). */
const subView = (screen: string) => screen.slice(screen.lastIndexOf('MCP servers of'));

describe.skipIf(!hasTmux)('/plugins MCP sub-view (tmux)', { timeout: 90_000 }, () => {
  it('shows the current state, and a new visit starts without the last switch’s message', async () => {
    // Its tools pinned, the server starts with the session (otherwise it waits for a first call: docs/mcp.md).
    const home = tempDir('jarvis-ui-plugins-mcp-');
    writeFileSync(join(home, 'config.toml'), '[tools]\npinned = ["mcp__plugin-jarvis-documents_documents__*"]\n');
    const app = await start({ home });
    send(app, '/plugins');
    await app.tmux.waitFor('Jarvis Documents');
    app.tmux.type('m');
    const ready = subView(await app.tmux.waitFor(/MCP servers of[^]*now: running · 11 tools/, { timeoutMs: 30_000 }));
    expect(ready).toContain('[x] documents');
    expect(ready).not.toContain('after /reload');

    app.tmux.keys('Space');
    const off = subView(await app.tmux.waitFor(/MCP servers of[^]*Disabled the MCP server documents/));
    expect(off).toContain('[ ] documents');
    expect(off).toContain('now: running · 11 tools · off after /reload or /new');

    app.tmux.keys('Escape');
    await app.tmux.waitForGone('MCP servers of');
    app.tmux.type('m');
    const again = subView(await app.tmux.waitFor(/MCP servers of[^]*Space\/Enter switch on\/off/));
    expect(again).not.toContain('Disabled the MCP server');
    expect(again).toContain('now: running · 11 tools · off after /reload or /new');

    app.tmux.keys('Space');
    const on = subView(await app.tmux.waitFor(/MCP servers of[^]*Enabled the MCP server documents/));
    expect(on).toContain('[x] documents');
    expect(on).toMatch(/now: running · 11 tools\s/);
    expect(on).not.toMatch(/(on|off) after \/reload/);
  });
});
