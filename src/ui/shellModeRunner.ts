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
  /** The command being planned or run: `done` settles when its output is kept. */
  private current: { done: Promise<ShellResult>; interrupt(): Promise<void> } | undefined;
  /** The outputs of commands run since the last prompt. */
  private contexts: string[] = [];

  constructor(private readonly host: ShellModeHost) {}

  get running(): boolean {
    return !!this.current;
  }

  /** Settles when the running command has ended and its output is kept; undefined when none runs. */
  get done(): Promise<ShellResult> | undefined {
    return this.current?.done;
  }

  start(command: string): void {
    const { host } = this;
    if (!command) return;
    if (this.current) {
      host.notice('warning', 'A shell command is still running.', 'Wait for it, or press Esc to stop it.');
      return;
    }
    // The full output is kept in the session's scratch folder, which the agent may read without asking.
    const rt = host.ensureRuntime();
    if (!rt) return;
    host.transcript.add(new UserBlock(host.view, command, 'shell'));
    const card = new ToolCard(host.view, `shell-${Date.now()}`, 'Shell', command);
    host.transcript.add(card);
    host.startActivity(`Running ${command.split('\n')[0].slice(0, 40)}`);
    let run: ShellRun | undefined;
    let stopped = false;
    const done = this.planAndRun(
      rt,
      command,
      card,
      () => stopped,
      (r) => (run = r),
    ).catch((e: unknown) => {
      const text = `The command could not be run: ${e instanceof Error ? e.message : String(e)}`;
      card.finish({ text, isError: true, display: { kind: 'command', command, exitCode: null } });
      host.transcript.flush();
      return { output: text, exitCode: null, omittedChars: 0, interrupted: false };
    });
    this.current = {
      done,
      interrupt: () => {
        stopped = true;
        return run?.interrupt() ?? done.then(() => undefined);
      },
    };
    // Registered before anyone can wait on `done`, so waiters find the output already kept.
    void done.then(() => {
      this.current = undefined;
      host.ended();
    });
  }

  /** Asks the trust boundary how the command runs (shellModeSandbox.ts), then runs it unless it was stopped first. */
  private async planAndRun(
    rt: Runtime,
    command: string,
    card: ToolCard,
    stopped: () => boolean,
    running: (run: ShellRun) => void,
  ): Promise<ShellResult> {
    const { host } = this;
    const plan = await planShellModeCommand(rt, command, host.cwd);
    const refusal = plan.kind === 'refused' ? plan.message : stopped() ? 'Not run: it was stopped first.' : undefined;
    if (plan.kind === 'run' && refusal) plan.settle();
    if (plan.kind === 'refused' || refusal) {
      card.finish({ text: refusal!, isError: true, display: { kind: 'command', command, exitCode: null } });
      host.transcript.flush();
      host.requestRender();
      return { output: refusal!, exitCode: null, omittedChars: 0, interrupted: true };
    }
    const graceMs = rt.tasks.settings.killGracePeriodMs;
    const sandbox = plan.sandbox ? { sandbox: plan.sandbox } : {};
    const scratchDir = rt.session.scratchDir;
    const run = runShellCommand(command, { cwd: host.cwd, scratchDir, graceMs, ...sandbox }, (chunk) => {
      card.appendOutput(chunk);
      host.requestRender();
    });
    running(run);
    const ran = await run.done;
    // What the sandbox says about the command goes after its output, on the card and in the context.
    const notes = [...plan.notes(ran.output, ran.exitCode), ...plan.settle()].join('\n');
    const gap = ran.output && !ran.output.endsWith('\n') ? '\n' : '';
    if (notes) card.appendOutput(`${gap}${notes}\n`);
    const result = notes ? { ...ran, output: `${ran.output}${gap}${notes}\n` } : ran;
    const { output, exitCode } = result;
    card.finish(
      { text: output, isError: exitCode !== 0, display: { kind: 'command', command, exitCode } },
      exitCode === 0 ? 'ok' : 'error',
    );
    host.transcript.flush();
    this.contexts.push(shellContext(command, result));
    return result;
  }

  /** Stops the running command and everything it started; undefined when none runs. */
  interrupt(): Promise<void> | undefined {
    return this.current?.interrupt();
  }

  /** The outputs for the next prompt; they go once. */
  takeContexts(): string[] {
    const taken = this.contexts;
    this.contexts = [];
    return taken;
  }
}
