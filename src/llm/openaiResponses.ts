// OpenAI Responses API adapter (always streaming). Function calls arrive as output items whose
// arguments stream as deltas; reasoning arrives as summary text, which we surface as thinking.

import type OpenAI from 'openai';
import { costInHeaders, withReportedCost } from './reportedCost';
import type { ResponseCreateParamsStreaming, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { buildSdkClient, type AdapterSettings } from './createModelClient';
import { httpProviderError, StreamWatch, truncatedStreamError, type ErrorContext } from './providerErrors';
import { ToolCallIdAllocator } from './toolCallIds';
import type {
  ContentPart,
  FinishReason,
  Message,
  ModelClient,
  ModelRequest,
  ProviderType,
  ResolvedModel,
  StreamPart,
  Usage,
} from './types';

type OpenAIModule = typeof import('openai');
type WireItem = Record<string, unknown>;

function inputParts(parts: readonly ContentPart[]): WireItem[] {
  return parts.map((p) =>
    p.type === 'text'
      ? { type: 'input_text', text: p.text }
      : { type: 'input_image', image_url: `data:${p.mediaType};base64,${p.data}`, detail: 'auto' },
  );
}

export function toResponsesInput(messages: readonly Message[]): WireItem[] {
  const out: WireItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: inputParts(message.content) });
        break;
      case 'assistant':
        // Reasoning is not sent back: without stored responses it would need the encrypted payload.
        if (message.text) out.push({ role: 'assistant', content: message.text });
        for (const call of message.toolCalls ?? []) {
          out.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
        }
        break;
      case 'tool': {
        const hasImage = message.content.some((p) => p.type === 'image');
        const output = hasImage
          ? inputParts(message.content)
          : message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
        out.push({ type: 'function_call_output', call_id: message.toolCallId, output });
        break;
      }
    }
  }
  return out;
}

function mapUsage(raw: Record<string, unknown>): Usage {
  const details = (raw.input_tokens_details ?? {}) as Record<string, unknown>;
  const usage: Usage = { inputTokens: Number(raw.input_tokens ?? 0), outputTokens: Number(raw.output_tokens ?? 0) };
  if (typeof details.cached_tokens === 'number') usage.cacheReadTokens = details.cached_tokens;
  return usage;
}

interface CallSlot {
  itemId?: string;
  outputIndex?: number;
  id: string;
  name: string;
  args: string;
}

export class OpenAIResponsesClient implements ModelClient {
  readonly providerType: ProviderType = 'openai_responses';
  readonly model: string;
  private readonly client: OpenAI;
  private readonly ctx: ErrorContext;

  constructor(
    private readonly resolved: ResolvedModel,
    sdk: OpenAIModule,
    private readonly settings: AdapterSettings,
  ) {
    this.model = resolved.model;
    const { client, baseURL } = buildSdkClient(sdk.OpenAI, resolved, settings);
    this.client = client;
    this.ctx = {
      providerName: resolved.providerName,
      providerType: 'openai_responses',
      model: resolved.model,
      baseUrl: baseURL,
      keySource: resolved.apiKeySource,
      errors: sdk,
      timeoutMs: settings.timeoutMs,
    };
  }

  buildBody(request: ModelRequest): Record<string, unknown> {
    const { params } = request;
    const caps = this.resolved.capabilities;
    const thinkingOn =
      (caps.includes('thinking') && (params.thinking?.enabled ?? false)) || caps.includes('always_thinking');
    const body: Record<string, unknown> = {
      model: this.resolved.model,
      input: toResponsesInput(request.messages),
      stream: true,
      store: false,
    };
    if (request.system) body.instructions = request.system;
    if (request.tools.length > 0) {
      body.tools = request.tools.map((t) => ({
        type: 'function',
        name: t.name,
        description: t.description,
        parameters: t.parameters,
        strict: false,
      }));
    }
    if (params.maxOutputTokens !== undefined) body.max_output_tokens = params.maxOutputTokens;
    if (params.temperature !== undefined) body.temperature = params.temperature;
    if (params.topP !== undefined) body.top_p = params.topP;
    if (thinkingOn) {
      const effort = params.thinking?.effort ?? this.resolved.defaultEffort;
      body.reasoning = { ...(effort ? { effort } : {}), summary: 'auto' };
    }
    if (params.promptCacheKey) body.prompt_cache_key = params.promptCacheKey;
    return body;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamPart> {
    const watch = new StreamWatch(signal, this.settings.idleTimeoutMs, this.ctx);
    const allocator = new ToolCallIdAllocator();
    const calls: CallSlot[] = [];
    const findCall = (itemId: unknown, outputIndex: unknown) =>
      calls.find(
        (c) => (itemId !== undefined && c.itemId === itemId) || (itemId === undefined && c.outputIndex === outputIndex),
      );
    let finish: FinishReason | undefined;
    let usage: Usage | undefined;
    try {
      const body = this.buildBody(request) as unknown as ResponseCreateParamsStreaming;
      const { data: stream, response } = await this.client.responses
        .create(body, { signal: watch.signal })
        .withResponse();
      const headerCost = costInHeaders(response.headers);
      const usageOf = (u: unknown) =>
        withReportedCost(mapUsage(u as Record<string, unknown>), u as Record<string, unknown>, headerCost);
      for await (const event of watch.watch<ResponseStreamEvent>(stream)) {
        switch (event.type) {
          case 'response.output_text.delta':
            if (event.delta) yield { type: 'text', delta: event.delta };
            break;
          case 'response.reasoning_summary_text.delta':
          case 'response.reasoning_text.delta':
            if (event.delta) yield { type: 'thinking', delta: event.delta };
            break;
          case 'response.output_item.added':
            if (event.item.type === 'function_call') {
              const id = allocator.allocate(event.item.call_id);
              calls.push({
                itemId: event.item.id,
                outputIndex: event.output_index,
                id,
                name: event.item.name,
                args: event.item.arguments ?? '',
              });
              yield { type: 'tool_call_start', id, name: event.item.name };
            }
            break;
          case 'response.function_call_arguments.delta': {
            const call = findCall(event.item_id, event.output_index);
            if (call) call.args += event.delta;
            break;
          }
          case 'response.function_call_arguments.done': {
            const call = findCall(event.item_id, event.output_index);
            if (call && typeof event.arguments === 'string') call.args = event.arguments;
            break;
          }
          case 'response.output_item.done':
            if (event.item.type === 'function_call') {
              const call = findCall(event.item.id, event.output_index);
              if (call && event.item.arguments) call.args = event.item.arguments;
            }
            break;
          case 'response.completed':
            finish = calls.length > 0 ? 'tool_calls' : 'stop';
            if (event.response.usage) usage = usageOf(event.response.usage);
            break;
          case 'response.incomplete': {
            const reason = event.response.incomplete_details?.reason;
            finish =
              reason === 'max_output_tokens' ? 'length' : reason === 'content_filter' ? 'content_filter' : 'other';
            if (event.response.usage) usage = usageOf(event.response.usage);
            break;
          }
          case 'response.failed':
            throw httpProviderError(
              undefined,
              { error: event.response.error ?? { message: 'the response failed' } },
              null,
              this.ctx,
            );
          case 'error':
            throw httpProviderError(undefined, { error: { message: event.message, code: event.code } }, null, this.ctx);
          default:
            break;
        }
      }
      const stopped = watch.stopError();
      if (stopped) throw stopped;
      if (!finish)
        throw truncatedStreamError(this.ctx, 'the response completed (no response.completed event was sent)');
    } catch (err) {
      throw watch.toError(err);
    } finally {
      watch.dispose();
    }
    for (const call of calls) yield { type: 'tool_call', call: { id: call.id, name: call.name, arguments: call.args } };
    if (usage) yield { type: 'usage', usage };
    yield { type: 'finish', reason: finish };
  }
}
