// Task records and notifications with the journal's discipline (docs/background-tasks.md): a
// notification is delivered when its message is journalled and is due again on resume if it was not;
// a task record that cannot be written is a warning, never a crash or a hung stop.
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BackgroundTasks } from '../../../src/engine/background/backgroundTasks';
import { defineTool } from '../../../src/tools/defineTool';
import type { TaskInfo } from '../../../src/tools/task/taskService';
import { makeEngine, runPrompt, testTools, verifyEnginesAfterEach } from '../../helpers/engineHarness';
import type { EngineHarness } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const unhandled: unknown[] = [];
process.on('unhandledRejection', (e) => unhandled.push(e));

async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`${what}: not met in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const holdCall = { toolCalls: [{ id: 'h', name: 'Hold', arguments: {} }] };

/** A tool that runs until the turn is cancelled or the test lets it go; `started` says it is running. */
function holdTool() {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const state = { started: false, release };
  const tool = defineTool({
    name: 'Hold',
    description: 'Waits.',
    schema: z.object({}),
    readOnly: true,
    defaultApproval: 'auto',
    subject: () => 'Hold',
    accesses: () => [],
    async execute(_a, ctx) {
      state.started = true;
      await new Promise<void>((resolve) => {
        void released.then(resolve);
        ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      return { content: 'held' };
    },
  });
  return { tool, state };
}

function record(h: EngineHarness, id: string): { notified: boolean; status: string } {
  return JSON.parse(readFileSync(join(h.runtime.session.dir, 'tasks', `${id}.json`), 'utf8'));
}

function journalText(h: EngineHarness): string {
  return readFileSync(h.runtime.session.journalPath, 'utf8');
}

/** Starts a task that ends at once, while the turn is inside Hold; resolves once its notification is queued. */
async function finishTaskMidTurn(h: EngineHarness, hold: ReturnType<typeof holdTool>['state']): Promise<TaskInfo> {
  h.runtime.notifications.setDelivery('agent');
  h.runtime.agent.submit({ kind: 'prompt', text: 'work' });
  await until(() => hold.started, 'the turn to reach Hold');
  const quick = { kind: 'tool' as const, description: 'quick job', timeoutMs: null, run: async () => undefined };
  const task = h.runtime.tasks.startInProcess(quick);
  await until(() => !h.runtime.notifications.hasPending(), 'the notification to be queued');
  return task;
}

describe('task notifications', () => {
  it('one queued mid-turn and lost to a cancel and a quit is delivered on resume, once', async () => {
    const hold = holdTool();
    const h = makeEngine({ tools: [...testTools(), hold.tool], responses: [holdCall, { text: 'x' }] });
    const task = await finishTaskMidTurn(h, hold.state);
    // The user presses Esc (dropping what was queued) and quits before the next step.
    h.runtime.agent.cancel(true);
    await h.runtime.agent.idle();
    await h.runtime.close();
    expect(journalText(h)).not.toContain(`Background task ${task.id}`);
    expect(record(h, task.id)).toMatchObject({ status: 'completed', notified: false });

    const dirs = { home: h.home, cwd: h.cwd };
    const again = makeEngine({ resume: h.runtime.session.location, dirs, responses: [{ text: 'noted' }] });
    const signal = AbortSignal.timeout(10_000);
    let notes = again.runtime.notifications.takeNotifications();
    while (!notes.length && !signal.aborted) {
      await again.runtime.notifications.nextChange(signal);
      notes = again.runtime.notifications.takeNotifications();
    }
    expect(notes.map((n) => n.text)).toEqual([expect.stringContaining(`Background task ${task.id} completed`)]);
    expect(record(again, task.id).notified).toBe(false);
    again.runtime.agent.submit({ kind: 'notification', ...notes[0] });
    expect((await again.runtime.agent.idle())[0]).toMatchObject({ reason: 'completed', text: 'noted' });
    expect(journalText(again)).toContain(`Background task ${task.id} completed`);
    expect(record(again, task.id).notified).toBe(true);
    await again.runtime.close();

    // Journalled now: a third run has nothing to deliver.
    const third = makeEngine({ resume: h.runtime.session.location, dirs, responses: [] });
    await new Promise((r) => setImmediate(r));
    expect(third.runtime.notifications.hasPending()).toBe(false);
    expect(third.runtime.notifications.takeNotifications()).toEqual([]);
    expect(unhandled).toEqual([]);
  });

  it('one queued mid-turn is journalled at the next step and only then marked delivered', async () => {
    const hold = holdTool();
    const h = makeEngine({ tools: [...testTools(), hold.tool], responses: [holdCall, { text: 'seen' }] });
    const task = await finishTaskMidTurn(h, hold.state);
    expect(record(h, task.id).notified).toBe(false);
    hold.state.release();
    expect((await h.runtime.agent.idle())[0]).toMatchObject({ reason: 'completed', text: 'seen' });
    // The model saw it in the same turn, after Hold's result.
    const roles = h.client.requests[1].messages.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(journalText(h)).toContain(`Background task ${task.id} completed`);
    expect(record(h, task.id).notified).toBe(true);
    expect(statSync(join(h.runtime.session.dir, 'tasks', `${task.id}.json`)).mode & 0o777).toBe(0o600);
    expect(statSync(join(h.runtime.session.dir, 'tasks')).mode & 0o777).toBe(0o700);
  });
});

describe('task records', () => {
  it('a record that cannot be written is a warning: the task ends, stop() returns, nothing escapes', async () => {
    const h = makeEngine({ responses: [{ text: 'ok' }] });
    await runPrompt(h, 'hi');
    const task = h.runtime.tasks.startInProcess({
      kind: 'tool',
      description: 'blocked record',
      timeoutMs: null,
      run: (signal) => new Promise((r) => signal.addEventListener('abort', () => r(undefined), { once: true })),
    });
    // A folder where the record goes: every later write of this record (renamed into place) fails (EISDIR).
    const record = join(h.runtime.session.dir, 'tasks', `${task.id}.json`);
    rmSync(record);
    mkdirSync(record);
    const stopped = await h.runtime.tasks.stop(task.id, 'Stopped by the test');
    expect(stopped.status).toBe('cancelled');
    const warnings = h
      .eventsOf('notice')
      .filter((n) => n.level === 'warning')
      .map((n) => n.text);
    expect(warnings).toEqual([expect.stringContaining(`Could not save the record of background task ${task.id}`)]);
    expect(warnings[0]).toContain('a folder is in its place');
    // The notification still reaches the model in this process.
    const notes: Array<{ text: string }> = [];
    await until(() => notes.push(...h.runtime.notifications.takeNotifications()) > 0, 'the notification');
    expect(notes[0].text).toContain(`Background task ${task.id} cancelled: Stopped by the test`);
    expect(unhandled).toEqual([]);
  });

  it('without an engine: a failed write never throws out of finalize, and the wait settles', async () => {
    const h = makeEngine({ responses: [] });
    const warned: string[] = [];
    const seen: TaskInfo[] = [];
    const tasks = new BackgroundTasks({
      sessionDir: h.runtime.session.dir,
      settings: { killGracePeriodMs: 100 },
      onTaskFinished: (t) => seen.push(t),
      warn: (text) => warned.push(text),
    });
    const task = tasks.startProcess({ command: 'exit 3', cwd: h.cwd, description: 'exits', timeoutMs: null });
    const record = join(h.runtime.session.dir, 'tasks', `${task.id}.json`);
    rmSync(record);
    mkdirSync(record);
    const waited = await tasks.waitFor({ taskId: task.id, timeoutMs: 10_000 });
    expect(waited.finished.map((t) => t.status)).toEqual(['failed']);
    expect(warned).toHaveLength(1);
    await tasks.close({ force: true });
    expect(unhandled).toEqual([]);
  });
});
