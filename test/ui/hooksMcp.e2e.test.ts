// Hooks and MCP servers in the interactive UI: the real binary in tmux, a real hook command and the
// real server-everything from npm.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { EVERYTHING_BIN } from '../helpers/mcpServers';
import { appsClosedAfterEach, send, tempDir, waitForRequests } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

describe.skipIf(!hasTmux)('hooks and MCP in the interactive UI (tmux)', { timeout: 90_000 }, () => {
  it('reports a server that cannot start, lists servers in /mcp, offers MCP tools and runs PreToolUse hooks', async () => {
    const home = tempDir('jarvis-ui-mcp-');
    writeFileSync(
      join(home, 'config.toml'),
      `[[hooks]]\nevent = "PreToolUse"\nmatcher = "^Write$"\ncommand = "echo 'the docs folder is read-only' >&2; exit 2"\n`,
    );
    writeFileSync(
      join(home, 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] },
          ghost: { command: 'no-such-mcp-binary-xyz' },
        },
      }),
    );
    const app = await start({
      home,
      turns: [
        { toolCalls: [{ name: 'Write', arguments: { path: 'docs.md', content: 'x' } }] },
        { text: 'Understood, I left the docs alone.' },
      ],
    });
    await app.tmux.waitFor('MCP server "ghost" is not available', { timeoutMs: 30_000 });
    // The first request waits for the servers to start.
    send(app, 'update the docs');
    await app.tmux.waitFor('Understood, I left the docs alone.', { timeoutMs: 30_000 });
    await waitForRequests(app, 2);
    send(app, '/mcp');
    const popup = await app.tmux.waitFor('everything  ready');
    expect(popup).toContain('ghost  failed');
    // The tools' shared prefix is said once: `N tools (mcp__everything__*): echo, …`.
    expect(popup).toMatch(/\d+ tools \(mcp__everything__\*\): [^\n]*\becho\b/);
    expect(popup).not.toContain('mcp__everything__echo');
    app.tmux.keys('Escape');
    // server-everything has more than 4 tools: they are deferred, listed in ToolSearch's catalog on one line.
    const toolSearch = app.server.requests[0].body.tools.find(
      (t: { function: { name: string } }) => t.function.name === 'ToolSearch',
    );
    expect(toolSearch.function.description).toMatch(/^- mcp__everything__\{[^}\n]*\bget-sum\b[^}\n]*\}$/m);
    expect(JSON.stringify(app.server.requests[1].body.messages)).toContain('the docs folder is read-only');
  });

  it('project servers start once the user trusts the folder', async () => {
    const cwd = tempDir('jarvis-ui-trust-');
    mkdirSync(join(cwd, '.jarvis-code'));
    writeFileSync(
      join(cwd, '.jarvis-code', 'mcp.json'),
      JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] } } }),
    );
    const app = await start({ cwd, answerTrust: false, turns: [{ text: 'hello' }] });
    const prompt = await app.tmux.waitFor("Don't trust", { timeoutMs: 20_000 });
    expect(prompt).toContain('proj: stdio:');
    app.tmux.keys('Down');
    app.tmux.keys('Enter');
    await app.tmux.waitForGone("Don't trust");
    send(app, 'hi');
    await waitForRequests(app, 1, 30_000);
    expect(JSON.stringify(app.server.requests[0].body.tools)).toMatch(/- mcp__proj__\{echo, /);
  });
});
