// An unknown `/name` in the interactive UI (docs/skills-and-agents.md, "Unknown /names"): the message names the
// closest commands and skills, nothing is sent, and the input keeps the line to fix; a path goes through.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { putFile } from '../helpers/files';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, tempDir, waitForRequests } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

describe.skipIf(!hasTmux)('an unknown /name in the interactive UI (tmux)', { timeout: 90_000 }, () => {
  it('shows the closest names, keeps the input and sends nothing; a path is sent as text', async () => {
    const home = tempDir('jarvis-ui-unknown-');
    putFile(
      join(home, 'skills/review-pr/SKILL.md'),
      '---\nname: review-pr\ndescription: Review the open pull request\n---\nReview.\n',
    );
    const app = await start({ home, turns: [{ text: 'Looked at the path.' }] });
    app.tmux.type('/reveiw-pr 42');
    await app.tmux.waitFor('/reveiw-pr 42');
    // No command or skill matches what is typed, so the / menu is closed and Enter submits the line.
    app.tmux.keys('Enter');
    const screen = await app.tmux.waitFor('Unknown command /reveiw-pr');
    expect(screen).toContain('/review-pr (skill)');
    // The line is still in the input box, ready to fix.
    const lines = screen.split('\n');
    const input = lines.findLastIndex((l) => l.includes('/reveiw-pr 42'));
    expect(input).toBeGreaterThan(lines.findIndex((l) => l.includes('Unknown command')));
    expect(app.server.requests).toHaveLength(0);
    app.tmux.keys('C-u');
    app.tmux.type('/usr/bin/env is missing');
    await app.tmux.waitFor('/usr/bin/env is missing');
    app.tmux.keys('Enter');
    await app.tmux.waitFor('Looked at the path.', { timeoutMs: 30_000 });
    await waitForRequests(app, 1);
    expect(JSON.stringify(app.server.requests[0].body.messages.at(-1))).toContain('/usr/bin/env is missing');
  });
});
