// A project MCP file changed since the folder was trusted, in the interactive UI (docs/mcp.md, "Workspace trust"):
// the real binary in tmux and the real server-everything from npm. The trust prompt comes back listing the changed
// file's server; accepting starts it, and the next session does not ask again; `/reload` asks about a file
// written meanwhile.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { requireSystemPart } from '../helpers/requireAll';
import { EVERYTHING_BIN } from '../helpers/mcpServers';
import { appsClosedAfterEach, send, tempDir, waitForRequests } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();
const everything = { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] };

describe.skipIf(!hasTmux)('project MCP files changed since trusted (tmux)', { timeout: 120_000 }, () => {
  it('asks again listing the new server; accepted, it starts and the next session does not ask', async () => {
    const home = tempDir('jarvis-ui-mcptrust-home-');
    const cwd = tempDir('jarvis-ui-mcptrust-');
    mkdirSync(join(cwd, '.git'));
    mkdirSync(join(cwd, '.jarvis-code'));
    writeFileSync(join(cwd, '.jarvis-code', 'mcp.json'), JSON.stringify({ mcpServers: { ok: everything } }));
    setWorkspaceTrust(home, cwd, true);
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { newsrv: everything } }));

    const first = await start({ home, cwd, answerTrust: false, turns: [{ text: 'hello' }] });
    const prompt = await first.tmux.waitFor('Keep them off', { timeoutMs: 20_000 });
    expect(prompt).toContain('.mcp.json changed since you trusted');
    expect(prompt).toContain('newsrv: stdio:');
    expect(prompt).not.toContain('ok: stdio:');
    first.tmux.keys('Down');
    first.tmux.keys('Enter');
    await first.tmux.waitForGone('Keep them off');
    send(first, 'hi');
    await waitForRequests(first, 1, 30_000);
    const tools = JSON.stringify(first.server.requests[0].body.tools);
    expect(tools).toMatch(/- mcp__newsrv__\{echo, /);
    expect(tools).toMatch(/- mcp__ok__\{echo, /);
    first.tmux.close();

    const second = await start({ home, cwd, answerTrust: false, turns: [{ text: 'again' }] });
    // A trust prompt would take the typed line; the request arriving shows none was asked.
    await second.tmux.waitFor('Type a message', { timeoutMs: 20_000 });
    send(second, 'hi');
    await waitForRequests(second, 1, 30_000);
    expect(second.tmux.screen()).not.toContain('Workspace trust');
    expect(JSON.stringify(second.server.requests[0].body.tools)).toMatch(/- mcp__newsrv__\{echo, /);
  });

  it('/reload finds a file written meanwhile and asks before starting its server', async () => {
    const home = tempDir('jarvis-ui-mcptrust-home-');
    const cwd = tempDir('jarvis-ui-mcptrust-');
    mkdirSync(join(cwd, '.git'));
    setWorkspaceTrust(home, cwd, true);
    const app = await start({ home, cwd, answerTrust: false, turns: [{ text: 'hello' }] });
    await app.tmux.waitFor('Type a message', { timeoutMs: 20_000 });
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { newsrv: everything } }));
    send(app, '/reload');
    const prompt = await app.tmux.waitFor('Keep them off', { timeoutMs: 20_000 });
    expect(prompt).toContain('newsrv: stdio:');
    app.tmux.keys('Down');
    app.tmux.keys('Enter');
    await app.tmux.waitForGone('Keep them off');
    send(app, 'hi');
    await waitForRequests(app, 1, 30_000);
    expect(JSON.stringify(app.server.requests[0].body.tools)).toMatch(/- mcp__newsrv__\{echo, /);
  });

  it('names a changed script its server starts with; a script rewritten while the question is open is asked about again', async () => {
    const home = tempDir('jarvis-ui-mcptrust-home-');
    const cwd = tempDir('jarvis-ui-mcptrust-');
    const canary = join(home, 'canary');
    mkdirSync(join(cwd, '.git'));
    mkdirSync(join(cwd, 'tools'));
    const serve = (marker: string) =>
      `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(marker)}, 'x');\n` +
      `process.argv.push('stdio');\nawait import(${JSON.stringify(EVERYTHING_BIN)});\n`;
    writeFileSync(join(cwd, 'tools', 'srv.mjs'), serve(join(home, 'good')));
    writeFileSync(
      join(cwd, '.mcp.json'),
      JSON.stringify({ mcpServers: { docs: { command: 'node', args: ['tools/srv.mjs'] } } }),
    );
    setWorkspaceTrust(home, cwd, true);
    // A command changes the script (not .mcp.json).
    writeFileSync(join(cwd, 'tools', 'srv.mjs'), `${serve(join(home, 'good'))}// edited\n`);

    const app = await start({ home, cwd, answerTrust: false, turns: [{ text: 'hello' }] });
    const prompt = await app.tmux.waitFor('Keep them off', { timeoutMs: 20_000 });
    expect(prompt).toContain('tools/srv.mjs changed since you trusted');
    expect(prompt).toContain('docs: stdio: node tools/srv.mjs');
    // While the question is open, the script is rewritten again; the yes approves what was shown, not this.
    writeFileSync(join(cwd, 'tools', 'srv.mjs'), serve(canary));
    app.tmux.keys('Down');
    app.tmux.keys('Enter');
    await app.tmux.waitFor('was not started', { timeoutMs: 20_000 });
    const again = await app.tmux.waitFor('Keep them off', { timeoutMs: 20_000 });
    expect(again).toContain('tools/srv.mjs changed since you trusted');
    app.tmux.keys('Enter');
    await app.tmux.waitForGone('Keep them off');
    send(app, 'hi');
    await waitForRequests(app, 1, 30_000);
    expect(JSON.stringify(app.server.requests[0].body.tools)).not.toContain('mcp__docs__');
    expect(existsSync(canary)).toBe(false);
  });
});
