// Shell mode (`!command`): runs the command through bash in its own process group, streams its
// output into a card, and returns a text block that goes into the context of the next prompt.
import type { ChildProcess } from 'node:child_process';
import { releasePipes, signalGroup, spawnShell, waitForExit } from '../platform/processes';

/** Output kept for the model from one shell command (the head and the tail survive). */
export const SHELL_CONTEXT_MAX_CHARS = 20_000;

export interface ShellRun {
  done: Promise<{ output: string; exitCode: number | null }>;
  interrupt(): void;
}

export function runShellCommand(command: string, cwd: string, onOutput: (text: string) => void): ShellRun {
  let child: ChildProcess | undefined;
  let output = '';
  const done = (async () => {
    child = spawnShell(command, { cwd, env: { ...process.env, TERM: 'dumb' } });
    const take = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      onOutput(text);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    const exit = await waitForExit(child);
    await releasePipes(child, 1000);
    if (exit.error) {
      const msg = `could not start the shell: ${exit.error.message}\n`;
      output += msg;
      onOutput(msg);
    }
    return { output, exitCode: exit.code };
  })();
  return {
    done,
    interrupt() {
      if (child?.pid) signalGroup(child.pid, 'SIGINT');
    },
  };
}

/** The user message part that carries a shell command and its output to the model. */
export function shellContext(command: string, output: string, exitCode: number | null): string {
  let body = output;
  if (body.length > SHELL_CONTEXT_MAX_CHARS) {
    const half = SHELL_CONTEXT_MAX_CHARS / 2;
    body = `${body.slice(0, half)}\n[… ${body.length - SHELL_CONTEXT_MAX_CHARS} characters omitted …]\n${body.slice(-half)}`;
  }
  return `<shell-command>\nThe user ran this command in the terminal:\n$ ${command}\n${body.replace(/\s+$/, '')}\n[exit code: ${exitCode ?? 'killed by a signal'}]\n</shell-command>`;
}
