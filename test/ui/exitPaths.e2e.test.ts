// Quitting the interactive UI stops what the session started (docs/ui.md): with an MCP server that is slow to
// leave (test/fixtures/mcp/stubbornServer.mjs ignores stdin's end, SIGTERM and SIGINT), a Ctrl-C pressed while the
// UI is already closing — the terminal is out of raw mode then, so it arrives as SIGINT — still leaves no process
// of the server behind. The real binary in tmux; three runs out of three.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/cli';
import { requireSystemPart } from '../helpers/requireAll';
import { pidRunning } from '../helpers/processes';
import { appsClosedAfterEach, tempDir } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();
const STUBBORN = resolve(__dirname, '../fixtures/mcp/stubbornServer.mjs');

describe.skipIf(!hasTmux)('quitting the UI (tmux)', { timeout: 90_000 }, () => {
  for (const run of [1, 2, 3]) {
    it(`a Ctrl-C while the UI closes leaves no MCP server behind (run ${run} of 3)`, async () => {
      const home = tempDir('jarvis-ui-quit-');
      const pidFile = join(home, 'stubborn.pid');
      const stubborn = { command: process.execPath, args: [STUBBORN], env: { STUBBORN_PID_FILE: pidFile } };
      writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { stubborn } }));
      const app = await start({ home });
      await waitUntil(() => existsSync(pidFile), 20_000, 'the stubborn server');
      const { pid, child } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; child: number };
      app.tmux.keys('C-c');
      await app.tmux.waitFor('Press Ctrl-C again');
      app.tmux.keys('C-c');
      // The UI has let go of the terminal and waits for the server to stop: this one is a SIGINT.
      app.tmux.keys('C-c');
      await waitUntil(() => ![pid, child].some(pidRunning), 10_000, 'the server and its child to be gone');
      expect([pid, child].filter(pidRunning)).toEqual([]);
    });
  }
});
