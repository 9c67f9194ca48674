// Shell mode (`!command`): runs the command through bash in its own process group, streams its
// output into a card, and returns a text block that goes into the context of the next prompt.
// Bounded like Bash: memory keeps the start and the end of the output while the whole of it is written
// to a file the context names; an interrupt stops the whole group (SIGTERM, a grace period, SIGKILL —
// the helper Bash uses); a group still running when the process exits is killed on the way out.
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { openBelow, OPEN } from '../store/ownedFiles';
import { shellOutputsDir, SCRATCH } from '../store/paths';
import { join } from 'node:path';
import { CommandOutput } from '../platform/commandOutput';
import {
  type SandboxSpawn,
  isGroupAliveAsync,
  releasePipes,
  signalGroup,
  spawnShell,
  terminateGroup,
  waitForExit,
} from '../platform/processes';

/** Output kept for the model (and in memory) from one shell command: the head and the tail survive. */
export const SHELL_CONTEXT_MAX_CHARS = 20_000;
/** After the shell exits, how long its pipes may keep delivering output. */
const PIPE_DRAIN_MS = 1_000;
const DEFAULT_GRACE_MS = 2_000;

export interface ShellRunOptions {
  cwd: string;
  /** The session's scratch folder: the full output files go to its `shell-outputs/` (store/paths.ts). */
  scratchDir: string;
  /** SIGTERM → SIGKILL grace on interrupt ([background] kill_grace_period_ms). */
  graceMs?: number;
  /** Run confined: the command sandbox's program and arguments (ui/shellModeSandbox.ts); absent: unconfined. */
  sandbox?: SandboxSpawn;
}

export interface ShellResult {
  /** The output as kept in memory: all of it, or its head and tail around an omission marker. */
  output: string;
  exitCode: number | null;
  /** Characters left out of `output`. */
  omittedChars: number;
  /** The file holding the whole output; undefined when it could not be written. */
  savedTo?: string;
  interrupted: boolean;
}

export interface ShellRun {
  done: Promise<ShellResult>;
  /** Stops the command and everything it started; resolves once the group is gone. */
  interrupt(): Promise<void>;
}

/** Groups still running, killed if this process ends before they do. */
const running = new Set<number>();
const ENDING_SIGNALS = ['SIGHUP', 'SIGTERM'] as const;

function killRunning(): void {
  for (const pgid of running) signalGroup(pgid, 'SIGKILL');
  running.clear();
}

/** A closed terminal (SIGHUP) or a kill (SIGTERM) ends the process without 'exit' handlers running. */
function onEndingSignal(signal: NodeJS.Signals): void {
  killRunning();
  untrack();
  process.kill(process.pid, signal); // the default action, now that nothing of ours is left
}

function track(pgid: number): void {
  if (running.size === 0) {
    process.on('exit', killRunning);
    for (const s of ENDING_SIGNALS) process.once(s, onEndingSignal);
  }
  running.add(pgid);
}

function untrack(pgid?: number): void {
  if (pgid !== undefined) running.delete(pgid);
  if (running.size > 0) return;
  process.off('exit', killRunning);
  for (const s of ENDING_SIGNALS) process.off(s, onEndingSignal);
}

/** A new output file, created below the scratch folder without following a link a command planted there. */
function openOutputFile(scratchDir: string): { path: string; stream: WriteStream } | undefined {
  const name = `shell-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.txt`;
  try {
    const flags = OPEN.O_WRONLY | OPEN.O_CREAT | OPEN.O_EXCL;
    const fd = openBelow(scratchDir, join(SCRATCH.shellOutputs, name), flags, { makeDirs: true });
    return { path: join(shellOutputsDir(scratchDir), name), stream: createWriteStream('', { fd }) };
  } catch {
    // Not kept: the context says the whole output could not be saved.
    return undefined;
  }
}

export function runShellCommand(command: string, opts: ShellRunOptions, onOutput: (text: string) => void): ShellRun {
  let child: ChildProcess | undefined;
  let interrupted = false;
  let stopping: Promise<void> | undefined;
  const half = SHELL_CONTEXT_MAX_CHARS / 2;
  const kept = new CommandOutput(half, half);
  const file = openOutputFile(opts.scratchDir);
  let fileFailed = !file;
  file?.stream.on('error', () => {
    fileFailed = true;
  });
  const done = (async (): Promise<ShellResult> => {
    const sandbox = opts.sandbox ? { sandbox: opts.sandbox } : {};
    child = spawnShell(command, { cwd: opts.cwd, env: { ...process.env, TERM: 'dumb' }, ...sandbox });
    if (child.pid !== undefined) track(child.pid);
    const take = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      kept.add('stdout', text);
      if (!fileFailed) file?.stream.write(text);
      onOutput(text);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    const exit = await waitForExit(child);
    await releasePipes(child, PIPE_DRAIN_MS);
    await stopping;
    // The group may outlive its leader (`cmd &`): it stays tracked until an interrupt or exit stops it.
    if (child.pid !== undefined && !(await isGroupAliveAsync(child.pid))) untrack(child.pid);
    if (exit.error) take(Buffer.from(`could not start the shell: ${exit.error.message}\n`));
    if (file) await new Promise<void>((resolve) => file.stream.end(resolve));
    return {
      output: kept.combined(),
      exitCode: exit.code,
      omittedChars: kept.omittedChars,
      savedTo: file && !fileFailed ? file.path : undefined,
      interrupted,
    };
  })();
  return {
    done,
    interrupt() {
      const pid = child?.pid;
      if (pid === undefined || child?.exitCode !== null || child.signalCode !== null)
        return stopping ?? Promise.resolve();
      interrupted = true;
      stopping ??= terminateGroup(pid, { graceMs: opts.graceMs ?? DEFAULT_GRACE_MS }).then(() => undefined);
      return stopping;
    },
  };
}

/** The user message part that carries a shell command and its output to the model. */
export function shellContext(command: string, result: ShellResult): string {
  const lines = [
    '<shell-command>',
    'The user ran this command in the terminal:',
    `$ ${command}`,
    result.output.replace(/\s+$/, ''),
  ];
  if (result.omittedChars > 0) {
    lines.push(
      result.savedTo
        ? `[The output was cut; the whole of it is saved at ${result.savedTo}.]`
        : '[The output was cut; the whole of it could not be saved.]',
    );
  }
  if (result.interrupted) lines.push('[The user interrupted the command.]');
  lines.push(`[exit code: ${result.exitCode ?? 'killed by a signal'}]`, '</shell-command>');
  return lines.join('\n');
}
