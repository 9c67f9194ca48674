import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { BackgroundTasks } from '../../../src/engine/background/backgroundTasks';
import { groupMembers, isGroupAlive } from '../../../src/platform/processes';
import { taskListTool, taskOutputTool, taskStopTool, taskTools, waitForTool } from '../../../src/tools/task';
import { TASK_SERVICE, type TaskInfo, type TaskSettings } from '../../../src/tools/task/taskService';
import { makeToolHarness } from '../../helpers/toolHarness';

const services: BackgroundTasks[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close({ force: true })));
});

function setup(settings: Partial<TaskSettings> = {}) {
  const harness = makeToolHarness();
  const finished: TaskInfo[] = [];
  const tasks = new BackgroundTasks({
    sessionDir: harness.sessionDir,
    settings: { killGracePeriodMs: 300, ...settings },
    onTaskFinished: (t) => finished.push(t),
  });
  services.push(tasks);
  harness.register(TASK_SERVICE, tasks);
  const start = (command: string, description = 'test task', timeoutMs: number | null = null) =>
    tasks.startProcess({ command, cwd: harness.cwd, description, timeoutMs });
  return { harness, tasks, finished, start };
}

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const settle = () => new Promise((r) => setTimeout(r, 50));

describe('task tool definitions', () => {
  it('exports the four tools with their default approvals', () => {
    expect(taskTools.map((t) => [t.name, t.defaultApproval, t.readOnly])).toEqual([
      ['TaskList', 'auto', true],
      ['TaskOutput', 'auto', true],
      ['TaskStop', 'ask', false],
      ['WaitFor', 'auto', true],
    ]);
    for (const tool of taskTools) expect(tool.renderedDescription.length).toBeLessThan(1_500);
    expect(taskOutputTool.renderedDescription).toContain('32 KB');
  });
});

describe('TaskList', () => {
  it('lists running tasks by default and pages with limit', async () => {
    const { harness, tasks, start } = setup();
    const ids = [];
    for (let i = 0; i < 25; i++) ids.push(start('true', `quick ${i}`).id);
    await until(() => tasks.runningCount() === 0);
    const running = start('sleep 30', 'long one');

    const active = await harness.run(taskListTool, {});
    expect(active.text).toContain('1 running task(s)');
    expect(active.text).toContain(running.id);
    expect(active.text).not.toContain(ids[0]);

    const all = await harness.run(taskListTool, { active_only: false });
    expect(all.text).toContain('26 task(s), 1 running');
    expect(all.text.match(/^- /gm)).toHaveLength(20);
    expect(all.text).toContain('showing the newest 20');
    expect(all.text).toContain(running.id); // newest first
    expect(all.text).not.toContain(ids[0]);

    const limited = await harness.run(taskListTool, { active_only: false, limit: 100 });
    expect(limited.text.match(/^- /gm)).toHaveLength(26);
    expect((await harness.run(taskListTool, { active_only: false, limit: 1 })).text.match(/^- /gm)).toHaveLength(1);
  });

  it('says so when there are no tasks', async () => {
    const { harness } = setup();
    expect((await harness.run(taskListTool, {})).text).toContain('No background tasks are running');
    expect((await harness.run(taskListTool, { active_only: false })).text).toContain('no background tasks');
  });

  it.each([0, 101, -1, 2.5, '20'])('rejects limit %s', async (limit) => {
    const { harness } = setup();
    const r = await harness.run(taskListTool, { limit });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Invalid arguments for TaskList:\n- limit:/);
  });
});

describe('TaskOutput', () => {
  it('returns at most the last 32 KB inline plus output_path', async () => {
    const { harness, tasks, start } = setup();
    const task = start("head -c 100000 /dev/zero | tr '\\0' x; echo; echo THE-END");
    await until(() => tasks.get(task.id)!.status !== 'running');
    const r = await harness.run(taskOutputTool, { task_id: task.id });
    expect(r.text).toContain(`output_path: ${task.outputPath}`);
    expect(r.text).toContain('THE-END');
    expect(r.text).toMatch(/Last 32768 of 100009 bytes/);
    expect(r.text.length).toBeLessThan(34_000);
  });

  it('never blocks on a running task', async () => {
    const { harness, tasks, start } = setup();
    const task = start('echo early; sleep 30');
    await until(() => tasks.get(task.id) !== undefined);
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const r = await harness.run(taskOutputTool, { task_id: task.id });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(r.text).toContain('[running]');
    expect(r.text).toContain('early');
    expect(r.text).toContain('Still running');
  });

  it('errors clearly on an unknown or missing id', async () => {
    const { harness } = setup();
    expect((await harness.run(taskOutputTool, { task_id: 'bnope000' })).text).toContain(
      'No background task with id "bnope000"',
    );
    expect((await harness.run(taskOutputTool, {})).text).toMatch(/- task_id:/);
  });
});

describe('TaskStop', () => {
  it('kills the whole group, including a grandchild that ignores SIGTERM', async () => {
    const { harness, tasks, finished, start } = setup({ killGracePeriodMs: 300 });
    const task = start(`bash -c 'trap "" TERM; echo ready; sleep 100' & sleep 100`);
    await until(() => groupMembers(task.pid!).length >= 3);
    await until(() => tasks.get(task.id) !== undefined);
    const r = await harness.run(taskStopTool, { task_id: task.id });
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain(`Stopped task ${task.id}`);
    expect(r.text).toContain('Stopped by TaskStop');
    expect(isGroupAlive(task.pid!)).toBe(false);
    const ps = execFileSync('ps', ['-e', '-o', 'pgid=,stat=']).toString().split('\n');
    expect(
      ps.filter((l) => l.trim().split(/\s+/)[0] === String(task.pid) && !l.trim().split(/\s+/)[1].startsWith('Z')),
    ).toEqual([]);
    expect(tasks.get(task.id)).toMatchObject({
      status: 'cancelled',
      endReason: 'stopped',
      statusMessage: 'Stopped by TaskStop',
    });
    await settle();
    expect(finished).toEqual([]); // the TaskStop result already told the model
  });

  it('uses the given reason and is safe on a finished task', async () => {
    const { harness, tasks, start } = setup();
    const task = start('sleep 30');
    await harness.run(taskStopTool, { task_id: task.id, reason: 'no longer needed' });
    expect(tasks.get(task.id)!.statusMessage).toBe('no longer needed');
    const again = await harness.run(taskStopTool, { task_id: task.id });
    expect(again.isError).toBeFalsy();
    expect(again.text).toContain('had already finished');
    const unknown = await harness.run(taskStopTool, { task_id: 'bzzzzzzz' });
    expect(unknown.isError).toBe(true);
  });

  it('has a TaskStop(<id>) subject', () => {
    expect(taskStopTool.subject!({ task_id: 'b1234567' }, {} as never)).toBe('TaskStop(b1234567)');
  });
});

describe('WaitFor', () => {
  it('returns at once when nothing runs', async () => {
    const { harness } = setup();
    const started = Date.now();
    const r = await harness.run(waitForTool, { timeout: 600 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('nothing to wait for');
  });

  it('waits for any task running at call time and suppresses its notification', async () => {
    const { harness, finished, start } = setup();
    const quick = start('sleep 0.3; echo quick-out', 'quick');
    const slow = start('sleep 30', 'slow');
    const r = await harness.run(waitForTool, { timeout: 20 });
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain(`Task finished: ${quick.id} [completed (exit code 0)]`);
    expect(r.text).toContain('quick-out');
    expect(r.text).toContain(`Still running:\n- ${slow.id}`);
    await settle();
    expect(finished).toEqual([]);
  });

  it('waits for one task by id, and reports an already finished one at once', async () => {
    const { harness, tasks, finished, start } = setup();
    const other = start('sleep 0.1', 'other');
    const target = start('sleep 0.5; exit 4', 'target');
    const r = await harness.run(waitForTool, { task_id: target.id, timeout: 20 });
    expect(r.text).toContain(`Task finished: ${target.id} [failed (exit code 4)]`);
    await until(() => finished.length === 1);
    expect(finished[0].id).toBe(other.id); // only the one nobody reported
    expect(tasks.get(target.id)!.status).toBe('failed');
    const again = await harness.run(waitForTool, { task_id: other.id, timeout: 1 });
    expect(again.text).toContain(`Task finished: ${other.id}`);
  });

  it('a timeout is not an error and lists what still runs', async () => {
    const { harness, start } = setup();
    const slow = start('sleep 30', 'slow one');
    const r = await harness.run(waitForTool, { timeout: 0.3 });
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('No task finished within 0.3 s');
    expect(r.text).toContain(`- ${slow.id} [running] slow one`);
  });

  it('an interrupted wait is reported and the task is still notified later', async () => {
    const { harness, finished, start } = setup();
    const task = start('sleep 0.4', 'x');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const r = await harness.run(waitForTool, { timeout: 10 }, { signal: ac.signal });
    expect(r.isError).toBe(true);
    await until(() => finished.length === 1);
    expect(finished[0].id).toBe(task.id);
  });

  it.each<[string, unknown, RegExp]>([
    ['timeout 601', { timeout: 601 }, /timeout: timeout is in seconds and at most 600/],
    ['missing timeout', {}, /- timeout:/],
    ['zero timeout', { timeout: 0 }, /- timeout:/],
    ['negative timeout', { timeout: -1 }, /- timeout:/],
    ['empty task_id', { timeout: 1, task_id: '' }, /task_id must not be empty/],
    ['unknown task_id', { timeout: 1, task_id: 'bnothere' }, /No background task with id "bnothere"/],
  ])('rejects %s', async (_name, args, message) => {
    const { harness } = setup();
    const r = await harness.run(waitForTool, args);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(message);
  });
});
