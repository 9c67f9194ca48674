// Scheduled tasks through `jarvis -p` (docs/scheduled-tasks.md): the real clock, the built CLI, the mock model.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startMockModelServer,
  type MockModelServer,
  type RecordedRequest,
  type ScriptedTurn,
} from '../helpers/mockModelServer';
import { cliEnv, latestSessionDir, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';

let server: MockModelServer;
let play: (req: RecordedRequest) => ScriptedTurn = () => ({ text: 'ok' });
beforeAll(async () => {
  server = await startMockModelServer({ script: (req) => play(req) });
});
afterAll(async () => {
  await server.close();
});

const transcript = (req: RecordedRequest) => JSON.stringify(req.body.messages);
/** Every tool the model was told about: full schemas, and the deferred ones listed in ToolSearch. */
const offeredTools = (req: RecordedRequest) => {
  const tools = req.body.tools as Array<{ function: { name: string; description: string } }>;
  const search = tools.find((t) => t.function.name === 'ToolSearch')?.function.description ?? '';
  return [...tools.map((t) => t.function.name), ...[...search.matchAll(/\b(Cron\w+)\b/g)].map((m) => m[1])];
};
/** The tool results the model saw, in order. */
const toolResults = (req: RecordedRequest): string[] =>
  (req.body.messages as Array<{ role: string; content: string }>)
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);

describe('scheduled tasks in print mode', () => {
  it('create, list and delete in one run; a recurring task left behind is named on stderr', async () => {
    const dirs = makeCliDirs();
    const step = (req: RecordedRequest) => toolResults(req).length;
    play = (req) => {
      const results = toolResults(req);
      const ids = [...results.join('\n').matchAll(/^id: ([0-9a-f]{8})$/gm)].map((m) => m[1]);
      switch (step(req)) {
        case 0:
          return {
            toolCalls: [{ name: 'CronCreate', arguments: { cron: '*/15 * * * *', prompt: 'check the deploy' } }],
          };
        case 1:
          return {
            toolCalls: [{ name: 'CronCreate', arguments: { cron: '0 9 * * 1-5', prompt: 'daily standup notes' } }],
          };
        case 2:
          return { toolCalls: [{ name: 'CronList', arguments: {} }] };
        case 3:
          return { toolCalls: [{ name: 'CronDelete', arguments: { id: ids[0] } }] };
        case 4:
          return { toolCalls: [{ name: 'CronList', arguments: {} }] };
        default:
          return { text: 'Scheduled and cleaned up.' };
      }
    };
    const before = server.requests.length;
    const r = await runJarvis(['-p', 'schedule things'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Scheduled and cleaned up.');
    const last = server.requests.at(-1)!;
    expect(server.requests.length - before).toBe(6);
    const [created, second, listed, deleted, listedAfter] = toolResults(last);
    expect(created).toMatch(/^id: [0-9a-f]{8}\nhumanSchedule: every 15 minutes\nnextFireAt: \d{4}-\d\d-\d\dT/);
    expect(second).toContain('humanSchedule: at 09:00 on weekdays');
    expect(listed.split('\n---\n')).toHaveLength(2);
    expect(deleted).toMatch(/^Deleted scheduled task [0-9a-f]{8}; it will not fire again\.$/);
    expect(listedAfter.split('\n---\n')).toHaveLength(1);
    expect(listedAfter).toContain('daily standup notes');
    // The recurring task does not keep print mode alive; stderr says where it stays.
    expect(r.stderr).toMatch(
      /1 recurring scheduled task will not fire after this run exits \([0-9a-f]{8} at 09:00 on weekdays\); they stay with session/,
    );
    const saved = JSON.parse(readFileSync(join(latestSessionDir(dirs.home), 'cron', 'jobs.json'), 'utf8')) as {
      jobs: Array<{ prompt: string }>;
    };
    expect(saved.jobs.map((j) => j.prompt)).toEqual(['daily standup notes']);
  });

  it('a pending one-shot keeps the run alive until it fires; its prompt then runs as a turn', async () => {
    const dirs = makeCliDirs();
    // The next whole minute that is not :00/:30 (no jitter) and not about to pass before the call runs.
    const target = new Date();
    target.setSeconds(0, 0);
    target.setMinutes(target.getMinutes() + (new Date().getSeconds() > 50 ? 2 : 1));
    while (target.getMinutes() % 30 === 0) target.setMinutes(target.getMinutes() + 1);
    const cron = `${target.getMinutes()} ${target.getHours()} ${target.getDate()} ${target.getMonth() + 1} *`;
    play = (req) => {
      if (transcript(req).includes('cron-fire')) return { text: 'FIRED: time to stretch.' };
      if (!toolResults(req).length)
        return {
          toolCalls: [
            { name: 'CronCreate', arguments: { cron, prompt: 'remind the user to stretch', recurring: false } },
          ],
        };
      return { text: 'Reminder set.' };
    };
    const before = server.requests.length;
    const r = await runJarvis(['-p', 'remind me to stretch in a minute'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
      timeoutMs: 180_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now()).toBeGreaterThanOrEqual(target.getTime());
    expect(r.stdout).toContain('Reminder set.');
    expect(r.stdout).toContain('FIRED: time to stretch.');
    expect(r.stderr).toMatch(/print mode: waiting for 1 one-time scheduled task to fire/);
    expect(r.stderr).not.toMatch(/recurring scheduled task/);
    const fire = server.requests.slice(before).find((q) => transcript(q).includes('cron-fire'))!;
    expect(transcript(fire)).toMatch(
      /<cron-fire id=\\"[0-9a-f]{8}\\" cron=\\"[^"\\]+\\" scheduledFor=\\"[^"\\]+\\" recurring=\\"false\\" coalescedCount=\\"1\\">\\nremind the user to stretch/,
    );
    const saved = JSON.parse(readFileSync(join(latestSessionDir(dirs.home), 'cron', 'jobs.json'), 'utf8')) as {
      jobs: unknown[];
    };
    expect(saved.jobs).toEqual([]);
  }, 200_000);

  it('the Cron tools are deferred (listed in ToolSearch); JARVIS_DISABLE_CRON=1 removes them', async () => {
    const dirs = makeCliDirs();
    play = () => ({ text: 'ok' });
    const r = await runJarvis(['-p', 'hi'], {
      env: cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), JARVIS_DISABLE_CRON: '1' }),
      cwd: dirs.cwd,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(offeredTools(server.requests.at(-1)!).filter((n) => n.startsWith('Cron'))).toEqual([]);
    const on = await runJarvis(['-p', 'hi'], {
      env: cliEnv(makeCliDirs(), mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(on.code, on.stderr).toBe(0);
    const withCron = server.requests.at(-1)!;
    expect((withCron.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).not.toContain(
      'CronCreate',
    );
    expect(offeredTools(withCron)).toEqual(expect.arrayContaining(['CronCreate', 'CronList', 'CronDelete']));
  });
});
