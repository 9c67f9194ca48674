// Background tasks of one session: commands that outlive the tool call that started them. Each task
// has a record (`tasks/<id>.json`) and an output file (`tasks/<id>/output.log`) under the session
// directory, so a resumed session keeps them. A finished task is announced once through
// `onTaskFinished`, unless WaitFor (or TaskStop) already reported it to the model.
import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { appendPrivateFileSync, mkdirPrivateSync, openPrivateSync } from '../../store/privateFiles';
import { readTaskRecords, taskRecordPath, writeTaskRecord } from './taskRecords';
import {
  applyExit,
  definedOnly,
  formatDuration,
  newEntry,
  newTaskId,
  readOutputFileTail,
  waitForEntries,
  type Ending,
  type Entry,
} from './taskEntry';

export { formatDuration } from './taskEntry';
import {
  isGroupAlive,
  isGroupAliveAsync,
  nonInteractiveEnv,
  releasePipes,
  signalGroup,
  spawnShell,
  terminateGroup,
  waitForExit,
  type ExitInfo,
} from '../../platform/processes';
import { disownGroup } from '../../platform/ownedGroups';
import {
  DEFAULT_TASK_SETTINGS,
  TaskLimitError,
  UnknownTaskError,
  type AdoptProcessSpec,
  type InProcessSpec,
  type OutputTail,
  type StartProcessSpec,
  type StopOptions,
  type TaskInfo,
  type TaskKind,
  type TaskService,
  type TaskSettings,
  type WaitForOptions,
  type WaitForResult,
} from '../../tools/task/taskService';

export interface BackgroundTasksOptions {
  sessionDir: string;
  /** Missing fields take DEFAULT_TASK_SETTINGS. */
  settings: Partial<TaskSettings>;
  /**
   * Called once per finished task that WaitFor/TaskStop did not report; the engine queues a notification
   * step and calls `delivered` once its message is in the journal. Until then it is due again on resume.
   */
  onTaskFinished?: (task: TaskInfo, delivered: () => void) => void;
  /** A record beside the journal could not be written (the user is told; the task goes on). */
  warn?: (text: string) => void;
  /** Every start and every end of a task (hooks' TaskStarted and Notification). */
  onTaskChange?: (change: 'started' | 'finished', task: TaskInfo) => void;
}

/** How long a finished process's pipes may keep delivering output before we stop reading. */
const PIPE_DRAIN_MS = 200;
/** How often a task inherited from an earlier session is checked for liveness. */
const RESTORED_POLL_MS = 1_000;

export class BackgroundTasks implements TaskService {
  readonly settings: Readonly<TaskSettings>;
  private readonly entries = new Map<string, Entry>();
  private readonly finishListeners = new Set<(entry: Entry) => void>();
  private readonly tasksDir: string;
  private closed = false;

  constructor(private readonly opts: BackgroundTasksOptions) {
    this.settings = Object.freeze({ ...DEFAULT_TASK_SETTINGS, ...definedOnly(opts.settings) });
    this.tasksDir = join(opts.sessionDir, 'tasks');
  }

  startProcess(spec: StartProcessSpec): TaskInfo {
    const entry = this.create('bash', spec);
    const fd = openPrivateSync(entry.info.outputPath, 'a');
    let child: ChildProcess;
    try {
      const env = spec.env ?? nonInteractiveEnv();
      child = spawnShell(spec.command, {
        cwd: spec.cwd,
        env,
        output: fd,
        // Stopped with this process however it ends, unless tasks are kept alive on exit (platform/ownedGroups.ts).
        own: this.settings.keepAliveOnExit ? 'none' : 'command',
        ...(spec.sandbox ? { sandbox: spec.sandbox } : {}),
      });
    } catch (e) {
      // The caller gets the exception; the model never heard of this task, so it is not announced.
      entry.reported = true;
      this.finalize(entry, { code: null, signal: null, error: e instanceof Error ? e : new Error(String(e)) });
      throw e;
    } finally {
      closeSync(fd); // the child holds its own copy
    }
    this.attach(entry, child, () => {
      this.appendAfterExit(entry, spec);
      return Promise.resolve();
    });
    return { ...entry.info };
  }

  adoptProcess(spec: AdoptProcessSpec): TaskInfo {
    const entry = this.create('bash', spec, spec.startedAt);
    // A command that became a task may now outlive this process, as tasks started in the background may.
    if (this.settings.keepAliveOnExit && spec.child.pid !== undefined) disownGroup(spec.child.pid);
    const fd = openPrivateSync(entry.info.outputPath, 'a');
    if (spec.initialOutput) writeSync(fd, spec.initialOutput);
    const write = (chunk: string | Buffer) => writeSync(fd, typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    spec.child.stdout?.on('data', write);
    spec.child.stderr?.on('data', write);
    this.attach(entry, spec.child, async () => {
      await releasePipes(spec.child, PIPE_DRAIN_MS);
      closeSync(fd);
      this.appendAfterExit(entry, spec);
    });
    return { ...entry.info };
  }

  /** What the command's owner adds once it ended (the trust boundary's report), at the end of its output. */
  private appendAfterExit(entry: Entry, spec: StartProcessSpec): void {
    const lines = spec.afterExit?.() ?? [];
    if (lines.length === 0) return;
    try {
      appendPrivateFileSync(entry.info.outputPath, `\n${lines.join('\n')}\n`);
    } catch (e) {
      this.opts.warn?.(`${entry.info.id}: could not add to ${entry.info.outputPath}: ${(e as Error).message}`);
    }
  }

  startInProcess(spec: InProcessSpec): TaskInfo {
    const entry = this.create(spec.kind, { description: spec.description, timeoutMs: spec.timeoutMs });
    entry.abort = new AbortController();
    this.armTimeout(entry, entry.info.timeoutMs);
    this.persist(entry);
    const write = (text: string) => appendPrivateFileSync(entry.info.outputPath, text);
    void spec.run(entry.abort.signal, write).then(
      (failure) => {
        if (failure !== undefined) entry.ending ??= { reason: 'exited', message: failure };
        this.finalize(entry, { code: failure === undefined ? 0 : 1, signal: null });
      },
      (e: unknown) => {
        entry.ending ??= { reason: 'exited', message: `failed: ${e instanceof Error ? e.message : String(e)}` };
        this.finalize(entry, { code: 1, signal: null });
      },
    );
    return { ...entry.info };
  }

  list(opts: { activeOnly?: boolean; limit?: number } = {}): TaskInfo[] {
    const all = [...this.entries.values()].reverse().map((e) => e.info);
    const picked = opts.activeOnly ? all.filter((t) => t.status === 'running') : all;
    return picked.slice(0, opts.limit ?? picked.length).map((t) => ({ ...t }));
  }

  get(id: string): TaskInfo | undefined {
    const entry = this.entries.get(id);
    return entry && { ...entry.info };
  }

  async readOutputTail(id: string, maxBytes: number): Promise<OutputTail> {
    return readOutputFileTail(this.entryOf(id).info.outputPath, maxBytes);
  }

  async stop(id: string, reason: string, opts: StopOptions = {}): Promise<TaskInfo> {
    const entry = this.entryOf(id);
    if (entry.info.status === 'running') {
      if (opts.notify === false) entry.reported = true;
      await this.end(entry, { reason: 'stopped', message: reason }, this.settings.killGracePeriodMs);
    }
    return { ...entry.info };
  }

  async waitFor(opts: WaitForOptions): Promise<WaitForResult> {
    let targets: Entry[];
    if (opts.taskId !== undefined) {
      const entry = this.entryOf(opts.taskId);
      if (entry.info.status !== 'running') {
        this.markReported(entry);
        return {
          finished: [{ ...entry.info }],
          running: this.list({ activeOnly: true }),
          timedOut: false,
          aborted: false,
        };
      }
      targets = [entry];
    } else {
      targets = [...this.entries.values()].filter((e) => e.info.status === 'running');
      if (targets.length === 0) return { finished: [], running: [], timedOut: false, aborted: false };
    }
    return waitForEntries(targets, opts, {
      subscribe: (listener) => {
        this.finishListeners.add(listener);
        return () => this.finishListeners.delete(listener);
      },
      running: () => this.list({ activeOnly: true }),
      markReported: (entry) => this.markReported(entry),
    });
  }

  runningCount(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.info.status === 'running') n++;
    return n;
  }

  hasPending(): boolean {
    for (const e of this.entries.values()) if (e.info.status === 'running' || e.pendingNotice) return true;
    return false;
  }

  /**
   * Session close. Running tasks are stopped (SIGTERM to each group, grace, SIGKILL) unless
   * `keepAliveOnExit`, in which case they are left running and released so this process can exit;
   * a resumed session picks them up again through `restore()`. `force` skips the grace period.
   * Tasks ended by close are never notified; `reason` is what their records say (default: the session was closed).
   */
  async close(opts: { force?: boolean; reason?: string } = {}): Promise<void> {
    this.closed = true;
    const running = [...this.entries.values()].filter((e) => e.info.status === 'running');
    if (this.settings.keepAliveOnExit) {
      for (const e of running) {
        clearTimeout(e.timer);
        e.child?.unref();
        for (const s of [e.child?.stdout, e.child?.stderr])
          (s as unknown as { unref?: () => void } | null | undefined)?.unref?.();
      }
      return;
    }
    const grace = opts.force ? 0 : this.settings.killGracePeriodMs;
    await Promise.all(
      running.map((e) =>
        this.end(e, { reason: 'stopped', message: opts.reason ?? 'Stopped: the session was closed' }, grace),
      ),
    );
  }

  /**
   * The forced exit (a second Ctrl-C): SIGKILL every running task's process group and record the
   * task as cancelled, synchronously, because the process ends right after and no exit event follows.
   */
  killAllNow(reason: string): void {
    this.closed = true;
    for (const entry of this.entries.values()) {
      if (entry.info.status !== 'running') continue;
      entry.ending ??= { reason: 'stopped', message: reason };
      if (entry.info.pid !== undefined) signalGroup(entry.info.pid, 'SIGKILL');
      this.finalize(entry, { code: null, signal: 'SIGKILL' });
    }
  }

  /**
   * Reads every `tasks/*.json` of the session (on resume). A task recorded as running whose process
   * group is gone becomes failed ("lost"); one still alive is watched until it ends. Finished tasks
   * that were never notified nor reported are notified now. Returns the tasks it loaded.
   */
  restore(): TaskInfo[] {
    const loaded = readTaskRecords(this.tasksDir);
    for (const text of loaded.warnings) this.opts.warn?.(text);
    const records = loaded.records.filter((r) => !this.entries.has(r.id));
    for (const { notified, reported, ...info } of records) {
      const entry = newEntry(info, notified, reported);
      this.entries.set(info.id, entry);
      if (info.status !== 'running') {
        if (!notified && !reported) this.scheduleNotice(entry);
      } else if (info.pid !== undefined && isGroupAlive(info.pid)) {
        this.watchInherited(entry, info.pid);
      } else {
        entry.ending = { reason: 'lost', message: 'the process was gone when the session resumed' };
        this.finalize(entry, { code: null, signal: null });
      }
    }
    return records.map((r) => ({ ...this.entries.get(r.id)!.info }));
  }

  private create(
    kind: TaskKind,
    spec: Pick<StartProcessSpec, 'description' | 'timeoutMs'> & Partial<StartProcessSpec>,
    startedAt = new Date(),
  ): Entry {
    if (this.closed) throw new Error('The session is closing; no new background tasks can start.');
    const max = this.settings.maxRunningTasks;
    if (max !== undefined && this.runningCount() >= max) throw new TaskLimitError(max);
    mkdirPrivateSync(this.tasksDir);
    const id = this.newId(kind);
    mkdirPrivateSync(join(this.tasksDir, id));
    const info: TaskInfo = {
      id,
      kind,
      description: spec.description,
      command: spec.command,
      cwd: spec.cwd,
      status: 'running',
      startedAt: startedAt.toISOString(),
      timeoutMs: spec.timeoutMs,
      outputPath: join(this.tasksDir, id, 'output.log'),
    };
    const entry = newEntry(info, false, false);
    this.entries.set(id, entry);
    this.opts.onTaskChange?.('started', { ...info });
    return entry;
  }

  private newId(kind: TaskKind): string {
    return newTaskId(kind, (id) => this.entries.has(id) || existsSync(taskRecordPath(this.tasksDir, id)));
  }

  /** Follows a live child: records its pid, arms its timeout, finalizes it when it exits. */
  private attach(entry: Entry, child: ChildProcess, afterExit: () => Promise<void>): void {
    entry.child = child;
    entry.info.pid = child.pid;
    this.armTimeout(entry, entry.info.timeoutMs);
    this.persist(entry);
    void waitForExit(child).then(async (exit) => {
      await afterExit();
      this.finalize(entry, exit);
    });
  }

  private armTimeout(entry: Entry, timeoutMs: number | null): void {
    if (timeoutMs === null) return;
    const message = `timed out after ${formatDuration(timeoutMs)}`;
    entry.timer = setTimeout(
      () => void this.end(entry, { reason: 'timed_out', message }, this.settings.killGracePeriodMs),
      timeoutMs,
    );
    entry.timer.unref();
  }

  /** A task left running by an earlier session: no pipes or exit status, only its process group. */
  private watchInherited(entry: Entry, pid: number): void {
    const deadline = entry.info.timeoutMs === null ? null : Date.parse(entry.info.startedAt) + entry.info.timeoutMs;
    if (deadline !== null) this.armTimeout(entry, Math.max(0, deadline - Date.now()));
    let checking = false;
    const poll = setInterval(() => {
      if (checking) return;
      checking = true;
      // A failed check counts as alive: the next tick looks again.
      void isGroupAliveAsync(pid)
        .catch(() => true)
        .then((alive) => {
          checking = false;
          if (alive || entry.info.status !== 'running') return;
          clearInterval(poll);
          entry.ending ??= {
            reason: 'exited',
            message: 'finished; exit status unknown (it outlived the session that started it)',
          };
          this.finalize(entry, { code: null, signal: null });
        });
    }, RESTORED_POLL_MS);
    poll.unref();
    void entry.done.then(() => clearInterval(poll));
  }

  /** Ends a running task: the whole group gets SIGTERM, then SIGKILL after `graceMs`. */
  private async end(entry: Entry, ending: Ending, graceMs: number): Promise<void> {
    if (entry.info.status !== 'running') return;
    entry.ending ??= ending;
    if (entry.abort) {
      entry.abort.abort();
      await entry.done;
      return;
    }
    const pid = entry.info.pid;
    if (pid !== undefined) await terminateGroup(pid, { graceMs });
    if (!entry.child) this.finalize(entry, { code: null, signal: 'SIGTERM' });
    await entry.done;
  }

  private finalize(entry: Entry, exit: ExitInfo): void {
    const info = entry.info;
    if (info.status !== 'running') return;
    clearTimeout(entry.timer);
    const ending: Ending | undefined =
      entry.ending ??
      (exit.error ? { reason: 'spawn_failed', message: `could not start: ${exit.error.message}` } : undefined);
    applyExit(info, exit, ending);
    // Tasks ended by session close are not announced, now or on resume.
    if (this.closed) entry.notified = true;
    this.persist(entry);
    entry.markDone();
    this.opts.onTaskChange?.('finished', { ...info });
    for (const listener of [...this.finishListeners]) listener(entry);
    if (!entry.reported && !entry.notified) this.scheduleNotice(entry);
  }

  /** Deferred, so a WaitFor answering in the same turn of the event loop wins over the notification. */
  private scheduleNotice(entry: Entry): void {
    entry.pendingNotice = true;
    setImmediate(() => {
      if (!entry.pendingNotice) return;
      entry.pendingNotice = false;
      if (entry.reported || entry.notified || entry.handedOut || this.closed) return;
      entry.handedOut = true;
      // Delivered only once its message is journalled: a notification lost to a quit or a cancel
      // before the next step is still due when the session resumes.
      this.opts.onTaskFinished?.({ ...entry.info }, () => {
        if (entry.notified) return;
        entry.notified = true;
        this.persist(entry);
      });
    });
  }

  private markReported(entry: Entry): void {
    if (entry.reported) return;
    entry.reported = true;
    entry.pendingNotice = false;
    this.persist(entry);
  }

  private entryOf(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw new UnknownTaskError(id);
    return entry;
  }

  /** Best effort (taskRecords.ts): a failed write is reported once per task and never stops the task. */
  private persist(entry: Entry): void {
    const record = { ...entry.info, notified: entry.notified, reported: entry.reported };
    const failure = writeTaskRecord(this.tasksDir, record);
    if (!failure || entry.warned) return;
    entry.warned = true;
    this.opts.warn?.(failure);
  }
}
