// Sending a prompt from the input box. The outputs of `!` commands run since the last prompt go first,
// then the text with its attachments (promptAttacher.ts). A prompt sent while the agent works waits in
// the engine's queue and shows as queued until its turn starts; one typed while a `!` command runs waits
// for that command's end, so it goes with its output.
import type { Editor } from '@mariozechner/pi-tui';
import { prepareParsedCommand, type ParsedCommand } from '../engine/delegation/commandExpansion';
import { runFlow } from '../engine/delegation/flowRunner';
import type { SkillFlow } from '../ext/skills/skillFlow';
import type { PermissionRule } from '../engine/policy/approvals';
import type { Runtime } from '../engine/runtime/runtime';
import type { ContentPart } from '../llm/types';
import type { InputCompletion } from './completion';
import type { PromptAttacher } from './promptAttacher';
import type { RemotePrompt } from './remote/remoteLink';
import type { ShellModeRunner } from './shellModeRunner';

export interface PromptSenderHost {
  readonly editor: Editor;
  readonly shell: ShellModeRunner;
  readonly attacher: PromptAttacher;
  readonly completion: InputCompletion;
  ensureRuntime(): Runtime | undefined;
  notice(level: 'info' | 'warning' | 'error', text: string): void;
  requestRender(): void;
}

export class PromptSender {
  private queuedPrompts: string[] = [];
  /** While a command's `!`cmd` lines run before sending: Esc stops them and nothing is sent. */
  private expansion?: AbortController;

  constructor(private readonly host: PromptSenderHost) {}

  /** Prompts waiting for the running turn to end, oldest first. */
  get queued(): readonly string[] {
    return this.queuedPrompts;
  }

  /**
   * `modelText`: what the model receives when it differs from what the user typed (a skill's instructions).
   * `command`: the plugin or skill command that wrote it: its `!`cmd` lines run (with the ordinary approval) and
   * its `allowed-tools` pre-approve its turn before it is sent (engine/delegation/commandExpansion.ts).
   */
  send(text: string, modelText = text, command?: ParsedCommand): void {
    const { host } = this;
    const shellDone = host.shell.done;
    if (shellDone) {
      host.notice('info', 'The prompt is sent when the shell command ends (Esc stops it).');
      void shellDone.then(() => this.send(text, modelText, command));
      return;
    }
    const rt = host.ensureRuntime();
    if (!rt) return;
    if (!command) return this.submit(rt, text, modelText, undefined);
    const warn = (why: string) => host.notice('warning', why);
    const stop = new AbortController();
    this.expansion = stop;
    const settled = () => {
      if (this.expansion === stop) this.expansion = undefined;
    };
    prepareParsedCommand(rt.agent, command, { warn, signal: stop.signal }).then(
      (ready) => {
        settled();
        if (stop.signal.aborted) {
          host.notice('info', "Stopped: the command's shell lines were interrupted, so its prompt was not sent.");
          host.requestRender();
          return;
        }
        this.submit(rt, text, ready.text, ready.preApproved);
      },
      (e: unknown) => {
        settled();
        host.notice('error', `The command was not sent: preparing it failed (${e instanceof Error ? e.message : e}).`);
        host.requestRender();
      },
    );
  }

  /**
   * A web client's prompt the server prepared (`/remote`, docs/remote.md): its command expansion, pre-approved tools,
   * `@path` files and images go to the model as they are; the text is what shows here and in the queue.
   */
  sendPrepared(text: string, prepared: RemotePrompt): void {
    const rt = this.host.ensureRuntime();
    if (!rt) return;
    const content: ContentPart[] = [
      ...this.host.shell.takeContexts().map((t) => ({ type: 'text' as const, text: t })),
      { type: 'text', text: prepared.promptContent ?? text },
      ...(prepared.attachments ?? []),
    ];
    if (rt.agent.busy) this.queuedPrompts.push(text);
    const granted = prepared.preApproved?.length ? { preApproved: prepared.preApproved } : {};
    rt.agent.submit({ kind: 'prompt', text, content, ...granted });
    this.host.requestRender();
  }

  /** `/flow:<name>`: the flow's turns one after another; how it ended is a notice (engine/delegation/flowRunner.ts). */
  runFlow(name: string, flow: SkillFlow): void {
    const rt = this.host.ensureRuntime();
    if (!rt) return;
    void runFlow(rt.agent, name, flow).then((result) => {
      this.host.notice(result.ok ? 'info' : 'warning', result.message);
      this.host.requestRender();
    });
  }

  /** A command's `!`cmd` lines are running before its prompt is sent. */
  get expanding(): boolean {
    return this.expansion !== undefined;
  }

  /** Esc while a command's `!`cmd` lines run: stops them; the prompt is not sent. True when one was running. */
  stopExpansion(): boolean {
    if (!this.expansion) return false;
    this.expansion.abort();
    return true;
  }

  private submit(rt: Runtime, text: string, modelText: string, preApproved: PermissionRule[] | undefined): void {
    const { host } = this;
    const content: ContentPart[] = [
      ...host.shell.takeContexts().map((t) => ({ type: 'text' as const, text: t })),
      { type: 'text', text: modelText },
    ];
    if (rt.agent.busy) this.queuedPrompts.push(text);
    host.completion.noteMentions(text);
    const granted = preApproved?.length ? { preApproved } : {};
    host.attacher.send(rt, text, content, (withAttachments) =>
      rt.agent.submit({ kind: 'prompt', text, content: withAttachments, ...granted }),
    );
    host.requestRender();
  }

  /** A user turn started with `prompt`: it is no longer queued. */
  started(prompt: string): void {
    const i = this.queuedPrompts.indexOf(prompt);
    if (i >= 0) this.queuedPrompts.splice(i, 1);
  }

  /** The turn was interrupted and the engine dropped its queue: the queued prompts go back to the input box. */
  returnQueued(): void {
    if (!this.queuedPrompts.length) return;
    const current = this.host.editor.getText();
    this.host.editor.setText([...this.queuedPrompts, current].filter(Boolean).join('\n'));
    this.queuedPrompts = [];
  }

  /** Ctrl-V: the clipboard's image as a placeholder, or its text as a paste. */
  async pasteImage(): Promise<void> {
    const { editor, attacher } = this.host;
    const pasted = await attacher.pasteFromClipboard();
    if (pasted?.kind === 'image') editor.insertTextAtCursor(pasted.insert);
    else if (pasted) editor.handleInput(`\x1b[200~${pasted.insert}\x1b[201~`);
    this.host.requestRender();
  }
}
