import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackgroundTasks } from '../../../src/engine/background/backgroundTasks';
import { isGroupAlive } from '../../../src/platform/processes';
import { bashTool, FOREGROUND_DEFAULT_TIMEOUT_MS } from '../../../src/tools/shell/bashTool';
import { shellTools } from '../../../src/tools/shell';
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
    settings: { killGracePeriodMs: 200, ...settings },
    onTaskFinished: (t) => finished.push(t),
  });
  services.push(tasks);
  harness.register(TASK_SERVICE, tasks);
  return {
    harness,
    tasks,
    finished,
    run: (args: unknown, signal?: AbortSignal) => harness.run(bashTool, args, { signal }),
  };
}

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Bash foreground', () => {
  it('is exported in the shell group with ask approval and a Bash(<command>) subject', () => {
    expect(shellTools).toContain(bashTool);
    expect(bashTool.defaultApproval).toBe('ask');
    expect(bashTool.renderedDescription).toContain(String(FOREGROUND_DEFAULT_TIMEOUT_MS));
    expect(bashTool.renderedDescription.length).toBeLessThan(1_700);
    const { harness } = setup();
    const ctx = { cwd: harness.cwd, resolve: (p: string) => join(harness.cwd, p) } as never;
    expect(bashTool.subject!({ command: 'npm test' }, ctx)).toBe('Bash(npm test)');
    expect(bashTool.accesses!({ command: 'ls', cwd: 'sub' }, ctx)).toEqual([
      { kind: 'exec', cwd: join(harness.cwd, 'sub') },
    ]);
  });

  it('reports exit code, labelled stdout and stderr, and streams progress', async () => {
    const { run, harness } = setup();
    const r = await run({ command: 'echo out; echo err >&2; exit 3' });
    expect(r.isError).toBe(true); // a non-zero exit is a tool error, with the code and output kept
    expect(r.text).toContain('Exit code: 3');
    expect(r.text).toContain('<stdout>\nout\n</stdout>');
    expect(r.text).toContain('<stderr>\nerr\n</stderr>');
    expect(r.display).toEqual({ kind: 'command', command: 'echo out; echo err >&2; exit 3', exitCode: 3 });
    const streamed = harness.progress.map((p) => p.progress);
    expect(streamed).toContainEqual({ text: 'out\n', stream: 'stdout' });
    expect(streamed).toContainEqual({ text: 'err\n', stream: 'stderr' });
  });

  it('closes stdin: read gets EOF at once', async () => {
    const { run } = setup();
    const started = Date.now();
    const r = await run({ command: 'read x; echo "rc=$?"', timeout: 10_000 });
    expect(r.text).toContain('rc=1');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('runs with a non-interactive environment', async () => {
    const { run } = setup();
    const r = await run({ command: 'echo "$TERM|$NO_COLOR|$GIT_TERMINAL_PROMPT|$PAGER|$GIT_PAGER"' });
    expect(r.text).toContain('dumb|1|0|cat|cat');
  });

  it('runs in cwd (relative to the session cwd) and rejects a missing one', async () => {
    const { run, harness } = setup();
    mkdirSync(join(harness.cwd, 'sub'));
    expect((await run({ command: 'pwd', cwd: 'sub' })).text).toContain(join(harness.cwd, 'sub'));
    const bad = await run({ command: 'pwd', cwd: 'nope' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/cwd .*nope does not exist/);
  });

  it('saves the whole output of a 20 MB command on disk, not a head and tail', async () => {
    const { run } = setup();
    // 20 MB on stdout with a line on stderr in the middle: far past what memory keeps.
    const r = await run({
      command: "head -c 10000000 /dev/zero | tr '\\0' a; echo MIDDLE >&2; head -c 10000000 /dev/zero | tr '\\0' b",
      timeout: 120_000,
    });
    const path = /The full output \((\d+) bytes\) is saved at (\S+?);/.exec(r.text);
    expect(path?.[1]).toBe('20000007');
    expect(r.text.length).toBeLessThan(50_000);
    expect(r.text).not.toContain('omitted from memory');
    expect(r.text.startsWith('Exit code: 0\n<output stdout and stderr interleaved, 20000007 characters>\naaaa')).toBe(
      true,
    );
    expect(r.text).toMatch(/bbbb\n<\/output>$/);
    const saved = readFileSync(path![2], 'utf8');
    // stdout and stderr are two pipes: the stderr line can overtake the last buffered stdout chunk.
    const middle = saved.indexOf('MIDDLE\n');
    expect(middle).toBeGreaterThan(10_000_000 - 1024 * 1024);
    expect(saved.slice(0, middle) + saved.slice(middle + 7)).toBe(`${'a'.repeat(10_000_000)}${'b'.repeat(10_000_000)}`);
  });

  it('output that fits is shown whole and saves no file', async () => {
    const { run, harness } = setup();
    const r = await run({ command: "head -c 30000 /dev/zero | tr '\\0' a" });
    expect(r.text).toContain(`<stdout>\n${'a'.repeat(30_000)}\n</stdout>`);
    expect(existsSync(join(harness.scratchDir, 'tool-outputs'))).toBe(false);
  });

  it('an aborted call stops the whole process group', async () => {
    const { run } = setup();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const r = await run({ command: 'echo $$; sleep 30 & sleep 30', timeout: 20_000 }, ac.signal);
    expect(r.isError).toBe(true);
    expect(r.text).toContain('interrupted');
    const pgid = Number(/<stdout>\n(\d+)/.exec(r.text)![1]);
    expect(isGroupAlive(pgid)).toBe(false);
  });
});

describe('Bash foreground timeout', () => {
  it('moves the same process to the background; it completes and its file has all output', async () => {
    const { run, tasks, finished } = setup();
    const r = await run({ command: 'echo "pid=$$"; sleep 0.8; echo done', timeout: 300 });
    expect(r.isError).toBeFalsy();
    const id = /background task (b[a-z0-9]{7})/.exec(r.text)?.[1];
    expect(id).toBeTruthy();
    expect(r.text).toContain('pid=');
    const task = tasks.get(id!)!;
    expect(task.status).toBe('running');
    expect(r.text).toContain(`pid=${task.pid}`); // the very process that started in the foreground
    expect(task.timeoutMs).toBe(600_000);
    await until(() => finished.length === 1);
    const done = tasks.get(id!)!;
    expect(done.status).toBe('completed');
    expect(readFileSync(done.outputPath, 'utf8')).toBe(`pid=${task.pid}\ndone\n`);
  });

  it('kills the command when bash_auto_background_on_timeout is off', async () => {
    const { run, tasks } = setup({ autoBackgroundOnTimeout: false });
    const r = await run({ command: 'echo started; echo $$; sleep 30', timeout: 300 });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('did not finish within 300 ms and was stopped');
    expect(r.text).toContain('started');
    expect(tasks.list()).toEqual([]);
    const pgid = Number(/started\n(\d+)/.exec(r.text)![1]);
    expect(isGroupAlive(pgid)).toBe(false);
  });

  it('kills the command when the task service is at max_running_tasks', async () => {
    const { run } = setup({ maxRunningTasks: 1 });
    expect((await run({ command: 'sleep 30', run_in_background: true, description: 'sleeper' })).isError).toBeFalsy();
    const r = await run({ command: 'sleep 30', timeout: 200 });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('could not move to the background');
    expect(r.text).toContain('max_running_tasks = 1');
  });
});

describe('Bash background', () => {
  it('returns a task id at once with the default background timeout', async () => {
    const { run, tasks, finished, harness } = setup();
    const started = Date.now();
    const r = await run({ command: 'sleep 0.3; echo bg', run_in_background: true, description: 'short job' });
    expect(Date.now() - started).toBeLessThan(2_000);
    const id = /background task (b[a-z0-9]{7})/.exec(r.text)![1];
    expect(tasks.get(id)!.timeoutMs).toBe(600_000);
    expect(tasks.get(id)!.description).toBe('short job');
    await until(() => finished.length === 1);
    expect(readFileSync(tasks.get(id)!.outputPath, 'utf8')).toBe('bg\n');
    // The record is beside the journal; the output in the scratch folder (docs/sessions.md).
    expect(existsSync(join(harness.sessionDir, 'tasks', `${id}.json`))).toBe(true);
    expect(tasks.get(id)!.outputPath).toBe(join(harness.scratchDir, 'tasks', id, 'output.log'));
  });

  it('honours timeout, disable_timeout and bash_task_timeout_s = 0', async () => {
    const a = setup();
    const idOf = (text: string) => /background task (b[a-z0-9]{7})/.exec(text)![1];
    const t1 = idOf((await a.run({ command: 'true', run_in_background: true, description: 'x', timeout: 1_234 })).text);
    const t2 = idOf(
      (await a.run({ command: 'true', run_in_background: true, description: 'x', disable_timeout: true })).text,
    );
    expect(a.tasks.get(t1)!.timeoutMs).toBe(1_234);
    expect(a.tasks.get(t2)!.timeoutMs).toBeNull();
    const b = setup({ bashTaskTimeoutS: 0 });
    const t3 = idOf((await b.run({ command: 'true', run_in_background: true, description: 'x' })).text);
    expect(b.tasks.get(t3)!.timeoutMs).toBeNull();
  });

  it('a background timeout stops the task and reports it as failed', async () => {
    const { run, tasks, finished } = setup();
    const r = await run({ command: 'sleep 30', run_in_background: true, description: 'too slow', timeout: 300 });
    const id = /background task (b[a-z0-9]{7})/.exec(r.text)![1];
    await until(() => finished.length === 1);
    expect(tasks.get(id)).toMatchObject({
      status: 'failed',
      endReason: 'timed_out',
      statusMessage: 'timed out after 300 ms',
    });
  });

  it('rejects a new background command at max_running_tasks', async () => {
    const { run } = setup({ maxRunningTasks: 1 });
    await run({ command: 'sleep 30', run_in_background: true, description: 'one' });
    const r = await run({ command: 'sleep 30', run_in_background: true, description: 'two' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Cannot start another background task: 1 already running (max_running_tasks = 1)');
  });
});

describe('Bash argument errors', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['missing command', {}, /command/],
    ['empty command', { command: '' }, /command: command must not be empty/],
    ['blank command', { command: '   ' }, /command must not be empty/],
    ['negative timeout', { command: 'ls', timeout: -5 }, /timeout/],
    ['zero timeout', { command: 'ls', timeout: 0 }, /timeout/],
    ['foreground timeout over 5 min', { command: 'ls', timeout: 300_001 }, /foreground timeout is at most 300000 ms/],
    [
      'background timeout over 24 h',
      { command: 'ls', run_in_background: true, description: 'x', timeout: 86_400_001 },
      /timeout/,
    ],
    [
      'background without description',
      { command: 'ls', run_in_background: true },
      /description is required when run_in_background is true/,
    ],
    [
      'disable_timeout in foreground',
      { command: 'ls', disable_timeout: true },
      /disable_timeout only applies with run_in_background/,
    ],
    [
      'timeout with disable_timeout',
      { command: 'ls', run_in_background: true, description: 'x', timeout: 5, disable_timeout: true },
      /either timeout or disable_timeout/,
    ],
    ['wrong type', { command: 'ls', run_in_background: 'yes' }, /run_in_background/],
  ];
  it.each(cases)('%s', async (_name, args, message) => {
    const { run } = setup();
    const r = await run(args);
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Invalid arguments for Bash');
    expect(r.text).toMatch(message);
  });

  it('accepts a foreground timeout of exactly 5 min', async () => {
    const { run } = setup();
    expect((await run({ command: 'true', timeout: 300_000 })).text).toContain('Exit code: 0');
  });
});
