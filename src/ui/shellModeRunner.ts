// Shell mode in the conversation: a `!command` shows as the user's line and a Shell card that streams
// its output while shellMode.ts runs it. One command runs at a time; what each printed waits to go with
// the next prompt, so the model sees what the user saw.
import type { Runtime } from '../engine/runtime/runtime';
import { runShellCommand, shellContext, type ShellResult, type ShellRun } from './shellMode';
import { planShellModeCommand } from './shellModeSandbox';
import type { ViewState } from './transcript/block';
import { UserBlock } from './transcript/messageBlocks';
import { ToolCard } from './transcript/toolCard';
import type { Transcript } from './transcript/transcript';

export interface ShellModeHost {
  readonly cwd: string;
  readonly view: ViewState;
  readonly transcript: Transcript;
  ensureRuntime(): Runtime | undefined;
  notice(level: 'info' | 'warning', text: string, hint?: string): void;
  startActivity(label: string): void;
  /** The command ended (its card is final): the activity line stops unless the agent works. */
  ended(): void;
  requestRender(): void;
}

export class ShellModeRunner {
  private run: ShellRun | undefined;
  /** The outputs of commands run since the last prompt. */
  private contexts: string[] = [];

  constructor(private readonly host: ShellModeHost) {}

  get running(): boolean {
    return !!this.run;
  }

  /** Settles when the running command has ended and its output is kept; undefined when none runs. */
  get done(): Promise<ShellResult> | undefined {
    return this.run?.done;
  }

  start(command: string): void {
    const { host } = this;
    if (!command) return;
    if (this.run) {
      host.notice('warning', 'A shell command is still running.', 'Wait for it, or press Esc to stop it.');
      return;
    }
    // The full output is kept in the session's scratch folder, which the agent may read without asking.
    const rt = host.ensureRuntime();
    if (!rt) return;
    host.transcript.add(new UserBlock(host.view, command, 'shell'));
    const card = new ToolCard(host.view, `shell-${Date.now()}`, 'Shell', command);
    host.transcript.add(card);
    const plan = planShellModeCommand(rt, command, host.cwd);
    if (plan.kind === 'refused') {
      card.finish({ text: plan.message, isError: true, display: { kind: 'command', command, exitCode: null } });
      host.transcript.flush();
      host.requestRender();
      return;
    }
    host.startActivity(`Running ${command.split('\n')[0].slice(0, 40)}`);
    const graceMs = rt.tasks.settings.killGracePeriodMs;
    const sandbox = plan.sandbox ? { sandbox: plan.sandbox } : {};
    const run = runShellCommand(
      command,
      { cwd: host.cwd, scratchDir: rt.session.scratchDir, graceMs, ...sandbox },
      (chunk) => {
        card.appendOutput(chunk);
        host.requestRender();
      },
    );
    this.run = run;
    // Registered before anyone can wait on `done`, so waiters find the output already kept.
    void run.done.then((ran) => {
      // What the sandbox says about the command goes after its output, on the card and in the context.
      const notes = plan.notes(ran.output, ran.exitCode).join('\n');
      const gap = ran.output && !ran.output.endsWith('\n') ? '\n' : '';
      if (notes) card.appendOutput(`${gap}${notes}\n`);
      const result = notes ? { ...ran, output: `${ran.output}${gap}${notes}\n` } : ran;
      const { output, exitCode } = result;
      this.run = undefined;
      card.finish(
        { text: output, isError: exitCode !== 0, display: { kind: 'command', command, exitCode } },
        exitCode === 0 ? 'ok' : 'error',
      );
      host.transcript.flush();
      this.contexts.push(shellContext(command, result));
      host.ended();
    });
  }

  /** Stops the running command and everything it started; undefined when none runs. */
  interrupt(): Promise<void> | undefined {
    return this.run?.interrupt();
  }

  /** The outputs for the next prompt; they go once. */
  takeContexts(): string[] {
    const taken = this.contexts;
    this.contexts = [];
    return taken;
  }
}
