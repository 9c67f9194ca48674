// Workflows end to end: the built CLI in print mode against the loopback mock model. The main agent
// starts a workflow; its subagents (told apart by their system prompt) answer from their task; print
// mode waits for the background run and hands its result to the main agent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startMockModelServer,
  type MockModelServer,
  type RecordedRequest,
  type ScriptedTurn,
} from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';

let server: MockModelServer;
let script: (req: RecordedRequest) => ScriptedTurn = () => ({ text: 'unscripted' });
beforeAll(async () => {
  server = await startMockModelServer({ script: (req) => script(req) });
});
afterAll(async () => {
  await server.close();
});

const text = (req: RecordedRequest) => JSON.stringify(req.body.messages);
const isSubagent = (req: RecordedRequest) => JSON.stringify(req.body.messages[0]).includes('# Your role: subagent');
const taskOf = (req: RecordedRequest) => JSON.stringify(req.body.messages[1]);
const isNotification = (req: RecordedRequest) => text(req).includes('system-notification');

const FAN_OUT = `
export const meta = { name: 'ten-and-merge', description: 'ten notes in parallel, then one merge', phases: ['notes', 'merge'] };
export default async function ({ args, phase, agent, parallel, log }) {
  phase('notes');
  const items = args.split(',');
  const notes = await parallel(items.map((x) => () => agent({ prompt: 'Write note ' + x, type: 'explore', description: 'note ' + x })), { concurrency: 8 });
  log(notes.length + ' notes');
  phase('merge');
  return agent({ prompt: 'Merge these notes: ' + notes.join(' '), description: 'merge' });
}`;

function mainTurn(workflowArgs: Record<string, unknown>): (req: RecordedRequest) => ScriptedTurn {
  return (req) => {
    if (isSubagent(req)) {
      const task = taskOf(req);
      if (task.includes('Merge these notes'))
        return { text: `MERGED[${/Merge these notes: ([^"\\]*)/.exec(task)?.[1]}]` };
      return { text: `n${/Write note (\w+)/.exec(task)?.[1]}` };
    }
    if (isNotification(req)) return { text: 'The workflow reported back.' };
    return text(req).includes('Started workflow')
      ? { text: 'Workflow started.' }
      : { toolCalls: [{ name: 'Workflow', arguments: workflowArgs }] };
  };
}

describe('Workflow in print mode', () => {
  it('fans out 10 subagents in one phase, merges them in a second, and the result comes back as a notification', async () => {
    script = mainTurn({ script: FAN_OUT, args: '0,1,2,3,4,5,6,7,8,9' });
    const dirs = makeCliDirs();
    const before = server.requests.length;
    const r = await runJarvis(['-p', 'take notes'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
      timeoutMs: 120_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const requests = server.requests.slice(before);
    expect(requests.filter((q) => isSubagent(q) && taskOf(q).includes('Write note'))).toHaveLength(10);
    const notification = requests.find(isNotification)!;
    expect(text(notification)).toContain('MERGED[n0 n1 n2 n3 n4 n5 n6 n7 n8 n9]');
    expect(r.stdout).toContain('Workflow started.');
    expect(r.stdout).toContain('The workflow reported back.');
  });

  it('a run over the subagent limit is stopped, and the notification says which limit', async () => {
    const greedy = `export const meta = { name: 'greedy', description: '', phases: ['all'] };
export default async function ({ agent, parallel }) {
  return parallel(Array.from({ length: 70 }, (_, i) => () => agent({ prompt: 'Write note ' + i, type: 'explore' })));
}`;
    script = mainTurn({ script: greedy });
    const dirs = makeCliDirs();
    const before = server.requests.length;
    const r = await runJarvis(['-p', 'too much'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
      timeoutMs: 150_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const requests = server.requests.slice(before);
    expect(requests.filter(isSubagent).length).toBeLessThanOrEqual(64);
    expect(text(requests.find(isNotification)!)).toContain(
      'Workflow limit exceeded: the script asked for subagent number 65, and a run may start at most 64. The run was stopped.',
    );
  }, 180_000);

  it('a workflow whose agent() fails stops its running subagents and starts none of the queued ones', async () => {
    // Twelve calls, eight slots (the default): HANG, FAIL and six QUEUED start, four wait for a slot.
    const failing = `export const meta = { name: 'one-fails', description: '', phases: [] };
export default async function ({ agent }) {
  const calls = [agent({ prompt: 'HANG here', type: 'explore' }), agent({ prompt: 'FAIL now', type: 'explore' })];
  for (let i = 0; i < 10; i++) calls.push(agent({ prompt: 'QUEUED ' + i, type: 'explore' }));
  return Promise.all(calls);
}`;
    const main = mainTurn({ script: failing });
    script = (req) => {
      if (!isSubagent(req)) return main(req);
      const badKey = { error: { status: 401, body: { error: { message: 'bad key' } } } };
      return taskOf(req).includes('FAIL now') ? badKey : { hang: true };
    };
    const dirs = makeCliDirs();
    const before = server.requests.length;
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const r = await runJarvis(['-p', 'run it'], { env, cwd: dirs.cwd, timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const requests = server.requests.slice(before);
    const subagents = requests.filter(isSubagent);
    const notification = requests.find(isNotification)!;
    expect(text(notification)).toMatch(/failed/);
    expect(text(notification)).toContain('bad key');
    // None of the four waiting for a slot ever started, and no subagent request came after the report.
    expect(subagents.length).toBeLessThanOrEqual(8);
    expect(subagents.every((q) => q.at <= notification.at)).toBe(true);
    // Every subagent still running was stopped (its request dropped) before the failure was reported.
    const running = subagents.filter((q) => !taskOf(q).includes('FAIL now'));
    expect(running.length).toBeGreaterThan(0);
    for (const q of running) expect(q.abandonedAt, taskOf(q)).toBeLessThanOrEqual(notification.at);
    expect(r.stdout).toContain('The workflow reported back.');
  });
});
