// One background task's entry and the pure parts of its life (docs/architecture.md): how it is identified, how an
// exit becomes its final status, and how its output file's tail is read. The service is backgroundTasks.ts.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openBelow, OPEN } from '../../store/ownedFiles';
import type { ExitInfo } from '../../platform/processes';
import type { TaskProcessRecord } from './taskProcess';
import type {
  OutputTail,
  TaskEndReason,
  TaskInfo,
  TaskKind,
  WaitForOptions,
  WaitForResult,
} from '../../tools/task/taskService';

/** How a task we decided to end (stop, timeout, lost) is reported. */
export interface Ending {
  reason: TaskEndReason;
  message: string;
}

export interface Entry {
  info: TaskInfo;
  child?: ChildProcess;
  /** The process `info.pid` names, as recorded when it started (taskProcess.ts). */
  process?: TaskProcessRecord;
  /** Work inside this process (a subagent): aborting it is how it is stopped. */
  abort?: AbortController;
  timer?: NodeJS.Timeout;
  ending?: Ending;
  notified: boolean;
  reported: boolean;
  /** A notification is scheduled and not yet delivered or suppressed. */
  pendingNotice: boolean;
  /** Its notification was handed to the engine in this process (journalled or not yet). */
  handedOut: boolean;
  /** A failed record write was already reported for this task. */
  warned: boolean;
  done: Promise<void>;
  markDone: () => void;
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const ID_PREFIX: Record<TaskKind, string> = { bash: 'b', subagent: 'a', tool: 't' };

/** A fresh id for a task of `kind` that `taken` does not know. */
export function newTaskId(kind: TaskKind, taken: (id: string) => boolean): string {
  for (;;) {
    const id = ID_PREFIX[kind] + [...randomBytes(7)].map((b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('');
    if (!taken(id)) return id;
  }
}

export function newEntry(info: TaskInfo, notified: boolean, reported: boolean): Entry {
  let markDone!: () => void;
  const done = new Promise<void>((r) => (markDone = r));
  return { info, notified, reported, pendingNotice: false, handedOut: false, warned: false, done, markDone };
}

/** Writes a finished task's exit, end reason, message and status into `info`. */
export function applyExit(info: TaskInfo, exit: ExitInfo, ending: Ending | undefined): void {
  info.exitCode = exit.code;
  info.signal = exit.signal;
  info.endedAt = new Date().toISOString();
  info.endReason = ending?.reason ?? 'exited';
  info.statusMessage =
    ending?.message ?? (exit.code !== null ? `exit code ${exit.code}` : `killed by ${exit.signal ?? 'a signal'}`);
  if (info.endReason === 'stopped') info.status = 'cancelled';
  else if (info.endReason === 'exited' && (exit.code === 0 || (exit.code === null && !exit.signal)))
    info.status = 'completed';
  else info.status = 'failed';
}

/**
 * The last `maxBytes` of a task's output file (`rel` below the scratch folder `root`, opened without following a link
 * a command may have planted there), never starting inside a UTF-8 character.
 */
export async function readOutputFileTail(root: string, rel: string, maxBytes: number): Promise<OutputTail> {
  let fd: number;
  try {
    fd = openBelow(root, rel, OPEN.O_RDONLY);
  } catch (e) {
    // No output file yet is a task that printed nothing; any other failure is the caller's to report.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', totalBytes: 0, truncated: false };
    throw e;
  }
  try {
    const totalBytes = fstatSync(fd).size;
    const start = Math.max(0, totalBytes - maxBytes);
    const buf = Buffer.alloc(totalBytes - start);
    const bytesRead = readSync(fd, buf, 0, buf.length, start);
    let from = 0;
    while (start > 0 && from < bytesRead && (buf[from] & 0xc0) === 0x80) from++;
    return { text: buf.subarray(from, bytesRead).toString('utf8'), totalBytes, truncated: start > 0 };
  } finally {
    closeSync(fd);
  }
}

/** What a wait needs from the service: hearing each task finish, the running list, marking a task reported. */
export interface WaitHost {
  subscribe(listener: (entry: Entry) => void): () => void;
  running(): TaskInfo[];
  markReported(entry: Entry): void;
}

/**
 * WaitFor: the task `opts.taskId` (`task`), else every running one (`all`). Answers at once when the task has ended
 * or nothing runs; else resolves when one of them finishes, the time-out passes or `opts.signal` aborts.
 */
export function waitForEntries(
  task: Entry | undefined,
  all: readonly Entry[],
  opts: WaitForOptions,
  host: WaitHost,
): Promise<WaitForResult> {
  if (task && task.info.status !== 'running') {
    host.markReported(task);
    return Promise.resolve({ finished: [{ ...task.info }], running: host.running(), timedOut: false, aborted: false });
  }
  const targets = task ? [task] : all.filter((e) => e.info.status === 'running');
  if (targets.length === 0) return Promise.resolve({ finished: [], running: [], timedOut: false, aborted: false });
  return new Promise((resolve) => {
    const finish = (timedOut: boolean, aborted: boolean) => {
      clearTimeout(timer);
      unsubscribe();
      opts.signal?.removeEventListener('abort', onAbort);
      const finished = targets.filter((e) => e.info.status !== 'running');
      // An interrupted wait reported nothing to the model, so notifications still go out.
      if (!aborted) finished.forEach((e) => host.markReported(e));
      resolve({
        finished: finished.map((e) => ({ ...e.info })),
        running: host.running(),
        timedOut,
        aborted,
      });
    };
    const onFinished = (entry: Entry) => {
      if (targets.includes(entry)) finish(false, false);
    };
    const onAbort = () => finish(false, true);
    const timer = setTimeout(() => finish(true, false), opts.timeoutMs);
    const unsubscribe = host.subscribe(onFinished);
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0 && ms >= 60_000) return `${ms / 60_000} min`;
  if (ms % 1_000 === 0) return `${ms / 1_000} s`;
  return `${ms} ms`;
}
