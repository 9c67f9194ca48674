// An installed plugin in the interactive UI: its commands are in the `/` menu and a `/<plugin>:<command>`
// line reaches the model as the command's prompt; its MCP tool and prompt text are in the request.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PluginManager } from '../../src/ext/plugins/manager';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, tempDir, waitForRequests } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

describe.skipIf(!hasTmux)('plugins in the interactive UI (tmux)', { timeout: 90_000 }, () => {
  it('offers /<plugin>:<command> in the / menu and sends its expanded prompt', async () => {
    const home = tempDir('jarvis-ui-plugins-');
    await new PluginManager({ home, env: {} }).install(resolve(__dirname, '../fixtures/plugins/kimi-finance'));
    const app = await start({ home, turns: [{ text: 'Quote fetched.' }] });
    app.tmux.type('/kimi-fin');
    const menu = await app.tmux.waitFor('kimi-finance:quote');
    expect(menu).toContain('Fetch the latest quote for a ticker');
    // Enter only once the prompt shows the whole command: a shuffled run once sent
    // "q/kimi-finance:market/summary", the menu having taken keys typed while it still filtered.
    app.tmux.keys('C-u');
    app.tmux.type('/kimi-finance:quote AAPL');
    await app.tmux.waitFor('/kimi-finance:quote AAPL');
    app.tmux.keys('Enter');
    await app.tmux.waitFor('Quote fetched.', { timeoutMs: 30_000 });
    await waitForRequests(app, 1);
    const body = app.server.requests[0].body;
    expect(JSON.stringify(body.messages.at(-1))).toContain('Fetch the latest quote for AAPL with the quotes tool');
    expect(JSON.stringify(body.messages[0])).toContain('FINANCE-PLUGIN-RULE');
    expect(JSON.stringify(body.tools)).toContain('mcp__plugin-kimi-finance_quotes__get_quote');
  });
});
