// With `allow Bash(git *)` the interactive UI runs plain git without asking, but every compound line
// that smuggles another command in asks first, showing the parsed commands, and runs nothing when
// rejected.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send, tempDir } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
// Registered before the apps' own hook, so (hooks run in stack order) the folders go after the apps.
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const start = appsClosedAfterEach();

const SMUGGLED: Array<[string, string]> = [
  ['git status && touch PWNED', '• touch PWNED'],
  ['git status; touch PWNED', '• touch PWNED'],
  ['git log $(touch PWNED)', '• touch PWNED'],
  ['git status | tee PWNED', '• tee PWNED'],
  ['git status > PWNED', '> PWNED   (writes a file)'],
  // A continuation inside a word: the panel shows bash's reading (`touch`), not the parser's split words.
  ['git status; tou\\\nch PWNED', 'Bash reads it as:'],
];

describe.skipIf(!hasTmux)('allow rules against compound commands (tmux)', { timeout: 120_000 }, () => {
  it('runs plain git without asking and asks for every line that runs something more', async () => {
    const home = tempDir('jarvis-ui-home-');
    const cwd = tempDir('jarvis-ui-cwd-');
    made.push(home, cwd);
    execFileSync('git', ['init', '-q'], { cwd });
    writeFileSync(join(home, 'config.toml'), '[[permission.rules]]\ndecision = "allow"\npattern = "Bash(git *)"\n');
    const app = await start({
      home,
      cwd,
      turns: [
        { toolCalls: [{ name: 'Bash', arguments: { command: 'git status' } }] },
        { text: 'plain git ran' },
        ...SMUGGLED.map(([command]) => ({ toolCalls: [{ name: 'Bash', arguments: { command } }] })),
      ],
    });
    send(app, 'check the repo');
    await app.tmux.waitFor('plain git ran');
    expect(app.tmux.screen()).not.toContain('Approval needed');
    expect(JSON.stringify(app.server.requests[1].body)).toMatch(/No commits yet|On branch/);

    for (const [i, [command, part]] of SMUGGLED.entries()) {
      send(app, `case ${i}`);
      const panel = await app.tmux.waitFor('Approval needed');
      expect(panel, command).toContain('Parsed as:');
      expect(panel, command).toContain(part);
      // The reason may wrap inside the panel's frame: it is read with the frame and line breaks taken out.
      expect(panel.replace(/[│\s]+/g, ' '), command).toMatch(/allow rules (do not|never) cover/);
      expect(panel, command).not.toContain('tou ch');
      app.tmux.keys('3');
      await app.tmux.waitForGone('Approval needed');
    }
    expect(existsSync(join(cwd, 'PWNED'))).toBe(false);
    expect(app.server.requests).toHaveLength(2 + SMUGGLED.length);

    send(app, '/permissions');
    const popup = await app.tmux.waitFor('Rules in force');
    expect(popup).toMatch(/allow {2}Bash\(git \*\) {2}\S*config\.toml:1/);
    expect(popup).toContain('Nothing approved for this session.');
  });
});
