import { existsSync, writeFileSync } from 'node:fs';
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

function lastUserText(index: number): string {
  return JSON.stringify(server.requests[index].body.messages.at(-1));
}

describe('print mode and background tasks', () => {
  it('steer (default): stays alive until the background task ends, feeds its completion back, then exits 0', async () => {
    const dirs = makeCliDirs();
    const before = server.requests.length;
    server.push(
      {
        toolCalls: [
          {
            id: 'bg',
            name: 'Bash',
            arguments: { command: 'sleep 1; echo finished-work', run_in_background: true, description: 'slow job' },
          },
        ],
      },
      { text: 'Started the job.' },
      { text: 'The job printed finished-work.' },
    );
    const r = await runJarvis(['-p', 'run the slow job'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('• Started the job.\n• The job printed finished-work.\n');
    expect(server.requests.length - before).toBe(3);
    const notification = lastUserText(before + 2);
    expect(notification).toContain('task-notification');
    expect(notification).toContain('finished-work');
  });

  it('exit: leaves right after the main turn and stops the task', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'config.toml'),
      '[background]\nprint_background_mode = "exit"\nkill_grace_period_ms = 200\n',
    );
    const before = server.requests.length;
    const marker = join(dirs.cwd, 'marker');
    server.push(
      {
        toolCalls: [
          {
            name: 'Bash',
            arguments: { command: `sleep 2; touch ${marker}`, run_in_background: true, description: 'slow job' },
          },
        ],
      },
      { text: 'Started.' },
    );
    const r = await runJarvis(['-p', 'go'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(server.requests.length - before).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(existsSync(marker)).toBe(false);
  });

  it('drain: waits for the task without starting another turn', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), '[background]\nprint_background_mode = "drain"\n');
    const before = server.requests.length;
    const marker = join(dirs.cwd, 'marker');
    server.push(
      {
        toolCalls: [
          {
            name: 'Bash',
            arguments: { command: `sleep 1; touch ${marker}`, run_in_background: true, description: 'slow job' },
          },
        ],
      },
      { text: 'Started.' },
    );
    const r = await runJarvis(['-p', 'go'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(server.requests.length - before).toBe(2);
  });

  it('a deny rule on a Bash subject holds in print mode (which otherwise approves everything)', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'config.toml'),
      '[[permission.rules]]\ndecision = "deny"\npattern = "Bash(rm -rf*)"\nreason = "no recursive deletes"\n',
    );
    const victim = join(dirs.cwd, 'keep');
    writeFileSync(victim, 'precious');
    const before = server.requests.length;
    server.push(
      {
        toolCalls: [
          { id: 'rm', name: 'Bash', arguments: { command: `rm -rf ${victim}` } },
          { id: 'ok', name: 'Bash', arguments: { command: 'echo allowed-command' } },
        ],
      },
      { text: 'Could not delete it.' },
    );
    const r = await runJarvis(['-p', 'clean up'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(existsSync(victim)).toBe(true);
    const results = server.requests[before + 1].body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(results[0].content).toMatch(/denied by a permission rule.*no recursive deletes/);
    expect(results[1].content).toContain('allowed-command');
  });
});
