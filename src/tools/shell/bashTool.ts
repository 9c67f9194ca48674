// Bash: runs one command in its own process group with stdin closed. Foreground output streams to
// front ends as progress; a foreground timeout hands the same process to the background task
// service (or kills it, per `bash_auto_background_on_timeout`). Background runs go straight to the
// task service. A non-zero exit code marks the result as a tool error (exit code and output kept).
// Output past what the model is shown is saved whole in the session (savedOutput.ts).
import type { ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { z } from 'zod';
import {
  nonInteractiveEnv,
  releasePipes,
  spawnShell,
  terminateGroup,
  waitForExit,
  type ExitInfo,
} from '../../platform/processes';
import { CommandOutput } from '../../platform/commandOutput';
import { defineTool, type ToolContext, type ToolResult } from '../defineTool';
import { SAVED_OUTPUT_MAX_BYTES, SavedOutput } from './savedOutput';
import { newToolOutputPath } from '../../store/toolOutputs';
import {
  DEFAULT_TASK_SETTINGS,
  TASK_SERVICE,
  TaskLimitError,
  type TaskService,
  type TaskSettings,
} from '../task/taskService';
import { BOUNDARY_SERVICE, type CommandRun } from '../boundary/commandBoundary';
import { SESSION_ENV, sessionEnvOf } from '../sessionEnv';
import description from './bash.md';

export const FOREGROUND_DEFAULT_TIMEOUT_MS = 60_000;
export const FOREGROUND_MAX_TIMEOUT_MS = 300_000;
export const BACKGROUND_MAX_TIMEOUT_MS = 24 * 3_600_000;
/** Output kept in memory per command: the first and the last this many characters. */
const CAPTURE_CHARS = 2_000_000;
/** Output up to this size is shown whole; beyond it the model gets a head and a tail and the file. */
export const BASH_INLINE_MAX_CHARS = 40_000;
const PREVIEW_HEAD_CHARS = 28_000;
const PREVIEW_TAIL_CHARS = 10_000;
const SAVED_OUTPUT_MAX_MIB = SAVED_OUTPUT_MAX_BYTES / (1024 * 1024);
/** After the shell exits, how long its pipes may keep delivering output. */
const PIPE_DRAIN_MS = 200;

const schema = z
  .object({
    command: z.string().refine((c) => c.trim() !== '', 'command must not be empty'),
    cwd: z.string().optional(),
    timeout: z.number().int().positive().max(BACKGROUND_MAX_TIMEOUT_MS).optional().describe('Milliseconds.'),
    run_in_background: z.boolean().default(false),
    description: z.string().optional(),
    disable_timeout: z.boolean().default(false),
    dangerously_unsandboxed: z.boolean().default(false).describe('Run outside the sandbox (asks the user).'),
  })
  .superRefine((a, issues) => {
    if (a.run_in_background) {
      if (!a.description?.trim()) {
        issues.addIssue({
          code: 'custom',
          path: ['description'],
          message: 'description is required when run_in_background is true',
        });
      }
      if (a.disable_timeout && a.timeout !== undefined) {
        issues.addIssue({
          code: 'custom',
          path: ['disable_timeout'],
          message: 'give either timeout or disable_timeout, not both',
        });
      }
    } else {
      if (a.timeout !== undefined && a.timeout > FOREGROUND_MAX_TIMEOUT_MS) {
        issues.addIssue({
          code: 'custom',
          path: ['timeout'],
          message: `a foreground timeout is at most ${FOREGROUND_MAX_TIMEOUT_MS} ms (it is in milliseconds); use run_in_background for longer commands`,
        });
      }
      if (a.disable_timeout) {
        issues.addIssue({
          code: 'custom',
          path: ['disable_timeout'],
          message: 'disable_timeout only applies with run_in_background: true',
        });
      }
    }
  });

type BashArgs = z.infer<typeof schema>;

export const bashTool = defineTool({
  name: 'Bash',
  services: [TASK_SERVICE],
  optionalServices: [BOUNDARY_SERVICE, SESSION_ENV],
  description,
  constants: {
    FOREGROUND_DEFAULT_TIMEOUT_MS,
    FOREGROUND_MAX_TIMEOUT_MS,
    BACKGROUND_MAX_TIMEOUT_MS,
    BASH_INLINE_MAX_CHARS,
    SAVED_OUTPUT_MAX_MIB,
    BACKGROUND_DEFAULT_TIMEOUT_S: DEFAULT_TASK_SETTINGS.bashTaskTimeoutS,
  },
  schema,
  readOnly: false,
  defaultApproval: 'ask',
  subject: (a) => `Bash(${a.command})`,
  accesses: (a, ctx) => [{ kind: 'exec', cwd: workDir(a, ctx) }],
  // A sandboxed command may run without asking ([sandbox] auto_allow); leaving the sandbox always asks.
  approvalFor: (a, ctx) =>
    !a.dangerously_unsandboxed && ctx?.services.find(BOUNDARY_SERVICE)?.autoAllows() ? 'auto' : 'ask',
  // Where it runs and in which folder, judged by the approval policy (docs/trust-boundary.md).
  boundary: (a, ctx) =>
    ctx.services.find(BOUNDARY_SERVICE)?.facts({ cwd: workDir(a, ctx), unsandboxed: a.dangerously_unsandboxed }),
  approvalPreview: (a, ctx) =>
    a.dangerously_unsandboxed && ctx.services.find(BOUNDARY_SERVICE)?.active()
      ? { kind: 'text', text: `UNSANDBOXED: runs outside the command sandbox, with your full access\n$ ${a.command}` }
      : undefined,
  async execute(args, ctx) {
    const tasks = ctx.services.get(TASK_SERVICE);
    const cwd = workDir(args, ctx);
    const display = { kind: 'command' as const, command: args.command, exitCode: null };
    const problem = checkDirectory(cwd);
    if (problem) return { content: problem, isError: true, display };
    // Prepared last: from here every way out settles the run (docs/trust-boundary.md).
    const boundary = ctx.services.find(BOUNDARY_SERVICE);
    const request = { command: args.command, cwd, unsandboxed: args.dangerously_unsandboxed };
    const run: CommandRun = boundary ? await boundary.prepare(request) : UNCONFINED;
    if (run.kind === 'refused') return { content: run.message, isError: true, display };
    if (args.run_in_background) return startInBackground(args, cwd, nonInteractiveEnv(sessionEnvOf(ctx)), tasks, run);
    try {
      return await runInForeground(args, cwd, ctx, tasks, run);
    } catch (e) {
      run.settle(); // the run ends here too (a second settle finds nothing new)
      throw e;
    }
  },
});

/** Without a boundary service (an embedding that lends none): the command runs as it always did. */
const UNCONFINED: CommandRun = { kind: 'unsandboxed', why: 'disabled', notes: [], started: () => {}, settle: () => [] };

type Runnable = Exclude<CommandRun, { kind: 'refused' }>;

function workDir(args: BashArgs, ctx: ToolContext): string {
  return args.cwd ? ctx.resolve(args.cwd) : ctx.cwd;
}

function checkDirectory(cwd: string): string | undefined {
  try {
    if (statSync(cwd).isDirectory()) return undefined;
    return `Cannot run the command: cwd ${cwd} is not a directory.`;
  } catch {
    return `Cannot run the command: cwd ${cwd} does not exist.`;
  }
}

function backgroundDefaultTimeoutMs(settings: Readonly<TaskSettings>): number | null {
  return settings.bashTaskTimeoutS > 0 ? settings.bashTaskTimeoutS * 1_000 : null;
}

function startInBackground(
  args: BashArgs,
  cwd: string,
  env: NodeJS.ProcessEnv,
  tasks: TaskService,
  run: Runnable,
): ToolResult {
  const display = { kind: 'command' as const, command: args.command, exitCode: null };
  const timeoutMs = args.disable_timeout ? null : (args.timeout ?? backgroundDefaultTimeoutMs(tasks.settings));
  try {
    const task = tasks.startProcess({
      command: args.command,
      cwd,
      env,
      description: args.description!.trim(),
      timeoutMs,
      ...(run.kind === 'sandboxed' ? { sandbox: run.spawn } : {}),
      afterExit: () => run.settle(),
    });
    run.started({ stop: (reason) => void tasks.stop(task.id, reason) });
    const notes = run.notes.length ? `${run.notes.join('\n')}\n` : '';
    return {
      content:
        `${notes}Started background task ${task.id} (${task.description}).\n` +
        `Timeout: ${timeoutMs === null ? 'none' : `${timeoutMs} ms`}. Output file: ${task.outputPath}\n` +
        'You will be notified automatically when it finishes. Check progress with TaskOutput, wait inside this turn with WaitFor, stop it with TaskStop.',
      summary: `Background task ${task.id}`,
      display,
    };
  } catch (e) {
    run.settle();
    if (e instanceof TaskLimitError) return { content: e.message, isError: true, display };
    throw e;
  }
}

async function runInForeground(
  args: BashArgs,
  cwd: string,
  ctx: ToolContext<typeof SESSION_ENV>,
  tasks: TaskService,
  run: Runnable,
): Promise<ToolResult> {
  const startedAt = new Date();
  const timeoutMs = args.timeout ?? FOREGROUND_DEFAULT_TIMEOUT_MS;
  const sandbox = run.kind === 'sandboxed' ? { sandbox: run.spawn } : {};
  const child = spawnShell(args.command, { cwd, env: nonInteractiveEnv(sessionEnvOf(ctx)), ...sandbox });
  const output = new CommandOutput(CAPTURE_CHARS, CAPTURE_CHARS);
  const outputPath = newToolOutputPath(ctx.services.scratchDir, ctx.services.agentId ?? 'main');
  const saved = new SavedOutput(ctx.services.scratchDir, outputPath, BASH_INLINE_MAX_CHARS);
  const onStdout = (text: string) => {
    output.add('stdout', text);
    saved.add(text);
    ctx.emitProgress({ text, stream: 'stdout' });
  };
  const onStderr = (text: string) => {
    output.add('stderr', text);
    saved.add(text);
    ctx.emitProgress({ text, stream: 'stderr' });
  };
  child.stdout?.setEncoding('utf8').on('data', onStdout);
  child.stderr?.setEncoding('utf8').on('data', onStderr);
  const exited = waitForExit(child);
  const outcome = await firstOf(exited, timeoutMs, ctx.signal);
  const result = (exit: ExitInfo, note?: string, isError = false): ToolResult => {
    saved.close();
    const hit = run.kind === 'sandboxed' ? run.explain(output.combined(), exit.code) : undefined;
    const notes = [note, ...run.notes, hit, ...run.settle()].filter(Boolean).join('\n');
    return {
      content: formatOutcome(exit, output, saved, notes || undefined),
      isError: isError || Boolean(exit.error) || exit.code !== 0,
      summary: exit.error ? 'could not start' : exit.code !== null ? `exit ${exit.code}` : `killed by ${exit.signal}`,
      display: { kind: 'command', command: args.command, exitCode: exit.code },
    };
  };

  if (outcome === 'exit') {
    await releasePipes(child, PIPE_DRAIN_MS);
    return result(await exited);
  }
  if (outcome === 'abort') {
    await stopGroup(child, tasks.settings.killGracePeriodMs, exited);
    return result(await exited, 'The command was interrupted and stopped.', true);
  }
  let why = `The command did not finish within ${timeoutMs} ms and was stopped (bash_auto_background_on_timeout is off).`;
  if (tasks.settings.autoBackgroundOnTimeout) {
    child.stdout?.off('data', onStdout);
    child.stderr?.off('data', onStderr);
    saved.close();
    try {
      const task = tasks.adoptProcess({
        child,
        command: args.command,
        cwd,
        startedAt,
        initialOutput: output.combined(),
        description: args.description?.trim() || oneLine(args.command, 80),
        timeoutMs: backgroundDefaultTimeoutMs(tasks.settings),
        afterExit: () => run.settle(),
      });
      run.started({ stop: (reason) => void tasks.stop(task.id, reason) });
      const limit = task.timeoutMs === null ? 'no timeout' : `a timeout of ${task.timeoutMs / 1_000} s`;
      return {
        content:
          `The command did not finish within ${timeoutMs} ms. It keeps running as background task ${task.id} (the same process, with ${limit}); ` +
          `its output so far is below and the full output goes to ${task.outputPath}. ` +
          'You will be notified when it finishes; use TaskOutput to check it, WaitFor to wait, TaskStop to stop it.\n' +
          formatStreams(output),
        summary: `moved to background as ${task.id}`,
        display: { kind: 'command', command: args.command, exitCode: null },
      };
    } catch (e) {
      if (!(e instanceof TaskLimitError)) throw e;
      child.stdout?.on('data', onStdout);
      child.stderr?.on('data', onStderr);
      why = `The command did not finish within ${timeoutMs} ms and could not move to the background (${e.message}), so it was stopped.`;
    }
  }
  await stopGroup(child, tasks.settings.killGracePeriodMs, exited);
  return result(await exited, why, true);
}

type Outcome = 'exit' | 'timeout' | 'abort';

function firstOf(exited: Promise<ExitInfo>, timeoutMs: number, signal: AbortSignal): Promise<Outcome> {
  return new Promise((resolve) => {
    const done = (outcome: Outcome) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = () => done('abort');
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    if (signal.aborted) return done('abort');
    signal.addEventListener('abort', onAbort, { once: true });
    void exited.then(() => done('exit'));
  });
}

async function stopGroup(child: ChildProcess, graceMs: number, exited: Promise<ExitInfo>): Promise<void> {
  if (child.pid !== undefined) await terminateGroup(child.pid, { graceMs });
  await exited;
  await releasePipes(child, PIPE_DRAIN_MS);
}

function formatOutcome(exit: ExitInfo, output: CommandOutput, saved: SavedOutput, note?: string): string {
  const status = exit.error
    ? `The command could not be started: ${exit.error.message}`
    : exit.code !== null
      ? `Exit code: ${exit.code}`
      : `Exit code: none (terminated by ${exit.signal ?? 'a signal'})`;
  return [note, status, saved.spilled ? formatPreview(output, saved) : formatStreams(output)]
    .filter(Boolean)
    .join('\n');
}

/** Too much to show: the first and last part, interleaved as printed, and where the rest is. */
function formatPreview(output: CommandOutput, saved: SavedOutput): string {
  const all = output.combined();
  const total = output.totalChars;
  let where: string;
  if (saved.error) where = `It could not be saved to ${saved.path} (${saved.error}), so only this preview exists.`;
  else if (saved.droppedBytes > 0) {
    where = `Only the first ${saved.savedBytes} bytes are saved at ${saved.path} (the ${SAVED_OUTPUT_MAX_MIB} MiB cap per command); the last ${saved.droppedBytes} bytes were not saved.`;
  } else
    where = `The full output (${saved.savedBytes} bytes) is saved at ${saved.path}; read slices of it with Read (line_offset / n_lines) or search it with Grep.`;
  const omitted = total - PREVIEW_HEAD_CHARS - PREVIEW_TAIL_CHARS;
  return (
    `<output stdout and stderr interleaved, ${total} characters>\n${all.slice(0, PREVIEW_HEAD_CHARS)}\n` +
    `[… ${omitted} characters not shown. ${where}]\n${all.slice(all.length - PREVIEW_TAIL_CHARS)}\n</output>`
  );
}

function formatStreams(output: CommandOutput): string {
  const stdout = output.text('stdout');
  const stderr = output.text('stderr');
  if (!stdout && !stderr) return '(no output)';
  const block = (name: string, text: string) =>
    text ? `<${name}>\n${text.replace(/\n$/, '')}\n</${name}>` : `<${name}></${name}>`;
  return `${block('stdout', stdout)}\n${block('stderr', stderr)}`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
