// A headless run (print mode, the SDK; docs/print-mode.md): the prompt's turn, then background work as
// `print_background_mode` says and pending one-time scheduled tasks, then the outcome as an exit code; and the run
// controls' verdict (caps, output schema) on top of it. What the run waits for is said through `notify` (print mode:
// stderr).
import type { Agent, TurnOutcome } from '../loop/loop';
import type { ContentPart } from '../../llm/types';
import type { PermissionRule } from '../policy/approvals';
import type { RunControls } from './runControls';
import type { RunReport } from './runResult';

export interface Sink {
  write(text: string): void;
}

export const EXIT_SUCCESS = 0;
export const EXIT_FAILURE = 1;
/** A usage error found before anything was sent: an unknown `/name` (docs/print-mode.md, "Exit codes"). */
export const EXIT_USAGE = 2;
/** Interrupted by SIGINT (128 + 2), after the partial turn was journalled. */
export const EXIT_INTERRUPTED = 130;
/** `-p "/goal …"` (docs/print-mode.md): complete → 0, blocked → 3, paused (interrupt, error) → 6. */
export const EXIT_GOAL_BLOCKED = 3;
export const EXIT_GOAL_PAUSED = 6;
/** The caps and the output schema (docs/print-mode.md "Exit codes"); 124 is what timeout(1) exits with. */
export const EXIT_MAX_TURNS = 4;
export const EXIT_BUDGET_EXCEEDED = 5;
export const EXIT_SCHEMA_FAILED = 7;
export const EXIT_TIMEOUT = 124;

export type PrintBackgroundMode = 'exit' | 'drain' | 'steer';

export interface BackgroundWatcher {
  /** True while tasks run or finished tasks await their notification. */
  hasPending(): boolean;
  /** Resolves when something changed (a task finished) or the signal aborts. */
  nextChange(signal: AbortSignal): Promise<void>;
  /** Notifications waiting to be delivered to the agent, taken once; each says when it is journalled. */
  takeNotifications(): Array<{ text: string; onJournalled: () => void }>;
  /** One line per task still running ("b1f2 npm run dev"), for the message about what we wait for. */
  describeRunning(): string[];
}

/** What print mode needs of the scheduled tasks (engine/background/cronScheduler.ts). */
export interface ScheduledWatcher {
  pendingOneShots(): Array<{ id: string; nextFireAt: string }>;
  recurringJobs(): Array<{ id: string; humanSchedule: string }>;
  /** Resolves at the next fire, creation or deletion, or when the signal aborts. */
  nextChange(signal: AbortSignal): Promise<void>;
  sessionId(): string;
}

export interface HeadlessRunOptions {
  prompt: string;
  /** What the model receives instead of the prompt text (a `/skill:` command's instructions). */
  promptContent?: string;
  /** The `allowed-tools` of the command behind the prompt, for its turn (engine/policy/preApproval.ts). */
  preApproved?: PermissionRule[];
  /** The prompt's `@path` attachments (promptAttachments.ts), sent after its text. */
  attachments?: ContentPart[];
  /** `/flow:<name>`: runs the flow's turns instead of sending the prompt (engine/delegation/flowRunner.ts). */
  flow?: () => Promise<{ ok: boolean; message: string; outcomes: TurnOutcome[] }>;
  /** Where what the run waits for is said (print mode: stderr). */
  notify: Sink;
  background?: { watcher: BackgroundWatcher; mode: PrintBackgroundMode; waitCeilingMs: number; maxTurns: number };
  /** Scheduled tasks of the session (absent with JARVIS_DISABLE_CRON=1). */
  scheduled?: ScheduledWatcher;
  /** Aborted by the first Ctrl-C or a cap of the run: ends any wait for background work at once. */
  stop?: AbortSignal;
  /** Goal mode: `start` creates the goal and submits its first turn (an error message if it cannot). */
  goal?: {
    start(): string | undefined;
    status(): 'active' | 'paused' | 'blocked' | 'complete' | undefined;
    reason(): string | undefined;
  };
}

function exitCodeOf(outcomes: TurnOutcome[]): number {
  const last = outcomes[outcomes.length - 1];
  if (!last) return EXIT_FAILURE;
  if (last.reason === 'completed') return EXIT_SUCCESS;
  return EXIT_FAILURE;
}

function goalExitCode(status: ReturnType<NonNullable<HeadlessRunOptions['goal']>['status']>): number {
  if (status === 'complete') return EXIT_SUCCESS;
  if (status === 'blocked') return EXIT_GOAL_BLOCKED;
  return status ? EXIT_GOAL_PAUSED : EXIT_FAILURE;
}

/** Says on stderr what print mode is waiting for (again only when the set of tasks changes). */
function announceWait(
  notify: Sink,
  bg: NonNullable<HeadlessRunOptions['background']>,
  deadline: number,
  before: string,
): string {
  const running = bg.watcher.describeRunning();
  const key = running.join('\n');
  if (!running.length || key === before) return before;
  const minutes = Math.max(1, Math.ceil((deadline - Date.now()) / 60_000));
  notify.write(
    `print mode: waiting for ${running.length} background task${running.length === 1 ? '' : 's'} to finish ` +
      `(at most ${minutes} more min, background.print_wait_ceiling_s; Ctrl-C stops ${running.length === 1 ? 'it' : 'them'}):\n` +
      running.map((line) => `  • ${line}\n`).join(''),
  );
  return key;
}

/** Runs the prompt and whatever background handling follows; resolves to the exit code. */
export async function runHeadless(agent: Agent, opts: HeadlessRunOptions, interrupted: () => boolean): Promise<number> {
  const settle = (code: number) => {
    if (!opts.goal) return code;
    const status = opts.goal.status();
    // A goal that stopped short says why (no progress, a budget, an error) where a script can read it.
    if (status === 'paused' || status === 'blocked')
      opts.notify.write(`jarvis: the goal is ${status}${opts.goal.reason() ? ` (${opts.goal.reason()})` : ''}\n`);
    return goalExitCode(status);
  };
  const goalProblem = opts.goal?.start();
  if (goalProblem) {
    opts.notify.write(`jarvis: ${goalProblem}\n`);
    return EXIT_FAILURE;
  }
  // A flow skill's run (`/flow:<name>`): its turns one after another (engine/delegation/flowRunner.ts).
  let flowOutcomes: TurnOutcome[] | undefined;
  if (opts.flow) {
    const result = await opts.flow();
    if (interrupted()) return EXIT_INTERRUPTED;
    opts.notify.write(`${result.message}\n`);
    if (!result.ok) return EXIT_FAILURE;
    flowOutcomes = result.outcomes;
  } else if (!opts.goal) {
    const extra = opts.promptContent !== undefined || opts.attachments?.length;
    const content: ContentPart[] = [
      { type: 'text', text: opts.promptContent ?? opts.prompt },
      ...(opts.attachments ?? []),
    ];
    const granted = opts.preApproved?.length ? { preApproved: opts.preApproved } : {};
    agent.submit({ kind: 'prompt', text: opts.prompt, ...(extra ? { content } : {}), ...granted });
  }
  const outcomes = [...(flowOutcomes ?? []), ...(await agent.idle())];
  if (interrupted()) return EXIT_INTERRUPTED;
  let code = exitCodeOf(outcomes);
  if (code !== EXIT_SUCCESS) return settle(code);
  const bg = opts.background;
  if (bg && bg.mode !== 'exit') code = await waitForBackground(agent, opts, bg, interrupted);
  if (opts.scheduled && code === EXIT_SUCCESS && !interrupted() && !opts.stop?.aborted)
    code = await waitForScheduled(agent, opts, opts.scheduled, interrupted);
  return interrupted() ? EXIT_INTERRUPTED : settle(code);
}

async function waitForBackground(
  agent: Agent,
  opts: HeadlessRunOptions,
  bg: NonNullable<HeadlessRunOptions['background']>,
  interrupted: () => boolean,
): Promise<number> {
  const deadline = Date.now() + bg.waitCeilingMs;
  const ceiling = new AbortController();
  const timer = setTimeout(() => ceiling.abort(), Math.min(bg.waitCeilingMs, 2_147_483_647));
  const wake = opts.stop ? AbortSignal.any([ceiling.signal, opts.stop]) : ceiling.signal;
  let turns = 0;
  let last = EXIT_SUCCESS;
  let announced = '';
  try {
    while (bg.watcher.hasPending() && Date.now() < deadline && !interrupted() && !opts.stop?.aborted) {
      const notes = bg.watcher.takeNotifications();
      if (!notes.length) {
        announced = announceWait(opts.notify, bg, deadline, announced);
        await bg.watcher.nextChange(wake);
        continue;
      }
      if (bg.mode === 'drain') continue; // drain: wait for the work, do not start turns
      if (turns >= bg.maxTurns) {
        opts.notify.write(
          `print mode: stopping after ${bg.maxTurns} background-triggered turns (background.print_max_turns)\n`,
        );
        break;
      }
      turns++;
      for (const note of notes) agent.submit({ kind: 'notification', ...note });
      last = exitCodeOf(await agent.idle());
      if (last !== EXIT_SUCCESS) break;
    }
    if (bg.watcher.hasPending() && Date.now() >= deadline) {
      opts.notify.write('print mode: background work still running at background.print_wait_ceiling_s; exiting\n');
    }
  } finally {
    clearTimeout(timer);
  }
  return last;
}

/**
 * Scheduled tasks in print mode (docs/scheduled-tasks.md): a pending one-time task keeps the run alive
 * until it has fired and its turn ended; recurring tasks do not outlive the run, and stderr says so.
 */
async function waitForScheduled(
  agent: Agent,
  opts: HeadlessRunOptions,
  scheduled: ScheduledWatcher,
  interrupted: () => boolean,
): Promise<number> {
  let last = EXIT_SUCCESS;
  let announced = '';
  const never = new AbortController().signal;
  while (!interrupted() && !opts.stop?.aborted) {
    // A fire queues its own turn on the agent; wait for it (and any other) to end first.
    const outcomes = await agent.idle();
    if (outcomes.length) last = exitCodeOf(outcomes);
    if (last !== EXIT_SUCCESS) break;
    const pending = scheduled.pendingOneShots();
    if (!pending.length) break;
    const key = pending.map((j) => j.id).join(',');
    if (key !== announced) {
      announced = key;
      opts.notify.write(
        `print mode: waiting for ${pending.length} one-time scheduled task${pending.length === 1 ? '' : 's'} to fire (Ctrl-C stops the wait):\n` +
          pending.map((j) => `  • ${j.id} at ${j.nextFireAt}\n`).join(''),
      );
    }
    // The scheduler's timer never holds the process open by itself; this wait does, until the fire.
    const keepAlive = setInterval(() => undefined, 2_147_483_647);
    try {
      await scheduled.nextChange(opts.stop ?? never);
    } finally {
      clearInterval(keepAlive);
    }
  }
  const recurring = scheduled.recurringJobs();
  if (recurring.length) {
    opts.notify.write(
      `print mode: ${recurring.length} recurring scheduled task${recurring.length === 1 ? '' : 's'} will not fire after this run exits ` +
        `(${recurring.map((j) => `${j.id} ${j.humanSchedule}`).join('; ')}); they stay with session ${scheduled.sessionId()} and fire again when it is resumed (jarvis --session ${scheduled.sessionId()}).\n`,
    );
  }
  return last;
}

const EXIT_OF = {
  max_turns: EXIT_MAX_TURNS,
  budget_exceeded: EXIT_BUDGET_EXCEEDED,
  timeout: EXIT_TIMEOUT,
  schema_failed: EXIT_SCHEMA_FAILED,
  error: EXIT_FAILURE,
} as const;

/** The exit code: Ctrl-C's stands; otherwise a cap, an unkept budget or a schema failure replaces the run's own. */
export function exitCodeOfVerdict(code: number, controls: RunControls): number {
  if (code === EXIT_INTERRUPTED) return code;
  const verdict = controls.verdict(code === EXIT_SUCCESS);
  return verdict ? EXIT_OF[verdict.outcome] : code;
}

/** What the result event says of the run's controls. */
export function reportOf(controls: RunControls, code: number): RunReport {
  const verdict = code === EXIT_INTERRUPTED ? undefined : controls.verdict(code === EXIT_SUCCESS);
  const structured = controls.structuredOutput();
  const cap = verdict?.cap;
  return {
    ...(structured ? { structuredOutput: structured } : {}),
    ...(verdict ? { error: verdict.error } : {}),
    ...(verdict?.schemaErrors ? { schemaErrors: verdict.schemaErrors } : {}),
    ...(cap ? { cap: { name: cap.name, limit: cap.limit, used: cap.used } } : {}),
  };
}
