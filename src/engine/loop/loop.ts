// The agent loop. One queue of step requests (prompts, steers, notifications); one turn at a time.
// A turn runs steps — a model response, then its tool calls — until the model answers without tools.
// Each turn and each step has its own AbortController; cancelling keeps the partial text.
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { ContentPart, Message, ModelClient, ResolvedModel } from '../../llm/types';
import type { Tool } from '../../tools/defineTool';
import { MAIN_AGENT_ID, type EngineEvent, type EngineEventBody } from './events';
import type { Session } from '../session/session';
import type { TurnEndReason, TurnOrigin } from '../session/records';
import {
  hasCutOffCall,
  InvalidCallStreak,
  MAX_EMPTY_RESPONSES,
  MAX_STOP_CONTINUATIONS_PER_TURN,
  RepeatedCallStreak,
  stopCapMessage,
  stopContinuationText,
  truncatedCallResults,
} from './turnLimits';
import { noteSurvivedFailure } from '../../store/crashLog';
import type { AgentDeps, PermissionState, StepRequest } from './agentDeps';
import { ModelStep, TurnCancelled } from './modelStep';
import { ToolStep, type UserCallResult } from './toolStep';
import type { PermissionRule } from '../policy/approvals';
import { TurnExtensions, type GateContext, type TurnEnd, type TurnOutcome } from './turnExtension';

export {
  thinkingParams,
  type AgentDeps,
  type LoopSettings,
  type PermissionState,
  type StepRequest,
  type ThinkingSettings,
} from './agentDeps';
export { MAX_RECOVERIES_PER_STEP, type TurnExtension, type TurnOutcome } from './turnExtension';

/** The outcome of a request cancelled before its turn began. */
const NOT_STARTED: TurnOutcome = {
  turnId: '',
  reason: 'cancelled',
  error: 'cancelled before it started',
  text: '',
  toolCalls: 0,
};

export class Agent {
  private readonly queue: StepRequest[] = [];
  private draining: Promise<void> | undefined;
  private turnAbort: AbortController | undefined;
  /** Set by `stop` while a turn runs: how that turn ends. */
  private stopping: TurnEnd | undefined;
  /** Outcomes of the current (or last) drain only: a front end that never calls idle() must not make it grow. */
  private readonly outcomes: TurnOutcome[] = [];
  /** `run()` callers waiting for the turn of one particular request. */
  private readonly waiters = new Map<StepRequest, (outcome: TurnOutcome) => void>();
  readonly id: string;
  private readonly extensions: TurnExtensions;
  private readonly step: ModelStep;
  private readonly toolStep: ToolStep;

  constructor(private readonly deps: AgentDeps) {
    this.id = deps.agentId ?? MAIN_AGENT_ID;
    this.extensions = new TurnExtensions(deps.extensions ?? []);
    this.step = new ModelStep(deps, this, this.extensions, (event) => this.emit(event));
    this.toolStep = new ToolStep(deps, this, this.extensions, (event) => this.emit(event));
  }

  get model(): ResolvedModel {
    return this.deps.model;
  }

  /** The client of the current model (created on first use). */
  client(): Promise<ModelClient> {
    return this.deps.getClient();
  }

  /** The mode and remembered approvals this agent's tool calls are judged by now. */
  permissionState(): PermissionState {
    return this.deps.permissions?.() ?? this.deps.session.state;
  }

  /**
   * Switches the model this agent talks to from its next request on (`/model`). Refused while a turn
   * runs: a turn keeps the model it started with.
   */
  setModel(model: ResolvedModel, getClient: () => Promise<ModelClient>): void {
    if (this.busy)
      throw new Error('Cannot switch the model while a turn is running; wait for it to end or press Esc first.');
    this.deps.model = model;
    this.deps.getClient = getClient;
  }

  /**
   * Runs one prompt to the end of its turn and returns the outcome (`text` is the final answer).
   * Aborting `signal` cancels the turn (and any queued requests). This is how a parent runs a subagent.
   */
  run(
    text: string,
    opts: { signal?: AbortSignal; content?: ContentPart[]; preApproved?: PermissionRule[] } = {},
  ): Promise<TurnOutcome> {
    const { content, preApproved } = opts;
    const request: StepRequest = {
      kind: 'prompt',
      text,
      ...(content ? { content } : {}),
      ...(preApproved ? { preApproved } : {}),
    };
    const { signal } = opts;
    if (signal?.aborted) return Promise.resolve(NOT_STARTED);
    const onAbort = () => this.cancel(true);
    signal?.addEventListener('abort', onAbort, { once: true });
    return new Promise<TurnOutcome>((resolve) => {
      this.waiters.set(request, resolve);
      this.submit(request);
    }).finally(() => signal?.removeEventListener('abort', onAbort));
  }

  /** Runs one tool call for the user on the model's path (approval, sandbox, hooks, journal); toolStep.ts. */
  runForUser(
    call: { name: string; args: Record<string, unknown> },
    opts: { signal?: AbortSignal; preApproved?: readonly PermissionRule[] } = {},
  ): Promise<UserCallResult> {
    const signal = opts.signal ?? new AbortController().signal;
    return this.toolStep.runForUser(call, signal, this.permissionState(), opts.preApproved ?? []);
  }

  /** Pre-approves `rules` for the rest of the running turn (a loaded skill's `allowed-tools`). */
  grantForTurn(rules: readonly PermissionRule[]): void {
    if (this.busy) this.toolStep.grant(rules);
  }

  get busy(): boolean {
    return this.draining !== undefined;
  }

  /** The tools this agent is offered at its next step. */
  get tools(): readonly Tool[] {
    return this.deps.tools.list();
  }

  get session(): Session {
    return this.deps.session;
  }

  /** Queues a request. Steers and notifications join a running turn at its next step boundary. */
  submit(request: StepRequest): void {
    this.queue.push(request);
    if (this.draining && request.kind === 'prompt')
      this.emit({
        type: 'prompt_queued',
        text: request.text,
        queueLength: this.queue.filter((r) => r.kind === 'prompt').length,
      });
    if (!this.draining) {
      this.draining = this.drain().finally(() => {
        this.draining = undefined;
      });
    }
  }

  /** Resolves when the queue is empty and no turn runs; returns the outcomes of the turns the last drain ran. */
  async idle(): Promise<TurnOutcome[]> {
    while (this.draining) await this.draining;
    return this.outcomes.splice(0);
  }

  /** True while `request` waits in the queue (its turn has not begun; a steer has not joined a turn). */
  isQueued(request: StepRequest): boolean {
    return this.queue.includes(request);
  }

  /** Interrupts the running turn at once. Queued prompts stay queued unless `clearQueue`. */
  cancel(clearQueue = false): void {
    if (clearQueue) {
      for (const request of this.queue) this.waiters.get(request)?.(NOT_STARTED);
      for (const request of this.queue) this.waiters.delete(request);
      this.queue.length = 0;
    }
    this.turnAbort?.abort(new TurnCancelled('cancelled'));
  }

  /**
   * Stops at once, the way a cap of the run does (docs/print-mode.md "Caps"): the running turn is aborted and ends
   * with `end` (its partial text and every started call's result are journalled, as on Esc), and queued requests
   * are dropped.
   */
  stop(end: TurnEnd): void {
    if (this.turnAbort) this.stopping = end;
    this.cancel(true);
  }

  private async drain(): Promise<void> {
    this.outcomes.length = 0;
    if (this.deps.ready) await this.deps.ready;
    while (this.queue.length) {
      const request = this.queue.shift()!;
      let outcome: TurnOutcome;
      try {
        outcome = await this.runTurn(request);
      } catch (e) {
        // runTurn handles its own failures; this is the backstop that keeps the queue (and the
        // process) alive if ending a turn itself throws.
        const error = e instanceof Error ? e.message : String(e);
        this.emit({ type: 'notice', level: 'error', text: error });
        outcome = { turnId: '', reason: 'failed', error, text: '', toolCalls: 0 };
      }
      const waiter = this.waiters.get(request);
      this.waiters.delete(request);
      // A run() caller takes its outcome; idle() reports the rest.
      if (waiter) waiter(outcome);
      else this.outcomes.push(outcome);
    }
  }

  private emit(event: EngineEventBody): void {
    try {
      this.deps.onEvent({ ...event, agentId: this.id } as EngineEvent);
    } catch (e) {
      // A front end's rendering bug must never break the turn or lose journal records; the log has it.
      noteSurvivedFailure(`a front end's event handler threw on a ${event.type} event`, e);
    }
  }

  private userMessageFor(request: StepRequest): Message {
    if (request.kind === 'prompt')
      return { role: 'user', content: request.content ?? [{ type: 'text', text: request.text }] };
    if (request.kind === 'steer' || request.kind === 'continuation' || request.kind === 'cron')
      return { role: 'user', content: [{ type: 'text', text: request.text }] };
    return {
      role: 'user',
      content: [{ type: 'text', text: `<system-notification>\n${request.text}\n</system-notification>` }],
    };
  }

  private async runTurn(first: StepRequest): Promise<TurnOutcome> {
    const { session } = this.deps;
    const turnId = `t_${randomBytes(5).toString('hex')}`;
    const origin: TurnOrigin =
      first.kind === 'notification'
        ? 'notification'
        : first.kind === 'continuation'
          ? 'system'
          : first.kind === 'cron'
            ? 'cron'
            : 'user';
    const abort = new AbortController();
    // Every call of a response listens to the turn's signal while it runs, and a response may hold dozens of calls
    // run side by side: that many listeners is the design, not a leak, so Node's warning past 10 is turned off here.
    setMaxListeners(0, abort.signal);
    this.turnAbort = abort;
    let message = this.userMessageFor(first);
    let blocked: string | undefined;
    // A steer that came as the last turn ended opens this one: it passes the prompt gate like any prompt.
    if (first.kind === 'prompt' || first.kind === 'steer') {
      const answer = await this.extensions.promptSubmit(
        { text: first.text, isSteer: false, origin },
        this.gateContext(abort.signal),
      );
      blocked = answer.block;
      message = withContext(message, answer.addContext);
    }
    session.commit({ type: 'turn_start', turnId, origin, prompt: first.text });
    if (blocked === undefined) this.commitRequestMessage(first, message);
    this.emit({ type: 'turn_start', turnId, origin, prompt: first.text });
    if (blocked !== undefined)
      return this.endTurn(turnId, 'blocked', `The prompt was blocked before it reached the model: ${blocked}`, '');
    this.toolStep.beginTurn(first.kind === 'prompt' ? first.preApproved : undefined);
    let finalText = '';
    let toolCalls = 0;
    const invalidStreak = new InvalidCallStreak();
    const repeatStreak = new RepeatedCallStreak(this.deps.services.scratchDir);
    let stopContinuations = 0;
    let emptyAnswers = 0;
    let reason: TurnEndReason = 'completed';
    let error: string | undefined;
    try {
      for (let step = 1; ; step++) {
        // A journal that cannot be written ends the turn before anything more happens.
        const unsaved = session.takeSaveFailure();
        if (unsaved) throw unsaved;
        const ending = this.extensions.endTurn(this, 'request');
        if (ending) {
          ({ reason, error } = this.applyEnd(ending));
          break;
        }
        await this.absorbSteers(abort.signal);
        await this.extensions.beforeStep(this, abort.signal);
        const max = this.deps.settings.maxStepsPerTurn;
        if (max > 0 && step > max) {
          reason = 'max_steps';
          error = `The turn stopped after ${max} steps (loop_control.max_steps_per_turn). Send a message to continue.`;
          this.tellModel(
            `This turn was stopped after ${max} steps, the most one turn may take (loop_control.max_steps_per_turn). ` +
              "Wait for the user's next message.",
          );
          break;
        }
        this.emit({ type: 'step_start', turnId, step });
        const response = await this.step.run(abort.signal);
        if (response.empty) {
          // Nothing was said: ask again (with a note) a few times rather than end with a silent success.
          emptyAnswers++;
          const what = `${response.empty === 'empty' ? 'an empty answer' : 'only thinking'} (no text and no tool call)`;
          if (emptyAnswers >= MAX_EMPTY_RESPONSES) {
            reason = 'failed';
            error =
              `The model sent ${what} ${emptyAnswers} times in a row; the turn failed. ` +
              'Send a message to try again, or switch models.';
            this.emit({ type: 'notice', level: 'error', text: error });
            break;
          }
          const again = `The model sent ${what}; asking it again (${emptyAnswers} of ${MAX_EMPTY_RESPONSES}).`;
          this.emit({ type: 'notice', level: 'warning', text: again });
          this.tellModel(`Your last response was ${what}. Answer the user, or call a tool.`);
          continue;
        }
        emptyAnswers = 0;
        finalText = response.text;
        toolCalls += response.toolCalls.length;
        // A steer that arrived during this step belongs to this turn: answer it before ending.
        if (!response.toolCalls.length && !this.queue.some((r) => r.kind === 'steer')) {
          const facts = { turnId, text: finalText, continued: stopContinuations > 0 };
          const more = await this.extensions.beforeStop(facts, this.gateContext(abort.signal));
          if (more === undefined) {
            const ending = this.extensions.endTurn(this, 'answer');
            if (ending) ({ reason, error } = this.applyEnd(ending));
            break;
          }
          if (stopContinuations >= MAX_STOP_CONTINUATIONS_PER_TURN) {
            this.emit({ type: 'notice', level: 'warning', text: stopCapMessage() });
            break;
          }
          stopContinuations++;
          const text = stopContinuationText(more, stopContinuations);
          session.commit({ type: 'message', message: { role: 'user', content: [{ type: 'text', text }] } });
          continue;
        }
        if (!response.toolCalls.length) continue;
        if (response.finish === 'length' && hasCutOffCall(response.toolCalls)) {
          // Cut off by the output limit: nothing of it runs, and the model is told why (not "bad JSON").
          for (const message of truncatedCallResults(response.toolCalls)) session.commit({ type: 'message', message });
          const cut =
            "The model's response hit its output token limit in the middle of a tool call; the calls " +
            'were not run and the model was asked to send them again, shorter.';
          this.emit({ type: 'notice', level: 'warning', text: cut });
          const repeated = invalidStreak.add(
            response.toolCalls,
            response.toolCalls.map(() => true),
          );
          if (repeated) {
            reason = 'failed';
            error = repeated;
            this.emit({ type: 'notice', level: 'error', text: repeated });
            break;
          }
          continue;
        }
        // `batch.invalid` is per call that ran: a response's duplicates were answered, not run (duplicateCalls.ts).
        const { batch, repeats, ran } = await this.toolStep.run(
          response.toolCalls,
          abort.signal,
          repeatStreak,
          this.permissionState(),
        );
        const repeated = invalidStreak.add(ran, batch.invalid) ?? repeats.stop;
        for (const text of repeats.warnings) this.emit({ type: 'notice', level: 'warning', text });
        if (batch.rejected) {
          reason = 'cancelled';
          error = 'The user rejected a tool call.';
          break;
        }
        if (batch.halted !== undefined) {
          // A hook said `"continue": false` (docs/hooks.md): the turn ends here, and the user reads why.
          reason = 'blocked';
          error = `A hook stopped the turn: ${batch.halted}`;
          this.emit({ type: 'notice', level: 'warning', text: error });
          break;
        }
        if (repeated) {
          reason = 'failed';
          error = repeated;
          this.emit({ type: 'notice', level: 'error', text: repeated });
          break;
        }
      }
    } catch (e) {
      if (abort.signal.aborted) {
        reason = 'cancelled';
        if (this.stopping) ({ reason, error } = this.applyEnd(this.stopping));
      } else {
        reason = 'failed';
        error = e instanceof Error ? e.message : String(e);
        this.emit({ type: 'notice', level: 'error', text: error });
      }
    } finally {
      // A stop that came while an extension was answering (no abort reached the step) still decides the end.
      if (this.stopping && reason !== this.stopping.reason) ({ reason, error } = this.applyEnd(this.stopping));
      this.stopping = undefined;
      this.turnAbort = undefined;
      this.toolStep.beginTurn(undefined);
    }
    return this.endTurn(turnId, reason, error, finalText, toolCalls);
  }

  private async endTurn(
    turnId: string,
    reason: TurnEndReason,
    error: string | undefined,
    finalText: string,
    toolCalls = 0,
  ): Promise<TurnOutcome> {
    const { session } = this.deps;
    this.turnAbort = undefined;
    const unsaved = session.takeSaveFailure();
    if (unsaved && reason !== 'failed') {
      reason = 'failed';
      error = unsaved.message;
      this.emit({ type: 'notice', level: 'error', text: error });
    }
    session.commit({ type: 'turn_end', turnId, reason, ...(error ? { error } : {}) });
    session.saveSummary();
    this.emit({ type: 'turn_end', turnId, reason, ...(error ? { error } : {}) });
    const outcome: TurnOutcome = { turnId, reason, error, text: finalText, toolCalls };
    await this.extensions.afterTurn(this, outcome, (why) =>
      this.emit({ type: 'notice', level: 'error', text: `after-turn handler failed: ${why}` }),
    );
    return outcome;
  }

  /**
   * Steers and notifications queued while a turn runs are given to the model before its next step.
   * A steer passes the prompt gate first: blocked, it is dropped with a notice.
   */
  private async absorbSteers(signal: AbortSignal): Promise<void> {
    for (let i = 0; i < this.queue.length;) {
      const r = this.queue[i];
      if (r.kind === 'prompt' || r.kind === 'continuation' || r.kind === 'cron') {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      let message = this.userMessageFor(r);
      if (r.kind === 'steer') {
        const answer = await this.extensions.promptSubmit(
          { text: r.text, isSteer: true, origin: 'user' },
          this.gateContext(signal),
        );
        if (answer.block !== undefined) {
          this.emit({
            type: 'notice',
            level: 'warning',
            text: `Your message was blocked before it reached the model: ${answer.block}`,
          });
          continue;
        }
        message = withContext(message, answer.addContext);
      }
      this.commitRequestMessage(r, message);
    }
  }

  private commitRequestMessage(request: StepRequest, message: Message): void {
    const { session } = this.deps;
    session.commit({ type: 'message', message });
    if (request.kind === 'notification' && !session.persistError) request.onJournalled?.();
  }

  /** What every gate call says about where it comes from. */
  gateContext(signal: AbortSignal): GateContext {
    return { sessionId: this.deps.session.id, agentId: this.id, cwd: this.deps.cwd, signal };
  }

  /** The end an extension or `stop` asked for: the note for the model is journalled, the reason and error returned. */
  private applyEnd(end: TurnEnd): { reason: TurnEndReason; error: string | undefined } {
    if (end.note) this.tellModel(end.note);
    if (end.error) this.emit({ type: 'notice', level: end.reason === 'completed' ? 'info' : 'error', text: end.error });
    return { reason: end.reason, error: end.error };
  }

  /** A note for the model from the engine itself, as the next user message (docs/configuration.md, "Loop limits"). */
  private tellModel(text: string): void {
    const content: ContentPart[] = [{ type: 'text', text: `<system-reminder>\n${text}\n</system-reminder>` }];
    this.deps.session.commit({ type: 'message', message: { role: 'user', content } });
  }
}

/** Context an extension added to a prompt travels with it, as extra text after the user's own. */
function withContext(message: Message, added: readonly string[]): Message {
  if (!added.length || message.role !== 'user') return message;
  return { ...message, content: [...message.content, ...added.map((text) => ({ type: 'text' as const, text }))] };
}
