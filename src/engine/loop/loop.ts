// The agent loop. One queue of step requests (prompts, steers, notifications); one turn at a time.
// A turn runs steps — a model response, then its tool calls — until the model answers without tools.
// Each turn and each step has its own AbortController; cancelling keeps the partial text.
import { randomBytes } from 'node:crypto';
import type {
  ContentPart,
  FinishReason,
  Message,
  ModelClient,
  ModelRequest,
  ResolvedModel,
  ToolCall,
} from '../../llm/types';
import { ProviderError } from '../../llm/types';
import { RetryBudget, retryDelayMs, shouldRetry, sleep } from '../../llm/retry';
import { normalizeToolCallIds } from '../../llm/toolCallIds';
import { toProviderError } from '../../llm/providerErrors';
import { toolSchemaForModel, type Tool, type ToolAccess, type ToolServices } from '../../tools/defineTool';
import type { ApprovalPort, PermissionRule } from '../policy/approvals';
import { contextTokensAfterResponse, contextWindow } from '../context/context';
import { MAIN_AGENT_ID, type EngineEvent, type EngineEventBody } from './events';
import type { ExtensionGate, GateContext } from '../extensions/extensionGate';
import type { Session } from '../session/session';
import type { FileHistoryRecorder } from '../session/fileHistoryRecorder';
import type { ToolSet } from './toolRegistry';
import type { PermissionMode, TurnEndReason, TurnOrigin } from '../session/records';
import { runToolCalls, type ToolBatchResult } from './toolBatch';
import {
  hasCutOffCall,
  InvalidCallStreak,
  MAX_EMPTY_RESPONSES,
  MAX_STOP_CONTINUATIONS_PER_TURN,
  RepeatedCallStreak,
  type RepeatVerdict,
  stopCapMessage,
  stopContinuationText,
  truncatedCallResults,
} from './turnLimits';
import type { Workspace } from '../policy/workspace';
import { noteSurvivedFailure } from '../../store/crashLog';

export type StepRequest =
  | { kind: 'prompt'; text: string; content?: ContentPart[] }
  | { kind: 'steer'; text: string }
  /** `onJournalled` is called once its message is in the journal (a task's notification is delivered then). */
  | { kind: 'notification'; text: string; onJournalled?: () => void }
  /** An automatic turn the engine starts itself (goal continuation): its own turn, origin 'system'. */
  | { kind: 'continuation'; text: string }
  /** A scheduled task fired: its own turn after any running one, origin 'cron'. */
  | { kind: 'cron'; text: string };

export interface LoopSettings {
  /** 0 = unlimited. */
  maxStepsPerTurn: number;
  maxAttemptsPerStep: number;
  /** Retries of one request stop this long after its first failure (default RETRY_BUDGET_MS). */
  retryBudgetMs?: number;
  /** The model client's first-byte and stream-stall time-out; 0 = none (default: the client's). */
  idleTimeoutMs?: number;
}

/**
 * Capabilities that shape a turn without living in the loop (plan mode, compaction, goals…) plug in
 * here. Each hook is optional; they run in the order given.
 */
export interface TurnExtension {
  /** Before every model request of a turn: compact the context, inject a reminder message… */
  beforeStep?(agent: Agent, signal: AbortSignal): Promise<void> | void;
  /**
   * A provider error the loop would not retry by itself (e.g. a context overflow). Return true after
   * fixing the cause (e.g. compacting) to retry the step; the loop gives up after a few tries.
   */
  recoverFromError?(agent: Agent, error: ProviderError, attempt: number, signal: AbortSignal): Promise<boolean>;
  /** Refuse a tool call before approval is asked (plan mode, budgets): return the message for the model. */
  checkToolCall?(
    call: { toolName: string; subject: string; accesses: readonly ToolAccess[]; args: unknown },
    agent: Agent,
  ): string | undefined;
  /** After every turn, with its outcome. */
  afterTurn?(agent: Agent, outcome: TurnOutcome): Promise<void> | void;
}

/** How many times one step may be recovered by extensions (e.g. compaction with growing cuts). */
export const MAX_RECOVERIES_PER_STEP = 3;

/** What an agent's tool calls are judged by: the permission mode, remembered approvals, swarm mode (SPEC §6.7). */
export interface PermissionState {
  mode: PermissionMode;
  sessionApprovals: readonly string[];
  /** `/swarm on`: AgentSwarm is approved without asking. */
  swarmMode?: boolean;
}

/** `[thinking]`: whether to ask for thinking, and at what effort (the model's default otherwise). */
export interface ThinkingSettings {
  enabled: boolean;
  effort?: string;
}

/** Thinking is requested only from models that can think; `always_thinking` models cannot turn it off. */
export function thinkingParams(
  model: ResolvedModel,
  settings: ThinkingSettings = { enabled: true },
): { enabled: boolean; effort?: string } | undefined {
  const always = model.capabilities.includes('always_thinking');
  if (!always && !model.capabilities.includes('thinking')) return undefined;
  if (!settings.enabled && !always) return { enabled: false };
  return { enabled: true, effort: settings.effort ?? model.defaultEffort };
}

export interface AgentDeps {
  /** This agent's id within its session (`main`, or a subagent's id); every event carries it. */
  agentId?: string;
  /**
   * The permission mode and remembered approvals this agent's calls are judged by. Defaults to its own
   * journal's; a subagent reads its parent's mode live and adds the parent's approvals to its own.
   */
  permissions?(): PermissionState;
  thinking?: ThinkingSettings;
  extensions?: TurnExtension[];
  session: Session;
  model: ResolvedModel;
  getClient(): Promise<ModelClient>;
  /** Read before every model request: a registry whose tools change is offered anew at the next step. */
  tools: ToolSet;
  systemPrompt: string;
  settings: LoopSettings;
  rules: PermissionRule[];
  approvalPort?: ApprovalPort;
  /** Canonical folders the session works in (workspace.ts): paths outside them ask, or are refused in auto mode. */
  workspace: Workspace;
  isSensitivePath(path: string): boolean;
  services: ToolServices;
  cwd: string;
  onEvent(event: EngineEvent): void;
  /** Overrides the retry back-off (tests use 0). */
  retryDelay?: (attempt: number, error: ProviderError) => number;
  /** Hooks and extensions around prompts, tool calls and turn ends (docs/extensions.md). */
  gate?: ExtensionGate;
  /** Settles when session-start handlers are done; the first turn waits for it. */
  ready?: Promise<void>;
  /** The session's file history (fileHistoryRecorder.ts); absent: writes keep no prior copies. */
  fileHistory?: FileHistoryRecorder;
}

export interface TurnOutcome {
  turnId: string;
  reason: TurnEndReason;
  error?: string;
  text: string;
  /** Tool calls the model made during the turn (valid or not). */
  toolCalls: number;
}

/** The outcome of a request cancelled before its turn began. */
const NOT_STARTED: TurnOutcome = {
  turnId: '',
  reason: 'cancelled',
  error: 'cancelled before it started',
  text: '',
  toolCalls: 0,
};

interface StepResponse {
  text: string;
  message: Extract<Message, { role: 'assistant' }>;
  toolCalls: ToolCall[];
  finish: FinishReason;
  /** No text and no tool call (perhaps thinking only): nothing was journalled, the step is asked again. */
  empty?: 'empty' | 'thinking only';
}

class TurnCancelled extends Error {}

export class Agent {
  private readonly queue: StepRequest[] = [];
  private draining: Promise<void> | undefined;
  private turnAbort: AbortController | undefined;
  /** Outcomes of the current (or last) drain only: a front end that never calls idle() must not make it grow. */
  private readonly outcomes: TurnOutcome[] = [];
  /** `run()` callers waiting for the turn of one particular request. */
  private readonly waiters = new Map<StepRequest, (outcome: TurnOutcome) => void>();
  readonly id: string;

  constructor(private readonly deps: AgentDeps) {
    this.id = deps.agentId ?? MAIN_AGENT_ID;
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
  run(text: string, opts: { signal?: AbortSignal; content?: ContentPart[] } = {}): Promise<TurnOutcome> {
    const request: StepRequest = { kind: 'prompt', text, ...(opts.content ? { content: opts.content } : {}) };
    const { signal } = opts;
    if (signal?.aborted) return Promise.resolve(NOT_STARTED);
    const onAbort = () => this.cancel(true);
    signal?.addEventListener('abort', onAbort, { once: true });
    return new Promise<TurnOutcome>((resolve) => {
      this.waiters.set(request, resolve);
      this.submit(request);
    }).finally(() => signal?.removeEventListener('abort', onAbort));
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
    this.turnAbort = abort;
    let message = this.userMessageFor(first);
    let blocked: string | undefined;
    // A steer that came as the last turn ended opens this one: it passes the prompt gate like any prompt.
    if ((first.kind === 'prompt' || first.kind === 'steer') && this.deps.gate) {
      const answer = await this.deps.gate.promptSubmit(
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
    let finalText = '';
    let toolCalls = 0;
    const invalidStreak = new InvalidCallStreak();
    const repeatStreak = new RepeatedCallStreak();
    let stopContinuations = 0;
    let emptyAnswers = 0;
    let reason: TurnEndReason = 'completed';
    let error: string | undefined;
    try {
      for (let step = 1; ; step++) {
        // A journal that cannot be written ends the turn before anything more happens.
        const unsaved = session.takeSaveFailure();
        if (unsaved) throw unsaved;
        await this.absorbSteers(abort.signal);
        for (const ext of this.deps.extensions ?? []) await ext.beforeStep?.(this, abort.signal);
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
        const response = await this.runStep(abort.signal);
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
          const more = await this.deps.gate?.beforeStop(facts, this.gateContext(abort.signal));
          if (more === undefined) break;
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
        const { batch, repeats } = await this.runTools(response.toolCalls, abort.signal, repeatStreak);
        const repeated = invalidStreak.add(response.toolCalls, batch.invalid) ?? repeats.stop;
        for (const text of repeats.warnings) this.emit({ type: 'notice', level: 'warning', text });
        if (batch.rejected) {
          reason = 'cancelled';
          error = 'The user rejected a tool call.';
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
      } else {
        reason = 'failed';
        error = e instanceof Error ? e.message : String(e);
        this.emit({ type: 'notice', level: 'error', text: error });
      }
    } finally {
      this.turnAbort = undefined;
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
    for (const ext of this.deps.extensions ?? []) {
      try {
        await ext.afterTurn?.(this, outcome);
      } catch (e) {
        this.emit({
          type: 'notice',
          level: 'error',
          text: `after-turn handler failed: ${e instanceof Error ? e.message : String(e)}`,
        });
      }
    }
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
      if (r.kind === 'steer' && this.deps.gate) {
        const answer = await this.deps.gate.promptSubmit(
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

  private buildRequest(): ModelRequest {
    const { session, tools, model } = this.deps;
    return {
      system: session.state.systemPrompt ?? this.deps.systemPrompt,
      messages: session.state.messages,
      tools: tools.list().map(toolSchemaForModel),
      params: {
        promptCacheKey: session.id,
        thinking: thinkingParams(model, this.deps.thinking),
      },
    };
  }

  private async runStep(turnSignal: AbortSignal): Promise<StepResponse> {
    const { settings } = this.deps;
    const client = await this.deps.getClient();
    let request = this.buildRequest();
    let recoveries = 0;
    const budget = new RetryBudget(settings.retryBudgetMs);
    for (let attempt = 1; ; attempt++) {
      const stepAbort = new AbortController();
      const onAbort = () => stepAbort.abort(turnSignal.reason);
      // A turn cancelled before this step began (e.g. while a gate handler ran) must not start it.
      if (turnSignal.aborted) onAbort();
      turnSignal.addEventListener('abort', onAbort, { once: true });
      const partial = { text: '' };
      try {
        return await this.consume(client, request, stepAbort.signal, partial);
      } catch (e) {
        if (turnSignal.aborted) {
          if (partial.text) {
            this.deps.session.commit({
              type: 'message',
              message: { role: 'assistant', text: partial.text },
              partial: true,
            });
          }
          throw e;
        }
        const { model } = this.deps;
        const err = toProviderError(e, {
          providerName: model.providerName,
          providerType: model.providerType,
          model: model.model,
        });
        if (!err.retryable && recoveries < MAX_RECOVERIES_PER_STEP) {
          let recovered = false;
          for (const ext of this.deps.extensions ?? []) {
            if (await ext.recoverFromError?.(this, err, recoveries + 1, turnSignal)) {
              recovered = true;
              break;
            }
          }
          if (recovered) {
            recoveries++;
            request = this.buildRequest();
            attempt = 0;
            continue;
          }
        }
        if (!shouldRetry(err, attempt, settings.maxAttemptsPerStep)) throw err;
        const delayMs = this.deps.retryDelay ? this.deps.retryDelay(attempt, err) : retryDelayMs(attempt, err);
        budget.check(err, attempt, delayMs, settings.idleTimeoutMs ?? 0);
        this.emit({ type: 'retry', attempt, maxAttempts: settings.maxAttemptsPerStep, delayMs, error: err.message });
        await sleep(delayMs, turnSignal);
      } finally {
        turnSignal.removeEventListener('abort', onAbort);
      }
    }
  }

  private async consume(
    client: ModelClient,
    request: ModelRequest,
    signal: AbortSignal,
    partial: { text: string },
  ): Promise<StepResponse> {
    const thinking: NonNullable<Extract<Message, { role: 'assistant' }>['thinking']> = [];
    let thinkingText = '';
    const calls: ToolCall[] = [];
    let finished: FinishReason | undefined;
    for await (const part of client.stream(request, signal)) {
      switch (part.type) {
        case 'text':
          partial.text += part.delta;
          this.emit({ type: 'text_delta', delta: part.delta });
          break;
        case 'thinking':
          thinkingText += part.delta;
          this.emit({ type: 'thinking_delta', delta: part.delta });
          break;
        case 'thinking_block':
          thinking.push(part.block);
          break;
        case 'tool_call_start':
          this.emit({ type: 'tool_call_start', id: part.id, name: part.name });
          break;
        case 'tool_call':
          calls.push(part.call);
          break;
        case 'usage': {
          this.deps.session.commit({ type: 'usage', usage: part.usage });
          const { model } = this.deps;
          this.emit({
            type: 'usage',
            usage: part.usage,
            contextTokens: contextTokensAfterResponse(request, this.deps.session.state.usage, part.usage),
            contextLimit: contextWindow(model),
          });
          break;
        }
        case 'finish':
          finished = part.reason;
          break;
      }
    }
    if (signal.aborted) throw new TurnCancelled('cancelled');
    if (!finished)
      throw new ProviderError(
        'bad_response',
        `${client.providerType}: the response stream ended before the model finished its answer.`,
      );
    if (!thinking.length && thinkingText) thinking.push({ text: thinkingText });
    const toolCalls = normalizeToolCallIds(calls, this.usedToolCallIds());
    const message: Extract<Message, { role: 'assistant' }> = { role: 'assistant', text: partial.text };
    if (!partial.text.trim() && !toolCalls.length) {
      // Not journalled: providers refuse an empty assistant message, and the step is asked again.
      // Front ends still hear that the response ended (they close its thinking).
      this.emit({ type: 'assistant_message', text: '', toolCalls: [] });
      return { text: '', message, toolCalls, finish: finished, empty: thinking.length ? 'thinking only' : 'empty' };
    }
    if (thinking.length) message.thinking = thinking;
    if (toolCalls.length) message.toolCalls = toolCalls;
    this.deps.session.commit({ type: 'message', message });
    this.emit({ type: 'assistant_message', text: partial.text, toolCalls });
    return { text: partial.text, message, toolCalls, finish: finished };
  }

  private usedToolCallIds(): Set<string> {
    const ids = new Set<string>();
    for (const m of this.deps.session.state.messages)
      if (m.role === 'assistant') for (const c of m.toolCalls ?? []) ids.add(c.id);
    return ids;
  }

  /** A note for the model from the engine itself, as the next user message (docs/configuration.md, "Loop limits"). */
  private tellModel(text: string): void {
    const content: ContentPart[] = [{ type: 'text', text: `<system-reminder>\n${text}\n</system-reminder>` }];
    this.deps.session.commit({ type: 'message', message: { role: 'user', content } });
  }

  private async runTools(
    calls: ToolCall[],
    signal: AbortSignal,
    repeatStreak: RepeatedCallStreak,
  ): Promise<{ batch: ToolBatchResult; repeats: RepeatVerdict }> {
    const { session } = this.deps;
    const permissions = this.permissionState();
    let batch: ToolBatchResult;
    try {
      batch = await this.runBatch(calls, signal, permissions);
    } catch (e) {
      // Every call id gets a result whatever failed, or the next request would be refused by the provider.
      const why = e instanceof Error ? e.message : String(e);
      for (const call of calls) session.commit({ type: 'message', message: unfinishedCall(call, why) });
      throw e;
    }
    for (const snapshot of batch.snapshots) session.commit({ type: 'file_snapshot', snapshot });
    this.deps.fileHistory?.record(batch.changes, batch.commands);
    // Repeats are judged (and warned about, in the results) before the results are journalled.
    const repeats = repeatStreak.add(calls, batch.invalid, batch.messages);
    for (const message of batch.messages) session.commit({ type: 'message', message });
    if (signal.aborted) throw new TurnCancelled('cancelled');
    return { batch, repeats };
  }

  private runBatch(calls: ToolCall[], signal: AbortSignal, permissions: PermissionState): Promise<ToolBatchResult> {
    const { session, gate } = this.deps;
    return runToolCalls(calls, {
      agentId: this.id,
      tools: this.deps.tools,
      cwd: this.deps.cwd,
      services: this.deps.services,
      guard: session.guard,
      fileHistory: this.deps.fileHistory,
      mode: permissions.mode,
      rules: this.deps.rules,
      sessionApprovals: permissions.sessionApprovals,
      swarmMode: !!permissions.swarmMode,
      approvalPort: this.deps.approvalPort,
      workspace: this.deps.workspace,
      isSensitivePath: this.deps.isSensitivePath,
      checkToolCall: (call) => {
        for (const ext of this.deps.extensions ?? []) {
          const refusal = ext.checkToolCall?.(call, this);
          if (refusal) return refusal;
        }
        return undefined;
      },
      signal,
      emit: (e) => this.emit(e),
      rememberApproval: (pattern) => session.commit({ type: 'session_approval', pattern }),
      ...(gate
        ? {
            beforeToolCall: (call) => gate.beforeToolCall(call, this.gateContext(signal)),
            afterToolCall: (call, outcome) => gate.afterToolCall(call, outcome, this.gateContext(signal)),
          }
        : {}),
    });
  }
}

/** The result of a call whose batch failed before its results were known. */
function unfinishedCall(call: ToolCall, why: string): Message {
  const text =
    `${call.name} may or may not have run: handling this step's tool calls failed (${why}). ` +
    'Check its effects before retrying.';
  return { role: 'tool', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text }], isError: true };
}

/** Context an extension added to a prompt travels with it, as extra text after the user's own. */
function withContext(message: Message, added: readonly string[]): Message {
  if (!added.length || message.role !== 'user') return message;
  return { ...message, content: [...message.content, ...added.map((text) => ({ type: 'text' as const, text }))] };
}
