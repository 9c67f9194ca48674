// A Bash command that runs and exits non-zero reads on its card as its output and `exit code N`, like one
// that succeeds: not as the model's text (`Exit code: 2`, `<stdout>…</stdout>`, `<stderr>…`). A card cut
// after one line says "1 more line".
import { describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { sandboxAvailable } from '../helpers/sandboxAvailable';
import { appsClosedAfterEach, send } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

const COMMAND = 'for i in 1 2 3 4 5 6 7 8 9 10; do echo row$i; done; ls /nonexistent-jarvis-card-dir';

describe.skipIf(!hasTmux)('the card of a failed Bash command (tmux)', { timeout: 90_000 }, () => {
  it('shows the output and the exit code, without the tool-result wrapper', async () => {
    const app = await start({
      args: ['--yolo'],
      turns: [{ toolCalls: [{ name: 'Bash', arguments: { command: COMMAND } }] }, { text: 'It failed.' }],
    });
    await app.tmux.waitFor('YOLO · any');
    send(app, 'list it');
    const screen = await app.tmux.waitFor('It failed.', { timeoutMs: 30_000 });
    expect(screen).toContain('row1');
    expect(screen).toContain('row10');
    expect(screen).toContain('… 1 more line (ctrl+o to expand)');
    expect(screen).toContain('exit code 2');
    expect(screen).not.toContain('<stdout>');
    expect(screen).not.toContain('<stderr>');
    expect(screen).not.toContain('Exit code: 2');
  });

  it.skipIf(!sandboxAvailable())('keeps what the tool said about the sandbox boundary the command hit', async () => {
    const canary = `/jarvis-card-canary-${process.pid}`;
    const app = await start({
      args: ['--yolo'],
      turns: [{ toolCalls: [{ name: 'Bash', arguments: { command: `touch ${canary}` } }] }, { text: 'Refused.' }],
    });
    await app.tmux.waitFor('YOLO · any');
    send(app, 'touch it');
    const screen = await app.tmux.waitFor('Refused.', { timeoutMs: 30_000 });
    expect(screen).toContain('Read-only file system');
    expect(screen).toContain('exit code 1');
    expect(screen.replace(/\s+/g, ' ')).toContain('The command hit the sandbox filesystem boundary');
    expect(screen).not.toContain('<stderr>');
  });
});
