import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

function lastGoal(home: string): Record<string, unknown> | null {
  const root = join(home, 'sessions');
  const [key] = readdirSync(root);
  const [session] = readdirSync(join(root, key));
  const records = readFileSync(join(root, key, session, 'agents', 'main', 'wire.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  return records.filter((r) => r.type === 'goal').at(-1)?.goal ?? null;
}

async function goalRun(objective: string) {
  const dirs = makeCliDirs();
  const r = await runJarvis(['-p', `/goal ${objective}`], {
    env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
    cwd: dirs.cwd,
  });
  return { ...r, goal: lastGoal(dirs.home) };
}

describe('jarvis -p "/goal …"', () => {
  it('exits 0 when the goal completes (over several turns)', async () => {
    server.push(
      { text: 'Looked around; more to do.' },
      { toolCalls: [{ name: 'UpdateGoal', arguments: { status: 'complete', summary: 'README written' } }] },
      { text: 'The README is written.' },
    );
    const r = await goalRun('Write a README');
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.goal).toMatchObject({ objective: 'Write a README', status: 'complete', used: { turns: 2 } });
    expect(r.stdout).toContain('The README is written.');
  });

  it('exits 3 when the goal is blocked', async () => {
    server.push(
      {
        toolCalls: [
          {
            name: 'UpdateGoal',
            arguments: { status: 'blocked', blocker: 'asks for a perpetual motion machine', reason: 'impossible' },
          },
        ],
      },
      { text: 'This cannot be done.' },
    );
    const r = await goalRun('Build a perpetual motion machine');
    expect(r.code).toBe(3);
    expect(r.goal).toMatchObject({ status: 'blocked' });
  });

  it('exits 6 when the goal is paused (a provider error)', async () => {
    server.push({
      error: { status: 401, body: { error: { message: 'invalid api key', type: 'authentication_error' } } },
    });
    const r = await goalRun('Anything at all');
    expect(r.code).toBe(6);
    expect(r.goal).toMatchObject({ status: 'paused' });
  });

  it('exits 6 and says "no progress" on stderr when the model only answers in text', async () => {
    const first = server.requests.length;
    server.push(
      { text: 'I would start by reading the code.' },
      { text: 'Next I would write tests.' },
      { text: 'Then I would refactor.' },
    );
    const r = await goalRun('Refactor the parser');
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('jarvis: the goal is paused (no progress: 3 goal turns in a row without a tool call');
    expect(r.goal).toMatchObject({ status: 'paused', reason: expect.stringMatching(/^no progress/) });
    expect(server.requests.length - first).toBeLessThanOrEqual(5);
  });

  it('[goal] max_idle_turns sets the count', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), '[goal]\nmax_idle_turns = 1\n');
    const first = server.requests.length;
    server.push({ text: 'Only words.' });
    const r = await runJarvis(['-p', '/goal Refactor the parser'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/no progress: 1 goal turns in a row/);
    expect(server.requests.length - first).toBe(1);
  });

  it('other /goal subcommands are refused in print mode', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['-p', '/goal status'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('only available in the interactive UI');
  });
});
