// A Claude Code command's !`cmd` line in the interactive UI, manual mode (docs/plugins.md, "Claude Code
// plugins"): a line its `allowed-tools` does not cover shows the approval panel before anything is sent;
// rejecting it sends the prompt with the "declined" text in the line's place, and the command never ran.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PluginManager } from '../../src/ext/plugins/manager';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, tempDir, waitForRequests } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

const COMMAND = `---
allowed-tools: Bash(git status:*)
description: Leaves a marker
---
Marker: !\`touch marker.txt\`
Then say MARKER-DONE.
`;

describe.skipIf(!hasTmux)('!`cmd` lines of a plugin command in the interactive UI (tmux)', { timeout: 90_000 }, () => {
  it('asks with the approval panel before sending, and a rejection is sent as the declined text', async () => {
    const home = tempDir('jarvis-ui-bang-');
    const root = join(tempDir('jarvis-ui-bang-plugin-'), 'gitflow');
    mkdirSync(join(root, '.claude-plugin'), { recursive: true });
    mkdirSync(join(root, 'commands'), { recursive: true });
    writeFileSync(join(root, '.claude-plugin/plugin.json'), JSON.stringify({ name: 'gitflow', version: '1.0.0' }));
    writeFileSync(join(root, 'commands/marker.md'), COMMAND);
    await new PluginManager({ home, env: {} }).install(root);
    const app = await start({ home, turns: [{ text: 'Marker skipped.' }] });
    await app.tmux.waitFor('manual · any');
    app.tmux.type('/gitflow:marker');
    // The / menu is open (it shows the description); Escape closes it, and Enter goes only after it has closed:
    // sent together, Escape and Enter read as Alt-Enter, which inserts a new line instead of sending.
    await app.tmux.waitFor('Leaves a marker');
    app.tmux.keys('Escape');
    await app.tmux.waitForGone('Leaves a marker');
    app.tmux.keys('Enter');
    const panel = await app.tmux.waitFor('Approval needed');
    expect(panel).toContain('touch marker.txt');
    // Nothing was sent while the panel waits.
    expect(app.server.requests.length).toBe(0);
    app.tmux.keys('3');
    await app.tmux.waitFor('Marker skipped.', { timeoutMs: 30_000 });
    await waitForRequests(app, 1);
    const prompt = JSON.stringify(app.server.requests[0].body.messages.at(-1));
    expect(prompt).toContain('Marker: [!`touch marker.txt` was not run: the user declined it]');
    expect(prompt).toContain('Then say MARKER-DONE.');
    expect(existsSync(join(app.cwd, 'marker.txt'))).toBe(false);
  });
});
