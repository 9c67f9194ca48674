// The interactive UI with a model that accepts the request and never answers (docs/configuration.md,
// `[loop_control] wait_notice_s`): a notice on screen says the model has not answered yet and how long the
// request waits. The real binary in tmux against the loopback mock model, which holds the request open.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send, tempDir, waitForRequests } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

describe.skipIf(!hasTmux)('the UI with a silent model (tmux)', { timeout: 60_000 }, () => {
  it('shows that the model has not answered yet and how long the request waits', async () => {
    const home = tempDir('jarvis-ui-silent-model-');
    writeFileSync(join(home, 'config.toml'), '[loop_control]\nwait_notice_s = 1\nidle_timeout_s = 30\n');
    const app = await start({ home, turns: [{ hang: true }] });
    send(app, 'hello');
    await waitForRequests(app, 1);
    await app.tmux.waitFor(/has not answered yet \(\d+ s since the request was sent\)/, { timeoutMs: 15_000 });
    await app.tmux.waitFor(/idle_timeout_s = 30 s/, { timeoutMs: 5_000 });
  });
});
