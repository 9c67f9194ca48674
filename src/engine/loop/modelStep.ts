// One step's model request (docs/architecture.md, "The data path"): build the request from the journal, stream the
// response into events and one journalled assistant message, retry what may be retried within the budget, and let
// extensions recover from errors the loop cannot retry by itself (a context overflow: compaction).
import type { FinishReason, Message, ModelClient, ModelRequest, ToolCall } from '../../llm/types';
import { ProviderError } from '../../llm/types';
import { RetryBudget, retryDelayMs, shouldRetry, sleep } from '../../llm/retry';
import { normalizeToolCallIds } from '../../llm/toolCallIds';
import { toProviderError } from '../../llm/providerErrors';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../llm/createModelClient';
import { withPrice } from '../../llm/pricing';
import { toolSchemaForModel } from '../../tools/defineTool';
import { contextTokensAfterResponse, contextWindow } from '../context/context';
import { thinkingParams, type AgentDeps } from './agentDeps';
import type { EngineEventBody } from './events';
import { DEFAULT_WAIT_NOTICE_MS, ModelWait } from './modelWait';
import type { Agent } from './loop';
import { MAX_RECOVERIES_PER_STEP, type TurnExtensions } from './turnExtension';

export interface StepResponse {
  text: string;
  message: Extract<Message, { role: 'assistant' }>;
  toolCalls: ToolCall[];
  finish: FinishReason;
  /** No text and no tool call (perhaps thinking only): nothing was journalled, the step is asked again. */
  empty?: 'empty' | 'thinking only';
}

/** The turn was cancelled (Esc, a parent's abort): thrown out of the step, caught by the turn. */
export class TurnCancelled extends Error {}

export class ModelStep {
  constructor(
    private readonly deps: AgentDeps,
    private readonly agent: Agent,
    private readonly extensions: TurnExtensions,
    private readonly emit: (event: EngineEventBody) => void,
  ) {}

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

  async run(turnSignal: AbortSignal): Promise<StepResponse> {
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
      const idleTimeoutMs = settings.idleTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      const wait = new ModelWait({
        noticeMs: settings.waitNoticeMs ?? DEFAULT_WAIT_NOTICE_MS,
        idleTimeoutMs,
        emit: this.emit,
        afterTimeout: (failAt) =>
          attempt >= settings.maxAttemptsPerStep
            ? 'give_up'
            : budget.outlookAfterTimeout(failAt, attempt, idleTimeoutMs),
      });
      try {
        return await this.consume(client, request, stepAbort.signal, partial, wait);
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
          if (await this.extensions.recoverFromError(this.agent, err, recoveries + 1, turnSignal)) {
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
        wait.stop();
        turnSignal.removeEventListener('abort', onAbort);
      }
    }
  }

  private async consume(
    client: ModelClient,
    request: ModelRequest,
    signal: AbortSignal,
    partial: { text: string },
    wait: ModelWait,
  ): Promise<StepResponse> {
    const thinking: NonNullable<Extract<Message, { role: 'assistant' }>['thinking']> = [];
    let thinkingText = '';
    const calls: ToolCall[] = [];
    let finished: FinishReason | undefined;
    wait.start();
    for await (const part of client.stream(request, signal)) {
      wait.heard();
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
          const { model } = this.deps;
          // A cost the provider did not report is priced now, so the journal keeps the price of the day (pricing.ts).
          const { usage, problem } = await withPrice(model, part.usage);
          if (problem) this.emit({ type: 'notice', level: 'warning', text: problem });
          this.deps.session.commit({ type: 'usage', usage, model: model.model });
          this.emit({
            type: 'usage',
            usage,
            model: model.model,
            contextTokens: contextTokensAfterResponse(request, this.deps.session.state.usage, usage),
            contextLimit: contextWindow(model),
          });
          break;
        }
        case 'finish':
          finished = part.reason;
          break;
      }
    }
    wait.stop();
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
}
