// Chat Completions adapter, for OpenAI itself and OpenAI-compatible servers (Moonshot/Kimi, DeepSeek,
// OpenRouter, vLLM, llama.cpp…). Those servers add a reasoning field to the deltas under one of a few
// names and want it echoed back on later assistant turns, so both directions handle it.

import type OpenAI from 'openai';
import { costInHeaders, withReportedCost } from './reportedCost';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { buildSdkClient, type AdapterSettings } from './createModelClient';
import { StreamWatch, truncatedStreamError, type ErrorContext } from './providerErrors';
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
type WireMessage = Record<string, unknown>;

/** Delta fields that carry reasoning text, in the order we look for them. */
const REASONING_KEYS = ['reasoning_content', 'reasoning', 'reasoning_details'] as const;

function dataUrl(part: Extract<ContentPart, { type: 'image' }>): string {
  return `data:${part.mediaType};base64,${part.data}`;
}

function wireContent(parts: readonly ContentPart[]): string | Record<string, unknown>[] {
  if (parts.every((p) => p.type === 'text')) return parts.map((p) => (p as { text: string }).text).join('\n');
  return parts.map((p) =>
    p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: dataUrl(p) } },
  );
}

/** Reads reasoning text from one delta: the configured key, or the first known key present. */
export function reasoningFromDelta(delta: Record<string, unknown>, reasoningKey?: string): string {
  for (const key of reasoningKey ? [reasoningKey] : REASONING_KEYS) {
    const value = delta[key];
    if (typeof value === 'string' && value) return value;
    if (Array.isArray(value) && value.length > 0) {
      // OpenRouter style: [{type: 'reasoning.text', text} | {type: 'reasoning.summary', summary}]
      return value
        .map((item: unknown) => {
          const rec = (item ?? {}) as Record<string, unknown>;
          return typeof rec.text === 'string' ? rec.text : typeof rec.summary === 'string' ? rec.summary : '';
        })
        .join('');
    }
  }
  return '';
}

export function toChatMessages(
  system: string,
  messages: readonly Message[],
  reasoningKey = 'reasoning_content',
): WireMessage[] {
  const out: WireMessage[] = [];
  if (system) out.push({ role: 'system', content: system });
  // Tool messages may only hold text and must directly follow their assistant turn, so images a tool
  // returned are gathered and sent in one user message after the run of tool results.
  let pendingImages: Record<string, unknown>[] = [];
  const flushImages = () => {
    if (pendingImages.length === 0) return;
    out.push({
      role: 'user',
      content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, ...pendingImages],
    });
    pendingImages = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flushImages();
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: wireContent(message.content) });
        break;
      case 'assistant': {
        const wire: WireMessage = {
          role: 'assistant',
          content: message.text || (message.toolCalls?.length ? null : ''),
        };
        const reasoning = (message.thinking ?? []).map((b) => b.text).join('');
        if (reasoning)
          wire[reasoningKey] =
            reasoningKey === 'reasoning_details' ? [{ type: 'reasoning.text', text: reasoning }] : reasoning;
        if (message.toolCalls?.length) {
          wire.tool_calls = message.toolCalls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.arguments },
          }));
        }
        out.push(wire);
        break;
      }
      case 'tool': {
        const text = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
        out.push({ role: 'tool', tool_call_id: message.toolCallId, content: text });
        for (const part of message.content) {
          if (part.type === 'image') pendingImages.push({ type: 'image_url', image_url: { url: dataUrl(part) } });
        }
        break;
      }
    }
  }
  flushImages();
  return out;
}

export function mapChatFinishReason(reason: string | null | undefined, sawToolCalls: boolean): FinishReason {
  if (sawToolCalls && (reason === 'stop' || reason === 'tool_calls' || reason === 'function_call')) return 'tool_calls';
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

function mapUsage(raw: Record<string, unknown>): Usage {
  const details = (raw.prompt_tokens_details ?? {}) as Record<string, unknown>;
  const cached = [details.cached_tokens, raw.cached_tokens, raw.prompt_cache_hit_tokens].find(
    (v) => typeof v === 'number',
  ) as number | undefined;
  const usage: Usage = {
    inputTokens: Number(raw.prompt_tokens ?? 0),
    outputTokens: Number(raw.completion_tokens ?? 0),
  };
  if (cached !== undefined) usage.cacheReadTokens = cached;
  return usage;
}

interface CallSlot {
  rawId?: string;
  id?: string;
  name: string;
  args: string;
}

export class OpenAIChatClient implements ModelClient {
  readonly providerType: ProviderType;
  readonly model: string;
  private readonly client: OpenAI;
  private readonly ctx: ErrorContext;

  constructor(
    private readonly resolved: ResolvedModel,
    sdk: OpenAIModule,
    private readonly settings: AdapterSettings,
  ) {
    this.providerType = resolved.providerType;
    this.model = resolved.model;
    const { client, baseURL } = buildSdkClient(sdk.OpenAI, resolved, settings);
    this.client = client;
    this.ctx = {
      providerName: resolved.providerName,
      providerType: resolved.providerType,
      model: resolved.model,
      baseUrl: baseURL,
      keySource: resolved.apiKeySource,
      errors: sdk,
      timeoutMs: settings.timeoutMs,
    };
  }

  private get isKimi(): boolean {
    return this.resolved.providerType === 'kimi';
  }

  private get reasoningKey(): string | undefined {
    return this.resolved.reasoningKey ?? (this.isKimi ? 'reasoning_content' : undefined);
  }

  buildBody(request: ModelRequest): Record<string, unknown> {
    const { params } = request;
    const caps = this.resolved.capabilities;
    const canThink = caps.includes('thinking') || caps.includes('always_thinking');
    const thinkingOn = canThink && ((params.thinking?.enabled ?? false) || caps.includes('always_thinking'));
    const body: Record<string, unknown> = {
      model: this.resolved.model,
      messages: toChatMessages(request.system, request.messages, this.reasoningKey),
      stream: true,
      stream_options: { include_usage: true },
    };
    if (request.tools.length > 0) {
      body.tools = request.tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
    }
    let maxTokens = params.maxOutputTokens;
    let temperature = params.temperature;
    let topP = params.topP;
    const effort = thinkingOn ? (params.thinking?.effort ?? this.resolved.defaultEffort) : undefined;
    if (this.isKimi) {
      // Resolved from JARVIS_MODEL_* when the model was (store/modelResolution.ts).
      const knobs = this.resolved.kimi ?? {};
      const cap = knobs.maxCompletionTokens;
      if (cap !== undefined) maxTokens = Math.min(maxTokens ?? cap, cap);
      temperature = knobs.temperature ?? temperature;
      topP = knobs.topP ?? topP;
      if (canThink && params.thinking) body.thinking = { type: thinkingOn ? 'enabled' : 'disabled' };
    }
    if (maxTokens !== undefined) {
      // OpenAI itself deprecated max_tokens (reasoning models reject it); compatible servers still expect it.
      const official = !this.resolved.baseUrl || /(^|\/\/)api\.openai\.com/.test(this.resolved.baseUrl);
      body[official && !this.isKimi ? 'max_completion_tokens' : 'max_tokens'] = maxTokens;
    }
    if (temperature !== undefined) body.temperature = temperature;
    if (topP !== undefined) body.top_p = topP;
    if (effort) body.reasoning_effort = effort;
    if (params.promptCacheKey) body.prompt_cache_key = params.promptCacheKey;
    return body;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamPart> {
    const watch = new StreamWatch(signal, this.settings.idleTimeoutMs, this.ctx);
    const allocator = new ToolCallIdAllocator();
    const slots: CallSlot[] = [];
    const slotByIndex = new Map<number, CallSlot>();
    let finishReason: string | null | undefined;
    let usage: Usage | undefined;
    try {
      const body = this.buildBody(request) as unknown as ChatCompletionCreateParamsStreaming;
      const { data: stream, response } = await this.client.chat.completions
        .create(body, { signal: watch.signal })
        .withResponse();
      const headerCost = costInHeaders(response.headers);
      for await (const chunk of watch.watch<ChatCompletionChunk>(stream)) {
        if (chunk.usage) {
          const raw = chunk.usage as unknown as Record<string, unknown>;
          usage = withReportedCost(mapUsage(raw), raw, headerCost);
        }
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & Record<string, unknown>;
        const thinking = reasoningFromDelta(delta, this.reasoningKey);
        if (thinking) yield { type: 'thinking', delta: thinking };
        if (typeof delta.content === 'string' && delta.content) yield { type: 'text', delta: delta.content };
        for (const [position, tc] of (delta.tool_calls ?? []).entries()) {
          const index = typeof tc.index === 'number' ? tc.index : position;
          let slot = slotByIndex.get(index);
          // Some servers reuse index 0 for every parallel call; a new id there means a new call.
          if (!slot || (tc.id && slot.rawId && tc.id !== slot.rawId && slot.name)) {
            slot = { name: '', args: '' };
            slots.push(slot);
            slotByIndex.set(index, slot);
          }
          if (tc.id && !slot.rawId) slot.rawId = tc.id;
          if (tc.function?.name && !slot.name) slot.name = tc.function.name;
          if (tc.function?.arguments) slot.args += tc.function.arguments;
          if (slot.id === undefined && slot.name) {
            slot.id = allocator.allocate(slot.rawId);
            yield { type: 'tool_call_start', id: slot.id, name: slot.name };
          }
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
      const stopped = watch.stopError();
      if (stopped) throw stopped;
      if (!finishReason) throw truncatedStreamError(this.ctx, 'the model finished (no finish_reason was sent)');
    } catch (err) {
      throw watch.toError(err);
    } finally {
      watch.dispose();
    }
    for (const slot of slots) {
      if (slot.id === undefined) {
        slot.id = allocator.allocate(slot.rawId);
        yield { type: 'tool_call_start', id: slot.id, name: slot.name };
      }
      yield { type: 'tool_call', call: { id: slot.id, name: slot.name, arguments: slot.args } };
    }
    if (usage) yield { type: 'usage', usage };
    yield { type: 'finish', reason: mapChatFinishReason(finishReason, slots.length > 0) };
  }
}
