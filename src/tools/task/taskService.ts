// The background task service as tools see it. The implementation lives in the engine
// (engine/background/backgroundTasks.ts); tools reach it through `ctx.services.get(TASK_SERVICE)`.
import type { ChildProcess } from 'node:child_process';
import type { SandboxSpawn } from '../../platform/processes';
import { serviceKey } from '../defineTool';

/** Timed-out and lost tasks are `failed`; tasks stopped by TaskStop, a user or session close are `cancelled`. */
export type TaskStatus = 'running' | 'completed' | 'failed' | 'cancelled';
export type TaskKind = 'bash' | 'subagent' | 'tool';
/** Why a task ended; `status` is derived from it (see TaskStatus). */
export type TaskEndReason = 'exited' | 'timed_out' | 'stopped' | 'lost' | 'spawn_failed';

export interface TaskInfo {
  id: string;
  kind: TaskKind;
  description: string;
  command?: string;
  cwd?: string;
  status: TaskStatus;
  /** Process id, which is also the process group id (tasks lead their own group). */
  pid?: number;
  exitCode?: number | null;
  signal?: string | null;
  endReason?: TaskEndReason;
  /** One human line on how it ended: "exit code 2", "timed out after 600 s", "Stopped by TaskStop". */
  statusMessage?: string;
  startedAt: string;
  endedAt?: string;
  /** null = no timeout. */
  timeoutMs: number | null;
  /** Full output (stdout and stderr interleaved), `scratch/tasks/<id>/output.log` in the session folder. */
  outputPath: string;
}

/** `[background]` settings the service and Bash share (docs/configuration.md). */
export interface TaskSettings {
  /** Unset = no cap. */
  maxRunningTasks?: number;
  killGracePeriodMs: number;
  /** Default background Bash timeout in seconds; 0 = none. See `resolveBashTaskTimeoutS`. */
  bashTaskTimeoutS: number;
  keepAliveOnExit: boolean;
  autoBackgroundOnTimeout: boolean;
}

export const DEFAULT_TASK_SETTINGS: TaskSettings = {
  killGracePeriodMs: 5_000,
  bashTaskTimeoutS: 600,
  keepAliveOnExit: false,
  autoBackgroundOnTimeout: true,
};

/** `bash_task_timeout_s` as configured (undefined = not set): 600 s, but none in print mode unless set. */
export function resolveBashTaskTimeoutS(configured: number | undefined, printMode: boolean): number {
  if (configured !== undefined) return configured;
  return printMode ? 0 : DEFAULT_TASK_SETTINGS.bashTaskTimeoutS;
}

export interface StartProcessSpec {
  command: string;
  cwd: string;
  description: string;
  /** null = no timeout. */
  timeoutMs: number | null;
  env?: NodeJS.ProcessEnv;
  /** Run confined: the command sandbox's program and arguments (tools/boundary/commandBoundary.ts). */
  sandbox?: SandboxSpawn;
  /** After the process ended, before the task is finished: lines added to its output (what the boundary undid). */
  afterExit?: () => string[];
}

/** A foreground command moving to the background: the same process keeps running. */
/** Work that runs inside this process (a background subagent). */
export interface InProcessSpec {
  kind: TaskKind;
  description: string;
  timeoutMs: number | null;
  /**
   * Does the work; `signal` aborts on TaskStop, timeout or session close. `write` appends to the task's
   * output. Resolves undefined on success, or with one line saying why it failed.
   */
  run(signal: AbortSignal, write: (text: string) => void): Promise<string | undefined>;
}

export interface AdoptProcessSpec extends StartProcessSpec {
  /** A group-leading child with piped stdout/stderr (see platform/processes.spawnShell). */
  child: ChildProcess;
  /** What the command printed before adoption; it starts the task's output file. */
  initialOutput: string;
  startedAt: Date;
}

export interface WaitForOptions {
  /** Wait for this task; without it, for any task that is running when the call starts. */
  taskId?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface WaitForResult {
  /** Tasks reported to the caller as finished; they produce no automatic notification. */
  finished: TaskInfo[];
  /** Tasks still running when the wait ended. */
  running: TaskInfo[];
  timedOut: boolean;
  aborted: boolean;
}

export interface OutputTail {
  text: string;
  /** Size of the whole output file. */
  totalBytes: number;
  /** True when `text` is only the end of the output. */
  truncated: boolean;
}

export interface StopOptions {
  /**
   * False when the caller itself reports the stop to the model (TaskStop does), so no automatic
   * completion notification follows. Default true.
   */
  notify?: boolean;
}

export interface TaskService {
  readonly settings: Readonly<TaskSettings>;
  /** Starts a background command. Throws TaskLimitError at `maxRunningTasks`. */
  startProcess(spec: StartProcessSpec): TaskInfo;
  /** Takes over a running foreground process. Throws TaskLimitError at `maxRunningTasks`. */
  adoptProcess(spec: AdoptProcessSpec): TaskInfo;
  /** Starts in-process work as a task (counted against `maxRunningTasks` too). */
  startInProcess(spec: InProcessSpec): TaskInfo;
  /** Newest first. */
  list(opts?: { activeOnly?: boolean; limit?: number }): TaskInfo[];
  get(id: string): TaskInfo | undefined;
  /** The last `maxBytes` of a task's output; never waits for the task. */
  readOutputTail(id: string, maxBytes: number): Promise<OutputTail>;
  /** Stops a running task (group SIGTERM → grace → SIGKILL); a finished task is returned unchanged. */
  stop(id: string, reason: string, opts?: StopOptions): Promise<TaskInfo>;
  waitFor(opts: WaitForOptions): Promise<WaitForResult>;
  runningCount(): number;
  /** Something is running, or finished and not yet notified nor reported. */
  hasPending(): boolean;
}

export const TASK_SERVICE = serviceKey<TaskService>()('backgroundTasks');

export class TaskLimitError extends Error {
  constructor(readonly limit: number) {
    super(
      `Cannot start another background task: ${limit} already running (max_running_tasks = ${limit}). ` +
        'Wait for one to finish (WaitFor), or stop one (TaskStop), then try again.',
    );
    this.name = 'TaskLimitError';
  }
}

export class UnknownTaskError extends Error {
  constructor(readonly taskId: string) {
    super(`No background task with id "${taskId}". Use TaskList (active_only: false) to see task ids.`);
    this.name = 'UnknownTaskError';
  }
}

/** One line per task, shared by TaskList, WaitFor and notifications. */
export function describeTask(task: TaskInfo): string {
  const what = task.command ? `\`${oneLine(task.command, 200)}\`` : task.kind;
  const how = task.statusMessage ? ` (${task.statusMessage})` : '';
  return `${task.id} [${task.status}${how}] ${oneLine(task.description, 120)} — ${what}; started ${task.startedAt}${task.endedAt ? `, ended ${task.endedAt}` : ''}`;
}

/** The text of the automatic completion notification the engine feeds to the agent. */
export function formatTaskNotification(task: TaskInfo, tail?: OutputTail): string {
  const lines = [
    `<task-notification>`,
    `Background task ${task.id} ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}.`,
    `Description: ${task.description}`,
    ...(task.command ? [`Command: ${task.command}`] : []),
    `Full output: ${task.outputPath} (read it with Read, or TaskOutput for the end)`,
  ];
  if (tail && tail.text) {
    lines.push(
      tail.truncated ? `Last ${Buffer.byteLength(tail.text)} bytes of output:` : 'Output:',
      tail.text.trimEnd(),
    );
  }
  lines.push('</task-notification>');
  return lines.join('\n');
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
