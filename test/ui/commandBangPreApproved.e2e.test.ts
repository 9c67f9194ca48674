// A Claude Code command's `allowed-tools: Bash(git status:*)` pre-approves its bare !`git status` line in the
// interactive UI, manual mode (docs/approvals.md, "Pre-approved by a command or skill"): no approval panel, and
// the model receives git's real output in the line's place. `Bash(x:*)` holds for a bare `x` as Claude's does.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PluginManager } from '../../src/ext/plugins/manager';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, tempDir, waitForRequests } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

const COMMAND = `---
allowed-tools: Bash(git status:*)
description: Shows the status
---
Status: !\`git status\`
Then say STATUS-DONE.
`;

describe.skipIf(!hasTmux)('a pre-approved bare !`cmd` line in the interactive UI (tmux)', { timeout: 90_000 }, () => {
  it('runs without the approval panel and sends its output', async () => {
    const home = tempDir('jarvis-ui-bangpre-');
    const cwd = tempDir('jarvis-ui-bangpre-cwd-');
    execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd });
    const root = join(tempDir('jarvis-ui-bangpre-plugin-'), 'gitflow');
    mkdirSync(join(root, '.claude-plugin'), { recursive: true });
    mkdirSync(join(root, 'commands'), { recursive: true });
    writeFileSync(join(root, '.claude-plugin/plugin.json'), JSON.stringify({ name: 'gitflow', version: '1.0.0' }));
    writeFileSync(join(root, 'commands/status.md'), COMMAND);
    await new PluginManager({ home, env: {} }).install(root);
    const app = await start({ home, cwd, turns: [{ text: 'Status read.' }] });
    await app.tmux.waitFor('manual · any');
    app.tmux.type('/gitflow:status');
    // The / menu is open (it shows the description); Escape closes it, and Enter goes only after it has closed:
    // sent together, Escape and Enter read as Alt-Enter, which inserts a new line instead of sending.
    await app.tmux.waitFor('Shows the status');
    app.tmux.keys('Escape');
    await app.tmux.waitForGone('Shows the status');
    app.tmux.keys('Enter');
    const screen = await app.tmux.waitFor('Status read.', { timeoutMs: 30_000 });
    expect(screen).not.toContain('Approval needed');
    await waitForRequests(app, 1);
    const prompt = JSON.stringify(app.server.requests[0].body.messages.at(-1));
    expect(prompt).toContain('Status: Exit code: 0');
    expect(prompt).toContain('On branch trunk');
    expect(prompt).not.toContain('was not run');
  });

  it('Esc stops a running line: nothing is sent, and the user is told', async () => {
    const home = tempDir('jarvis-ui-bangstop-');
    const cwd = tempDir('jarvis-ui-bangstop-cwd-');
    const root = join(tempDir('jarvis-ui-bangstop-plugin-'), 'slowflow');
    mkdirSync(join(root, '.claude-plugin'), { recursive: true });
    mkdirSync(join(root, 'commands'), { recursive: true });
    writeFileSync(join(root, '.claude-plugin/plugin.json'), JSON.stringify({ name: 'slowflow', version: '1.0.0' }));
    const slow = '---\nallowed-tools: Bash(sleep:*)\ndescription: Waits a long time\n---\nWaited: !`sleep 45`\n';
    writeFileSync(join(root, 'commands/wait.md'), slow);
    await new PluginManager({ home, env: {} }).install(root);
    const app = await start({ home, cwd, turns: [{ text: 'Never asked.' }] });
    await app.tmux.waitFor('manual · any');
    app.tmux.type('/slowflow:wait');
    await app.tmux.waitFor('Waits a long time');
    app.tmux.keys('Escape');
    await app.tmux.waitForGone('Waits a long time');
    app.tmux.keys('Enter');
    await app.tmux.waitFor('sleep 45');
    app.tmux.keys('Escape');
    await app.tmux.waitFor('its prompt was not sent');
    expect(app.server.requests).toHaveLength(0);
    expect(app.tmux.screen()).not.toContain('Never asked.');
  });
});
