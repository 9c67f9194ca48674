// /model in the interactive UI: switching the model swaps the client on the live session; it never
// closes the runtime, so a background task started before the switch keeps running after it.
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { startMockModelServer } from '../helpers/mockModelServer';
import { appsClosedAfterEach, send, tempDir, waitForRequests } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function ticks(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

/** Stops the ticker's process group if a failing test left it running. */
function stopTicker(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone: the session stopped it
  }
}

describe.skipIf(!hasTmux)('/model (tmux)', { timeout: 90_000 }, () => {
  it('keeps a background task running across a model switch; the next request goes to the new model', async () => {
    const server = await startMockModelServer({
      turns: [
        {
          toolCalls: [
            {
              name: 'Bash',
              arguments: {
                command: 'echo $$ > ticker.pid; while true; do echo tick >> ticks.log; sleep 0.1; done',
                run_in_background: true,
                description: 'ticker',
              },
            },
          ],
        },
        { text: 'The ticker is running.' },
        { text: 'Answered by the second model.' },
      ],
    });
    const home = tempDir('jarvis-ui-home-');
    writeFileSync(
      join(home, 'config.toml'),
      `[providers.mock]\ntype = "openai"\nbase_url = "${server.baseUrlFor('openai')}"\napi_key = "k"\n\n[models.second]\nprovider = "mock"\nmodel = "model-two"\nmax_context_size = 100000\n`,
    );
    const app = await start({ server, home, args: ['--yolo'] });
    const tickFile = join(app.cwd, 'ticks.log');
    const pidFile = join(app.cwd, 'ticker.pid');
    try {
      send(app, 'start the ticker');
      await app.tmux.waitFor('The ticker is running.');
      await until(() => ticks(tickFile) >= 3, 'the ticker to tick');
      const body = (i: number) => app.server.requests[i].body as { model: string };
      expect(body(0).model).toBe('any');

      send(app, '/model second');
      await app.tmux.waitFor('Model: ');
      const atSwitch = ticks(tickFile);
      const sizeAtSwitch = statSync(tickFile).size;
      // Still ticking after the switch: the task was not stopped with the old model's runtime.
      await until(() => ticks(tickFile) >= atSwitch + 5, 'the ticker to keep ticking after /model');
      expect(statSync(tickFile).size).toBeGreaterThan(sizeAtSwitch);
      const pid = Number(readFileSync(pidFile, 'utf8').trim());
      expect(() => process.kill(pid, 0)).not.toThrow();

      send(app, 'who answers now?');
      await app.tmux.waitFor('Answered by the second model.');
      await waitForRequests(app, 3);
      expect(body(2).model).toBe('model-two');
      // Same session, same conversation: the new model sees the earlier turn.
      expect(JSON.stringify(body(2))).toContain('start the ticker');
      await until(() => ticks(tickFile) >= atSwitch + 10, 'the ticker to still be ticking');
    } finally {
      stopTicker(pidFile);
      app.tmux.close();
      await server.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
