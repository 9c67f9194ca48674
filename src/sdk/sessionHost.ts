// The session host (docs/sdk.md "Session host"): one session run in-process, for a program rather than a terminal.
// It opens the runtime through SessionControl, turns the main agent's engine events into the stream-json v1 messages
// (engine/runtime/streamJson.ts) plus one `result` per run (runResult.ts), holds the approvals waiting for an answer,
// and takes the controls: interrupt, permission mode, model, close. The SDK's query() holds one; `jarvis serve` is
// meant to hold several. It touches no process-global state: no signal handlers, no last-resort handler, no chdir.
import type { ApprovalAnswer, ApprovalPort, ApprovalRequest } from '../engine/policy/approvals';
import type { InteractionPort } from '../engine/delegation/interactions';
import { MAIN_AGENT_ID, type EngineEvent } from '../engine/loop/events';
import type { PermissionMode } from '../engine/session/records';
import type { ResolvedModel } from '../llm/types';
import type { McpManager } from '../ext/mcp/mcpManager';
import { SessionControl, type BaseRuntimeOptions } from '../engine/runtime/sessionControl';
import {
  EXIT_FAILURE,
  exitCodeOfVerdict,
  reportOf,
  runHeadless,
  type HeadlessRunOptions,
  type PrintBackgroundMode,
} from '../engine/runtime/headlessRun';
import type { RunControls } from '../engine/runtime/runControls';
import { RunResultRecorder, type RunResultEvent } from '../engine/runtime/runResult';
import { initEvent, streamJsonMessage, type StreamJsonMessage } from '../engine/runtime/streamJson';
import type { Runtime } from '../engine/runtime/runtime';

export type HostMessage = StreamJsonMessage | RunResultEvent;

/** An approval waiting for an answer (a server lists these; the SDK answers them through canUseTool at once). */
export interface PendingApproval {
  id: string;
  request: ApprovalRequest;
}

export interface SessionHostOptions {
  base: BaseRuntimeOptions;
  /** The run's caps and output schema (shared by every run of this host). */
  controls: RunControls;
  /** MCP servers started for this host; closed with it. */
  mcp?: McpManager;
  /**
   * Answers approvals as they come (the SDK's canUseTool). Absent: approvals wait in `pendingApprovals()` for
   * `answerApproval` — unless `nonInteractive`, where no one is asked and the policy's `ask` refuses the call.
   */
  decide?: (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;
  nonInteractive: boolean;
  /** Who answers questions (AskUserQuestion) and plan reviews; absent: the tool reports no one can (`jarvis serve` gives one). */
  interactionPort?: InteractionPort;
  /** What a run does about background tasks still going when its turn ends (`[background]` print_* settings). */
  background: { mode: PrintBackgroundMode; waitCeilingMs: number; maxTurns: number };
  onMessage(message: HostMessage): void;
  /** Every engine event as it happens, of every agent (`jarvis serve`'s live view: deltas, todos, subagents). */
  onEngineEvent?(event: EngineEvent): void;
}

interface CurrentRun {
  recorder: RunResultRecorder;
  stop: AbortController;
  interrupted: boolean;
}

export class SessionHost {
  private readonly control: SessionControl;
  private readonly pending = new Map<string, { request: ApprovalRequest; answer: (a: ApprovalAnswer) => void }>();
  private nextApproval = 1;
  private current: CurrentRun | undefined;
  private closing: Promise<void> | undefined;
  readonly runtime: Runtime;

  /** Opens the session (new or resumed; throws StartupError-like errors as they are) and emits `init`. */
  constructor(private readonly opts: SessionHostOptions) {
    const approvalPort: ApprovalPort | undefined = opts.nonInteractive
      ? undefined
      : { ask: (request, signal) => this.ask(request, signal) };
    this.control = new SessionControl({
      base: opts.base,
      nonInteractive: opts.nonInteractive,
      notificationDelivery: 'collect',
      approvalPort,
      interactionPort: opts.interactionPort,
      onEvent: (event) => this.onEvent(event),
    });
    this.runtime = this.control.ensure();
    opts.controls.attach({ agent: this.runtime.agent, tasks: this.runtime.tasks });
    opts.onMessage(initEvent(this.sessionId, this.control.model.model, opts.base.cwd));
  }

  get sessionId(): string {
    return this.runtime.session.id;
  }

  get busy(): boolean {
    return this.current !== undefined;
  }

  private onEvent(event: EngineEvent): void {
    this.opts.controls.observe(event);
    this.current?.recorder.observe(event);
    this.opts.onEngineEvent?.(event);
    if (event.agentId !== MAIN_AGENT_ID) return;
    const message = streamJsonMessage(event);
    if (message) this.opts.onMessage(message);
  }

  private ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (this.opts.decide) return this.opts.decide(request, signal);
    const id = `approval-${this.nextApproval++}`;
    return new Promise((resolve) => {
      const settle = (answer: ApprovalAnswer) => {
        if (!this.pending.delete(id)) return;
        signal.removeEventListener('abort', withdraw);
        resolve(answer);
      };
      const withdraw = () => settle({ decision: 'reject' });
      this.pending.set(id, { request, answer: settle });
      signal.addEventListener('abort', withdraw, { once: true });
    });
  }

  pendingApprovals(): PendingApproval[] {
    return [...this.pending].map(([id, p]) => ({ id, request: p.request }));
  }

  /** False when no approval with this id waits (answered, withdrawn, or never asked). */
  answerApproval(id: string, answer: ApprovalAnswer): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    p.answer(answer);
    return true;
  }

  /** An error outside a turn (a callback that threw): an `error` message, and the run's error if one runs. */
  reportError(message: string): void {
    this.current?.recorder.error(message);
    this.opts.onMessage({ type: 'error', message });
  }

  /** One prompt's run: its turn, what background work print mode would wait for, then the `result` (returned too). */
  async run(
    prompt: string,
    /** What the prompt carries besides its text (`jarvis serve`: a command's expansion, images, `@path` files). */
    extra: Pick<HeadlessRunOptions, 'promptContent' | 'preApproved' | 'attachments' | 'flow'> = {},
  ): Promise<RunResultEvent> {
    if (this.closing) throw new Error('the session is closed');
    if (this.current) throw new Error('a run is already going on in this session; wait for its result');
    const run: CurrentRun = { recorder: new RunResultRecorder(), stop: new AbortController(), interrupted: false };
    run.recorder.session(this.sessionId, this.control.model.model);
    this.current = run;
    const { controls } = this.opts;
    let code: number;
    try {
      code = await runHeadless(
        this.runtime.agent,
        {
          prompt,
          ...extra,
          // What print mode says on stderr about the waits; the SDK's stream has no place for it (docs/sdk.md).
          notify: { write: () => undefined },
          background: { watcher: this.runtime.notifications, ...this.opts.background },
          stop: AbortSignal.any([run.stop.signal, controls.signal]),
        },
        () => run.interrupted,
      );
    } catch (e) {
      run.recorder.error(`the run failed: ${e instanceof Error ? e.message : String(e)}`);
      this.opts.onMessage({ type: 'error', message: `the run failed: ${e instanceof Error ? e.message : String(e)}` });
      code = EXIT_FAILURE;
    } finally {
      this.current = undefined;
    }
    run.recorder.runEnded(reportOf(controls, code));
    const result = run.recorder.build(exitCodeOfVerdict(code, controls));
    this.opts.onMessage(result);
    return result;
  }

  /** Stops the running turn (its result says `interrupted`); nothing when idle. */
  interrupt(): void {
    const run = this.current;
    if (!run || run.interrupted) return;
    run.interrupted = true;
    run.stop.abort();
    this.runtime.agent.cancel(true);
  }

  setPermissionMode(mode: PermissionMode, plan: boolean): void {
    this.control.mode = mode;
    this.control.planMode = plan;
  }

  /** Throws while a turn runs (docs/sdk.md "setModel"). */
  setModel(model: ResolvedModel): void {
    if (this.runtime.agent.busy)
      throw new Error('cannot switch the model while a turn is running: wait for its result, or interrupt() it');
    this.runtime.setModel(model);
    this.control.model = model;
  }

  /** Interrupts, then closes the session and everything it started (background tasks, MCP servers, the lock). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.interrupt();
      for (const id of [...this.pending.keys()]) this.answerApproval(id, { decision: 'reject' });
      await this.control.close(true);
      await this.opts.mcp?.close();
      this.opts.controls.close();
    })();
    return this.closing;
  }
}
