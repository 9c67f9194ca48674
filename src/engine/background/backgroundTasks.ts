// Background tasks of one session: commands that outlive the tool call that started them. Each task
// has a record (`tasks/<id>.json` in the session folder, out of every command's reach) and an output file
// (`tasks/<id>/output.log` in the session's scratch folder, which commands and the model read back), so a
// resumed session keeps them. A finished task is announced once through `onTaskFinished`, unless WaitFor
// (or TaskStop) already reported it to the model. A task inherited from an earlier run is signalled only
// when its record's process is verified to be the one this session started (taskProcess.ts).
import type { ChildProcess } from 'node:child_process';
import { basename } from 'node:path';
import { closeSync, writeSync } from 'node:fs';
import type { RecordSigner } from '../../store/recordKey';
import { TaskFiles } from './taskRecords';
import { checkTaskProcess, notSignalled, recordTaskProcess, watchGroup } from './taskProcess';
import {
  applyExit,
  definedOnly,
  formatDuration,
  newEntry,
  newTaskId,
  waitForEntries,
  type Ending,
  type Entry,
} from './taskEntry';

export { formatDuration } from './taskEntry';
import {
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
  /** The session folder: records go to its `tasks/`, output to its scratch folder (store/paths.ts). */
  sessionDir: string;
  /** Authenticates the process a record names (store/recordKey.ts); without it no inherited task is ever signalled. */
  signer?: RecordSigner;
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

export class BackgroundTasks implements TaskService {
  readonly settings: Readonly<TaskSettings>;
  private readonly entries = new Map<string, Entry>();
  private readonly finishListeners = new Set<(entry: Entry) => void>();
  private readonly files: TaskFiles;
  private closed = false;

  constructor(private readonly opts: BackgroundTasksOptions) {
    this.settings = Object.freeze({ ...DEFAULT_TASK_SETTINGS, ...definedOnly(opts.settings) });
    this.files = new TaskFiles(opts.sessionDir);
  }

  /** The output file of a task just created; when it cannot be opened the task ends before it starts (and throws). */
  private openOutputFor(entry: Entry): number {
    try {
      return this.files.openOutput(entry.info.id);
    } catch (e) {
      entry.reported = true;
      this.finalize(entry, { code: null, signal: null, error: e instanceof Error ? e : new Error(String(e)) });
      throw e;
    }
  }

  startProcess(spec: StartProcessSpec): TaskInfo {
    const entry = this.create('bash', spec);
    const fd = this.openOutputFor(entry);
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
    const fd = this.openOutputFor(entry);
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
      this.files.appendOutput(entry.info.id, `\n${lines.join('\n')}\n`);
    } catch (e) {
      this.opts.warn?.(`${entry.info.id}: could not add to ${entry.info.outputPath}: ${(e as Error).message}`);
    }
  }

  startInProcess(spec: InProcessSpec): TaskInfo {
    const entry = this.create(spec.kind, { description: spec.description, timeoutMs: spec.timeoutMs });
    entry.abort = new AbortController();
    this.armTimeout(entry, entry.info.timeoutMs);
    this.persist(entry);
    const write = (text: string) => this.files.appendOutput(entry.info.id, text);
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
    return this.files.readOutputTail(this.entryOf(id).info.id, maxBytes);
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
    const task = opts.taskId === undefined ? undefined : this.entryOf(opts.taskId);
    return waitForEntries(task, [...this.entries.values()], opts, {
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
      if (entry.info.pid !== undefined && !entry.abort) {
        const verdict = entry.child ? { ours: true as const } : this.checkInherited(entry);
        if (verdict.ours) signalGroup(entry.info.pid, 'SIGKILL');
        else entry.ending = notSignalled(verdict);
      }
      this.finalize(entry, { code: null, signal: 'SIGKILL' });
    }
  }

  /**
   * Reads every `tasks/*.json` of the session (on resume). A task recorded as running whose process
   * group is gone becomes failed ("lost"); one still alive is watched until it ends. Finished tasks
   * that were never notified nor reported are notified now. Returns the tasks it loaded.
   */
  restore(): TaskInfo[] {
    const loaded = this.files.read();
    for (const text of loaded.warnings) this.opts.warn?.(text);
    const records = loaded.records.filter((r) => !this.entries.has(r.id));
    for (const { notified, reported, process, ...info } of records) {
      const entry = newEntry(info, notified, reported);
      entry.process = process;
      this.entries.set(info.id, entry);
      if (info.status !== 'running') {
        if (!notified && !reported) this.scheduleNotice(entry);
        continue;
      }
      const verdict = this.checkInherited(entry);
      if (verdict.ours) {
        this.watchInherited(entry, info.pid!);
      } else {
        entry.ending = verdict.gone
          ? { reason: 'lost', message: 'the process was gone when the session resumed' }
          : notSignalled(verdict);
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
    this.files.ensure();
    const id = this.newId(kind);
    const info: TaskInfo = {
      id,
      kind,
      description: spec.description,
      command: spec.command,
      cwd: spec.cwd,
      status: 'running',
      startedAt: startedAt.toISOString(),
      timeoutMs: spec.timeoutMs,
      outputPath: this.files.outputPath(id),
    };
    const entry = newEntry(info, false, false);
    this.entries.set(id, entry);
    this.opts.onTaskChange?.('started', { ...info });
    return entry;
  }

  private newId(kind: TaskKind): string {
    return newTaskId(kind, (id) => this.entries.has(id) || this.files.hasRecord(id));
  }

  /** Follows a live child: records its pid (and which process it names), arms its timeout, finalizes it when it exits. */
  private attach(entry: Entry, child: ChildProcess, afterExit: () => Promise<void>): void {
    entry.child = child;
    entry.info.pid = child.pid;
    if (child.pid !== undefined)
      entry.process = recordTaskProcess(this.opts.signer, basename(this.opts.sessionDir), entry.info.id, child.pid);
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
    watchGroup(pid, entry.done, () => {
      if (entry.info.status !== 'running') return;
      const message = 'finished; exit status unknown (it outlived the session that started it)';
      entry.ending ??= { reason: 'exited', message };
      this.finalize(entry, { code: null, signal: null });
    });
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
    // An inherited task's process is checked again right before the signal: its pid may have been reused since.
    const verdict = entry.child ? { ours: true as const } : this.checkInherited(entry);
    if (!verdict.ours) {
      entry.ending = notSignalled(verdict);
      this.finalize(entry, { code: null, signal: null });
    } else if (pid !== undefined) await terminateGroup(pid, { graceMs });
    if (!entry.child) this.finalize(entry, { code: null, signal: 'SIGTERM' });
    await entry.done;
  }

  /** Whether the process an inherited task's record names may be signalled (taskProcess.ts; bound to the session). */
  private checkInherited(entry: Entry) {
    const sessionId = basename(this.opts.sessionDir);
    return checkTaskProcess({ ...entry.info, process: entry.process }, this.opts.signer, sessionId);
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
    const record = {
      ...entry.info,
      notified: entry.notified,
      reported: entry.reported,
      ...(entry.process ? { process: entry.process } : {}),
    };
    const failure = this.files.write(record);
    if (!failure || entry.warned) return;
    entry.warned = true;
    this.opts.warn?.(failure);
  }
}
