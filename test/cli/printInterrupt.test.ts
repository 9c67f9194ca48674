// Print mode never hangs silently: with `sleep infinity` running as a background task it says what it
// waits for, and the first SIGINT ends the wait, kills the task's process group, records the task as
// cancelled and exits 130.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGroupAlive } from '../../src/platform/processes';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, collect, latestSessionDir, makeCliDirs, mockModelEnv, spawnJarvis, waitUntil } from '../helpers/cli';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

describe('print mode with a background task that never ends', () => {
  it('says what it waits for; the first SIGINT kills the group, records it cancelled and exits 130', async () => {
    const dirs = makeCliDirs();
    server.push(
      {
        toolCalls: [
          {
            id: 'bg',
            name: 'Bash',
            arguments: {
              command: 'sleep infinity & sleep infinity; wait',
              run_in_background: true,
              description: 'endless job',
            },
          },
        ],
      },
      { text: 'Started the endless job.' },
    );
    const child = spawnJarvis(['-p', 'start an endless job'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const done = collect(child, 30_000);
    await waitUntil(() => /waiting for 1 background task/.test(stderr), 20_000, 'the waiting notice');
    expect(stderr).toMatch(
      /at most 10 more min, background\.print_wait_ceiling_s; Ctrl-C stops it\):\n  • b\w+ endless job\n/,
    );

    const tasksDir = join(latestSessionDir(dirs.home), 'tasks');
    const recordFile = join(
      tasksDir,
      readdirSync(tasksDir).find((f) => f.endsWith('.json'))!,
    );
    const pgid = (JSON.parse(readFileSync(recordFile, 'utf8')) as { pid: number }).pid;
    expect(isGroupAlive(pgid)).toBe(true);

    child.kill('SIGINT');
    const r = await done;
    expect(r.code).toBe(130);
    expect(isGroupAlive(pgid)).toBe(false);
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as { status: string };
    expect(record.status).toBe('cancelled');
  });
});
