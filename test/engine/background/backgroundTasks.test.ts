import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackgroundTasks } from '../../../src/engine/background/backgroundTasks';
import { RecordSigner } from '../../../src/store/recordKey';
import {
  isGroupAlive,
  isGroupAliveAsync,
  nonInteractiveEnv,
  signalGroup,
  spawnShell,
  terminateGroup,
  waitForExit,
  waitForGroupEnd,
} from '../../../src/platform/processes';
import {
  resolveBashTaskTimeoutS,
  TaskLimitError,
  UnknownTaskError,
  type TaskInfo,
  type TaskSettings,
} from '../../../src/tools/task/taskService';

const services: BackgroundTasks[] = [];
const strayGroups: number[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close({ force: true })));
  for (const pgid of strayGroups.splice(0)) signalGroup(pgid, 'SIGKILL');
});

/** One key for every service of the file: a resumed service authenticates what an earlier one recorded. */
const signer = new RecordSigner(randomBytes(32));

function newService(sessionDir: string, settings: Partial<TaskSettings> = {}) {
  const finished: TaskInfo[] = [];
  // `delivered()` as the engine calls it once the notification's message is journalled.
  const onTaskFinished = (t: TaskInfo, delivered: () => void) => {
    finished.push(t);
    delivered();
  };
  const tasks = new BackgroundTasks({
    sessionDir,
    signer,
    settings: { killGracePeriodMs: 200, ...settings },
    onTaskFinished,
  });
  services.push(tasks);
  return { tasks, finished };
}

function setup(settings: Partial<TaskSettings> = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-tasks-')));
  const service = newService(join(root, 'session'), settings);
  const start = (command: string, timeoutMs: number | null = null, description = 'job') =>
    service.tasks.startProcess({ command, cwd: root, description, timeoutMs });
  return { root, sessionDir: join(root, 'session'), ...service, start };
}

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
const settle = (ms = 50) => new Promise((r) => setTimeout(r, ms));

describe('BackgroundTasks records', () => {
  it('writes tasks/<id>.json and tasks/<id>/output.log', async () => {
    const { tasks, finished, start, sessionDir } = setup();
    const task = start('echo hi; echo oops >&2; exit 2', null, 'a failing job');
    expect(task.id).toMatch(/^b[a-z0-9]{7}$/);
    // The output is in the session's scratch folder, the record beside the journal (docs/sessions.md).
    expect(task.outputPath).toBe(join(sessionDir, 'scratch', 'tasks', task.id, 'output.log'));
    await until(() => finished.length === 1);
    const record = JSON.parse(readFileSync(join(sessionDir, 'tasks', `${task.id}.json`), 'utf8'));
    expect(record).toMatchObject({
      id: task.id,
      kind: 'bash',
      command: 'echo hi; echo oops >&2; exit 2',
      description: 'a failing job',
      status: 'failed',
      exitCode: 2,
      endReason: 'exited',
      statusMessage: 'exit code 2',
      notified: true,
      reported: false,
    });
    expect(record.pid).toBe(task.pid);
    expect(Date.parse(record.endedAt)).toBeGreaterThanOrEqual(Date.parse(record.startedAt));
    expect(readFileSync(task.outputPath, 'utf8')).toBe('hi\noops\n');
    expect(tasks.get(task.id)!.status).toBe('failed');
  });

  it('gives unique ids', () => {
    const { start } = setup();
    const ids = new Set(Array.from({ length: 20 }, () => start('true').id));
    expect(ids.size).toBe(20);
  });

  it('reads the tail of the output without splitting a UTF-8 character', async () => {
    const { tasks, start } = setup();
    const task = start("printf 'é%.0s' $(seq 1 100)");
    await until(() => tasks.get(task.id)!.status !== 'running');
    const tail = await tasks.readOutputTail(task.id, 51);
    expect(tail).toEqual({ text: 'é'.repeat(25), totalBytes: 200, truncated: true });
    await expect(tasks.readOutputTail('bmissing', 10)).rejects.toBeInstanceOf(UnknownTaskError);
  });

  it('an output file that is gone reads as empty; one that cannot be read is an error, not empty', async () => {
    const { tasks, start } = setup();
    const task = start('echo done');
    await until(() => tasks.get(task.id)!.status !== 'running');
    rmSync(task.outputPath);
    expect(await tasks.readOutputTail(task.id, 100)).toEqual({ text: '', totalBytes: 0, truncated: false });
    mkdirSync(task.outputPath);
    await expect(tasks.readOutputTail(task.id, 100)).rejects.toThrow(/output\.log is a folder/);
  });

  it('a timed-out task is failed with endReason timed_out', async () => {
    const { tasks, finished, start } = setup();
    const task = start('sleep 30', 200);
    await until(() => finished.length === 1);
    expect(tasks.get(task.id)).toMatchObject({
      status: 'failed',
      endReason: 'timed_out',
      statusMessage: 'timed out after 200 ms',
    });
    expect(isGroupAlive(task.pid!)).toBe(false);
  });

  it('a command that cannot start is failed with a clear message', async () => {
    const { tasks, finished, root } = setup();
    const task = tasks.startProcess({ command: 'true', cwd: join(root, 'missing'), description: 'x', timeoutMs: null });
    await until(() => finished.length === 1);
    expect(tasks.get(task.id)).toMatchObject({ status: 'failed', endReason: 'spawn_failed' });
    expect(tasks.get(task.id)!.statusMessage).toMatch(/could not start/);
  });
});

describe('BackgroundTasks notifications', () => {
  it('announces a finished task exactly once, and hasPending covers the gap', async () => {
    const { tasks, finished, start } = setup();
    const task = start('sleep 0.2');
    expect(tasks.hasPending()).toBe(true);
    expect(tasks.runningCount()).toBe(1);
    await until(() => tasks.get(task.id)!.status !== 'running');
    await until(() => finished.length === 1);
    expect(tasks.hasPending()).toBe(false);
    await settle(100);
    expect(finished.map((t) => [t.id, t.status])).toEqual([[task.id, 'completed']]);
    // Waiting on it afterwards reports it but does not announce it again.
    const again = await tasks.waitFor({ taskId: task.id, timeoutMs: 1_000 });
    expect(again.finished.map((t) => t.id)).toEqual([task.id]);
    await settle();
    expect(finished).toHaveLength(1);
  });

  it('never announces a task that WaitFor reported', async () => {
    const { tasks, finished, start, sessionDir } = setup();
    const task = start('sleep 0.2');
    const result = await tasks.waitFor({ timeoutMs: 5_000 });
    expect(result).toMatchObject({ timedOut: false, aborted: false, running: [] });
    expect(result.finished.map((t) => t.id)).toEqual([task.id]);
    await settle(100);
    expect(finished).toEqual([]);
    expect(tasks.hasPending()).toBe(false);
    expect(JSON.parse(readFileSync(join(sessionDir, 'tasks', `${task.id}.json`), 'utf8')).reported).toBe(true);
  });

  it('stop() notifies by default (a user stop), not with notify: false', async () => {
    const { tasks, finished, start } = setup();
    const a = start('sleep 30');
    const b = start('sleep 30');
    expect((await tasks.stop(a.id, 'user stopped it')).status).toBe('cancelled');
    expect((await tasks.stop(b.id, 'reported elsewhere', { notify: false })).statusMessage).toBe('reported elsewhere');
    await until(() => finished.length >= 1);
    await settle();
    expect(finished.map((t) => [t.id, t.status, t.statusMessage])).toEqual([[a.id, 'cancelled', 'user stopped it']]);
    // Stopping a finished task is harmless.
    expect((await tasks.stop(a.id, 'again')).statusMessage).toBe('user stopped it');
    await expect(tasks.stop('bnope123', 'x')).rejects.toThrow('No background task with id "bnope123"');
  });

  it('waitFor: immediate when nothing runs, any-of, by id, timeout', async () => {
    const { tasks, start } = setup();
    expect(await tasks.waitFor({ timeoutMs: 60_000 })).toEqual({
      finished: [],
      running: [],
      timedOut: false,
      aborted: false,
    });
    const slow = start('sleep 30');
    const quick = start('sleep 0.2');
    const any = await tasks.waitFor({ timeoutMs: 10_000 });
    expect(any.finished.map((t) => t.id)).toEqual([quick.id]);
    expect(any.running.map((t) => t.id)).toEqual([slow.id]);
    const timedOut = await tasks.waitFor({ taskId: slow.id, timeoutMs: 150 });
    expect(timedOut).toMatchObject({ finished: [], timedOut: true });
    expect(timedOut.running.map((t) => t.id)).toEqual([slow.id]);
    await expect(tasks.waitFor({ taskId: 'bnope123', timeoutMs: 10 })).rejects.toBeInstanceOf(UnknownTaskError);
  });
});

describe('BackgroundTasks limits and close', () => {
  it('rejects a task beyond max_running_tasks and accepts one after a slot frees', async () => {
    const { tasks, start } = setup({ maxRunningTasks: 2 });
    const a = start('sleep 30');
    start('sleep 30');
    expect(() => start('sleep 30')).toThrow(TaskLimitError);
    expect(() => start('sleep 30')).toThrow('max_running_tasks = 2');
    await tasks.stop(a.id, 'make room');
    expect(start('true').status).toBe('running');
  });

  it('close() stops running tasks (whole group), without notifications', async () => {
    const { tasks, finished, start } = setup();
    const task = start(`bash -c 'trap "" TERM; sleep 100' & sleep 100`);
    await settle(150);
    await tasks.close();
    expect(isGroupAlive(task.pid!)).toBe(false);
    expect(tasks.get(task.id)).toMatchObject({ status: 'cancelled', endReason: 'stopped' });
    await settle();
    expect(finished).toEqual([]);
    expect(tasks.hasPending()).toBe(false);
    expect(() => start('true')).toThrow(/session is closing/);
  });

  it('keepAliveOnExit leaves tasks running; a resumed session adopts and watches them', async () => {
    const first = setup({ keepAliveOnExit: true });
    const task = first.start('echo alive; sleep 30');
    strayGroups.push(task.pid!);
    await settle(100);
    await first.tasks.close();
    expect(isGroupAlive(task.pid!)).toBe(true);

    const second = newService(first.sessionDir);
    const restored = second.tasks.restore();
    expect(restored.map((t) => [t.id, t.status])).toEqual([[task.id, 'running']]);
    expect(second.tasks.runningCount()).toBe(1);
    signalGroup(task.pid!, 'SIGKILL');
    await until(() => second.finished.length === 1, 5_000);
    expect(second.finished[0]).toMatchObject({ id: task.id, status: 'completed', exitCode: null });
    expect(second.finished[0].statusMessage).toMatch(/exit status unknown/);
    expect(readFileSync(task.outputPath, 'utf8')).toBe('alive\n');
  });
});

describe('BackgroundTasks restore', () => {
  it('marks tasks whose process is gone as failed/lost and announces them; keeps every record', async () => {
    const first = setup();
    const done = first.start('true', null, 'finished before');
    await until(() => first.finished.length === 1);
    // A record left "running" by a session that died, whose process is gone too.
    const gone = spawn('true', { detached: true });
    await waitForExit(gone);
    const record = JSON.parse(readFileSync(join(first.sessionDir, 'tasks', `${done.id}.json`), 'utf8'));
    const lost = {
      ...record,
      id: 'blost001',
      description: 'will be lost',
      status: 'running',
      pid: gone.pid,
      notified: false,
      endedAt: undefined,
      exitCode: undefined,
      endReason: undefined,
      statusMessage: undefined,
      startedAt: new Date().toISOString(),
    };
    writeFileSync(join(first.sessionDir, 'tasks', 'blost001.json'), JSON.stringify(lost));
    writeFileSync(join(first.sessionDir, 'tasks', 'broken.json'), '{"id": "bbroken');

    const second = newService(first.sessionDir);
    const restored = second.tasks.restore();
    expect(restored.map((t) => t.id).sort()).toEqual(['blost001', done.id].sort());
    expect(second.tasks.get('blost001')).toMatchObject({
      status: 'failed',
      endReason: 'lost',
      statusMessage: 'the process was gone when the session resumed',
    });
    expect(second.tasks.get(done.id)).toMatchObject({ status: 'completed' });
    await until(() => second.finished.length === 1);
    await settle();
    expect(second.finished.map((t) => t.id)).toEqual(['blost001']); // `done` was notified in the first session
    expect(second.tasks.restore()).toEqual([]); // idempotent
    expect(second.tasks.list().map((t) => t.id)).toEqual(['blost001', done.id]);
    expect(readFileSync(join(first.sessionDir, 'tasks', 'broken.json'), 'utf8')).toBe('{"id": "bbroken'); // left alone
  });

  it('announces a finished task that was never notified nor reported', async () => {
    const first = setup();
    const task = first.start('true');
    await until(() => first.finished.length === 1);
    const path = join(first.sessionDir, 'tasks', `${task.id}.json`);
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), notified: false }));
    const second = newService(first.sessionDir);
    second.tasks.restore();
    expect(second.tasks.hasPending()).toBe(true);
    await until(() => second.finished.length === 1);
    expect(second.finished[0].id).toBe(task.id);
  });
});

describe('settings and processes', () => {
  it('bash_task_timeout_s defaults to 600 s, none in print mode unless set', () => {
    expect(resolveBashTaskTimeoutS(undefined, false)).toBe(600);
    expect(resolveBashTaskTimeoutS(undefined, true)).toBe(0);
    expect(resolveBashTaskTimeoutS(30, true)).toBe(30);
    expect(resolveBashTaskTimeoutS(0, false)).toBe(0);
    const { tasks } = setup({ maxRunningTasks: undefined });
    expect(tasks.settings).toEqual({
      killGracePeriodMs: 200,
      bashTaskTimeoutS: 600,
      keepAliveOnExit: false,
      autoBackgroundOnTimeout: true,
    });
  });

  it('terminateGroup escalates to SIGKILL after the grace period', async () => {
    const child = spawnShell(`trap "" TERM; echo ready; sleep 100 & wait`, { cwd: tmpdir() });
    await new Promise((r) => child.stdout!.once('data', r));
    const started = Date.now();
    expect(await terminateGroup(child.pid!, { graceMs: 200 })).toEqual({ forced: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(isGroupAlive(child.pid!)).toBe(false);
    expect((await waitForExit(child)).signal).toBe('SIGKILL');
  });

  it('the asynchronous liveness check sees a group whose leader is gone but a member lives on', async () => {
    const child = spawnShell('sleep 100 & echo started', { cwd: tmpdir() });
    await waitForExit(child); // the leader (bash) exits at once; its `sleep` keeps the group alive
    expect(await isGroupAliveAsync(child.pid!)).toBe(true);
    expect(await waitForGroupEnd(child.pid!, 60)).toBe(false);
    signalGroup(child.pid!, 'SIGKILL');
    expect(await waitForGroupEnd(child.pid!, 5_000)).toBe(true);
    expect(await isGroupAliveAsync(child.pid!)).toBe(false);
  });

  it('terminateGroup returns without force when SIGTERM is enough', async () => {
    const child = spawnShell('sleep 100', { cwd: tmpdir() });
    await settle(50);
    expect(await terminateGroup(child.pid!, { graceMs: 5_000 })).toEqual({ forced: false });
  });

  it('waitForExit reports a process that could not start', async () => {
    const child = spawnShell('true', {
      cwd: tmpdir(),
      env: nonInteractiveEnv(process.env, { JARVIS_SHELL_PATH: '/nonexistent/shell' }),
    });
    const exit = await waitForExit(child);
    expect(exit.code).toBeNull();
    expect(exit.error?.message).toMatch(/ENOENT/);
    const plain = spawn('true');
    expect((await waitForExit(plain)).code).toBe(0);
  });
});

describe('BackgroundTasks forced exit', () => {
  it('killAllNow kills every running group and records the tasks cancelled, synchronously', async () => {
    const { tasks, start, sessionDir } = setup();
    const a = start('sleep infinity & sleep infinity; wait');
    const b = start('sleep infinity');
    await until(() => isGroupAlive(tasks.get(a.id)!.pid!) && isGroupAlive(tasks.get(b.id)!.pid!));
    tasks.killAllNow('Killed: test');
    for (const task of [a, b]) {
      const record = JSON.parse(readFileSync(join(sessionDir, 'tasks', `${task.id}.json`), 'utf8'));
      expect(record).toMatchObject({ status: 'cancelled', statusMessage: 'Killed: test' });
    }
    await until(() => !isGroupAlive(a.pid!) && !isGroupAlive(b.pid!));
  });
});
