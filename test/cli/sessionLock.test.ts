// One writer per session, end to end: two `jarvis -p` processes on the same session at once.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import {
  cliEnv,
  collect,
  latestJournal,
  latestSessionDir,
  makeCliDirs,
  mockModelEnv,
  runJarvis,
  spawnJarvis,
  waitUntil,
} from '../helpers/cli';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

describe('session lock', () => {
  it('a second --continue while the first process is mid-turn is refused with the owner named, and writes nothing', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    server.push({ text: 'First answer.' });
    expect((await runJarvis(['-p', 'start'], { env, cwd: dirs.cwd })).code).toBe(0);

    // The first process resumes and then waits on a model that never answers.
    server.push({ hang: true });
    const before = server.requests.length;
    const first = spawnJarvis(['--continue', '-p', 'long task'], { env, cwd: dirs.cwd });
    const firstDone = collect(first);
    await waitUntil(() => server.requests.length > before, 15_000, 'the first process to send its request');
    const journalBefore = latestJournal(dirs.home);

    const second = await runJarvis(['--continue', '-p', 'interfere'], { env, cwd: dirs.cwd });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`in use by another jarvis process (pid ${first.pid}`);
    expect(second.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    expect(latestJournal(dirs.home)).toEqual(journalBefore);
    expect(server.requests.length).toBe(before + 1);

    first.kill('SIGINT');
    expect((await firstDone).code).toBe(130);
    expect(existsSync(join(latestSessionDir(dirs.home), 'session.lock'))).toBe(false);

    // Released on exit: the next process resumes normally, and the history it sends is well formed.
    server.push({ text: 'Third answer.' });
    const third = await runJarvis(['--continue', '-p', 'again'], { env, cwd: dirs.cwd });
    expect(third.code).toBe(0);
    expect(third.stdout).toBe('• Third answer.\n');
    const turnEnds = latestJournal(dirs.home).filter((r) => r.type === 'turn_end');
    expect(turnEnds.map((r) => r.reason)).toEqual(['completed', 'cancelled', 'completed']);
  });
});
