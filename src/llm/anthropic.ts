// Anthropic Messages adapter. Thinking blocks carry a signature that must travel back verbatim on later
// turns; tool results go back as tool_result blocks inside user messages; the system prompt and the
// newest user turn are marked for prompt caching so each step re-reads the conversation from cache.

import type Anthropic from '@anthropic-ai/sdk';
import type { Stream } from '@anthropic-ai/sdk/core/streaming';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import { baseUrlOf, buildSdkClient, type AdapterSettings } from './createModelClient';
import { StreamWatch, truncatedStreamError, type ErrorContext } from './providerErrors';
import { ToolCallIdAllocator } from './toolCallIds';
import type {
  ContentPart,
  FinishReason,
  Message,
  ModelClient,
  ModelRequest,
  ResolvedModel,
  StreamPart,
  Usage,
} from './types';

type AnthropicModule = typeof import('@anthropic-ai/sdk');
type Block = Record<string, unknown>;
interface WireMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

/** Output ceiling for a model we do not recognise (the spec's fallback). */
export const UNKNOWN_MODEL_MAX_OUTPUT = 128_000;
const MIN_THINKING_BUDGET = 1_024;
const EFFORT_BUDGETS: Record<string, number> = {
  minimal: 1_024,
  low: 4_096,
  medium: 10_000,
  high: 24_000,
  xhigh: 32_000,
  max: 48_000,
};
const DEFAULT_THINKING_BUDGET = 16_000;
const EPHEMERAL = { type: 'ephemeral' } as const;

/** Family and version from ids like `claude-sonnet-4-5-20250929`, `claude-opus-4-1`, `claude-3-7-sonnet-latest`. */
function claudeVersion(model: string): { family: string; major: number; minor: number } | undefined {
  const id = model.toLowerCase();
  const modern = /claude-(opus|sonnet|haiku|[a-z]+)-(\d+)(?:[-.](\d{1,2}))?(?!\d)/.exec(id);
  if (modern) return { family: modern[1], major: Number(modern[2]), minor: Number(modern[3] ?? 0) };
  const legacy = /claude-(\d+)(?:[-.](\d))?-(opus|sonnet|haiku)/.exec(id);
  if (legacy) return { family: legacy[3], major: Number(legacy[1]), minor: Number(legacy[2] ?? 0) };
  return undefined;
}

/** The largest max_tokens a Claude model accepts, inferred from its id. */
export function inferAnthropicMaxOutput(model: string): number {
  const v = claudeVersion(model);
  if (!v) return UNKNOWN_MODEL_MAX_OUTPUT;
  if (v.major < 3) return 4_096;
  if (v.major === 3) return v.minor >= 7 ? 64_000 : v.minor >= 5 ? 8_192 : 4_096;
  if (v.major === 4 && v.family === 'opus' && v.minor < 5) return 32_000;
  return 64_000;
}

/** Adaptive thinking (the model decides how much to think) is the default from Claude 4.6 on. */
export function inferAdaptiveThinking(model: string): boolean {
  const v = claudeVersion(model);
  return !!v && (v.major > 4 || (v.major === 4 && v.minor >= 6));
}

function contentBlocks(parts: readonly ContentPart[]): Block[] {
  const blocks: Block[] = [];
  for (const p of parts) {
    if (p.type === 'text') {
      if (p.text) blocks.push({ type: 'text', text: p.text });
    } else {
      blocks.push({ type: 'image', source: { type: 'base64', media_type: p.mediaType, data: p.data } });
    }
  }
  return blocks;
}

function parseToolInput(args: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(args || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Maps the neutral messages onto Messages API turns: tool results (and a user turn after them) merge
 * into one user message, thinking without a signature (from another provider) is dropped because the
 * API would reject it, and the last block of the final user turn gets a cache breakpoint.
 */
export function toAnthropicMessages(messages: readonly Message[]): WireMessage[] {
  const out: WireMessage[] = [];
  const push = (role: WireMessage['role'], blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        push('user', contentBlocks(message.content));
        break;
      case 'assistant': {
        const blocks: Block[] = [];
        for (const block of message.thinking ?? []) {
          if (block.redacted) blocks.push({ type: 'redacted_thinking', data: block.redacted });
          else if (block.signature) blocks.push({ type: 'thinking', thinking: block.text, signature: block.signature });
        }
        if (message.text) blocks.push({ type: 'text', text: message.text });
        for (const call of message.toolCalls ?? []) {
          blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseToolInput(call.arguments) });
        }
        push('assistant', blocks);
        break;
      }
      case 'tool': {
        const content = contentBlocks(message.content);
        const block: Block = { type: 'tool_result', tool_use_id: message.toolCallId };
        if (content.length > 0) block.content = content;
        if (message.isError) block.is_error = true;
        push('user', [block]);
        break;
      }
    }
  }
  const last = out[out.length - 1];
  if (last?.role === 'user') {
    const block = last.content[last.content.length - 1];
    last.content[last.content.length - 1] = { ...block, cache_control: EPHEMERAL };
  }
  return out;
}

export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}

interface OpenBlock {
  type: string;
  text: string;
  signature: string;
  redacted?: string;
  id?: string;
  name?: string;
  json: string;
}

/**
 * The Messages API lives at `<base>/v1/messages`; a base URL given with its `/v1` (as the OpenAI ones are,
 * `https://api.anthropic.com/v1`) loses it, so the path is never `/v1/v1/messages`.
 */
export function anthropicBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

export class AnthropicClient implements ModelClient {
  readonly providerType = 'anthropic' as const;
  readonly model: string;
  private readonly client: Anthropic;
  private readonly ctx: ErrorContext;

  constructor(
    private readonly resolved: ResolvedModel,
    sdk: AnthropicModule,
    private readonly settings: AdapterSettings,
  ) {
    this.model = resolved.model;
    const base = anthropicBaseUrl(baseUrlOf(resolved));
    const { client, baseURL } = buildSdkClient(sdk.Anthropic, { ...resolved, baseUrl: base }, settings);
    this.client = client;
    this.ctx = {
      providerName: resolved.providerName,
      providerType: 'anthropic',
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
    const maxTokens =
      params.maxOutputTokens ?? this.resolved.maxOutputSize ?? inferAnthropicMaxOutput(this.resolved.model);
    const body: Record<string, unknown> = {
      model: this.resolved.model,
      max_tokens: maxTokens,
      messages: toAnthropicMessages(request.messages),
      stream: true,
    };
    if (request.system) body.system = [{ type: 'text', text: request.system, cache_control: EPHEMERAL }];
    if (request.tools.length > 0) {
      body.tools = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
    }
    const thinkingOn =
      (caps.includes('thinking') && (params.thinking?.enabled ?? false)) || caps.includes('always_thinking');
    const effort = params.thinking?.effort ?? this.resolved.defaultEffort;
    let thinking = false;
    if (thinkingOn && (this.resolved.adaptiveThinking ?? inferAdaptiveThinking(this.resolved.model))) {
      body.thinking = { type: 'adaptive' };
      if (effort) body.output_config = { effort };
      thinking = true;
    } else if (thinkingOn && maxTokens > MIN_THINKING_BUDGET) {
      // The budget counts towards max_tokens and must stay below it.
      const wanted = (effort && EFFORT_BUDGETS[effort]) || DEFAULT_THINKING_BUDGET;
      body.thinking = {
        type: 'enabled',
        budget_tokens: Math.max(MIN_THINKING_BUDGET, Math.min(wanted, maxTokens - 1)),
      };
      thinking = true;
    }
    // Sampling overrides are not allowed together with thinking.
    if (!thinking && params.temperature !== undefined) body.temperature = params.temperature;
    if (!thinking && params.topP !== undefined) body.top_p = params.topP;
    return body;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamPart> {
    const watch = new StreamWatch(signal, this.settings.idleTimeoutMs, this.ctx);
    const allocator = new ToolCallIdAllocator();
    const open = new Map<number, OpenBlock>();
    const calls: { id: string; name: string; args: string }[] = [];
    const usage: Usage = { inputTokens: 0, outputTokens: 0 };
    let cacheRead = 0;
    let cacheWrite = 0;
    let sawUsage = false;
    let stopReason: string | null | undefined;
    let stopped = false;
    try {
      const body = this.buildBody(request);
      // Posted through the client rather than messages.create(): create() prints model-deprecation
      // advice with console.warn on every call, which would scribble over the terminal UI.
      const stream = await this.client.post<Stream<RawMessageStreamEvent>>('/v1/messages', {
        body,
        stream: true,
        signal: watch.signal,
      });
      for await (const event of watch.watch<RawMessageStreamEvent>(stream)) {
        switch (event.type) {
          case 'message_start': {
            const u = event.message.usage;
            usage.inputTokens = u.input_tokens ?? 0;
            usage.outputTokens = u.output_tokens ?? 0;
            cacheRead = u.cache_read_input_tokens ?? 0;
            cacheWrite = u.cache_creation_input_tokens ?? 0;
            sawUsage = true;
            break;
          }
          case 'content_block_start': {
            const cb = event.content_block as unknown as Record<string, unknown>;
            const block: OpenBlock = { type: String(cb.type), text: '', signature: '', json: '' };
            open.set(event.index, block);
            if (cb.type === 'text' && typeof cb.text === 'string' && cb.text) {
              yield { type: 'text', delta: cb.text };
            } else if (cb.type === 'thinking') {
              block.text = typeof cb.thinking === 'string' ? cb.thinking : '';
              block.signature = typeof cb.signature === 'string' ? cb.signature : '';
              if (block.text) yield { type: 'thinking', delta: block.text };
            } else if (cb.type === 'redacted_thinking') {
              block.redacted = typeof cb.data === 'string' ? cb.data : '';
            } else if (cb.type === 'tool_use') {
              block.id = allocator.allocate(typeof cb.id === 'string' ? cb.id : undefined);
              block.name = typeof cb.name === 'string' ? cb.name : '';
              yield { type: 'tool_call_start', id: block.id, name: block.name };
            }
            break;
          }
          case 'content_block_delta': {
            const block = open.get(event.index);
            const delta = event.delta as unknown as Record<string, unknown>;
            if (delta.type === 'text_delta' && typeof delta.text === 'string') {
              if (delta.text) yield { type: 'text', delta: delta.text };
            } else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') {
              if (block) block.text += delta.thinking;
              if (delta.thinking) yield { type: 'thinking', delta: delta.thinking };
            } else if (delta.type === 'signature_delta' && typeof delta.signature === 'string') {
              if (block) block.signature += delta.signature;
            } else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
              if (block) block.json += delta.partial_json;
            }
            break;
          }
          case 'content_block_stop': {
            const block = open.get(event.index);
            open.delete(event.index);
            if (block?.type === 'thinking') {
              yield {
                type: 'thinking_block',
                block: { text: block.text, ...(block.signature ? { signature: block.signature } : {}) },
              };
            } else if (block?.type === 'redacted_thinking') {
              yield { type: 'thinking_block', block: { text: '', redacted: block.redacted ?? '' } };
            } else if (block?.type === 'tool_use' && block.id !== undefined) {
              calls.push({ id: block.id, name: block.name ?? '', args: block.json || '{}' });
            }
            break;
          }
          case 'message_delta': {
            stopReason = event.delta.stop_reason ?? stopReason;
            const u = event.usage as unknown as Record<string, unknown>;
            if (typeof u?.output_tokens === 'number') usage.outputTokens = u.output_tokens;
            if (typeof u?.input_tokens === 'number') usage.inputTokens = u.input_tokens;
            if (typeof u?.cache_read_input_tokens === 'number') cacheRead = u.cache_read_input_tokens;
            if (typeof u?.cache_creation_input_tokens === 'number') cacheWrite = u.cache_creation_input_tokens;
            break;
          }
          case 'message_stop':
            stopped = true;
            break;
          default:
            break;
        }
      }
      const interrupted = watch.stopError();
      if (interrupted) throw interrupted;
      if (!stopped) throw truncatedStreamError(this.ctx, 'the message finished (no message_stop event was sent)');
    } catch (err) {
      throw watch.toError(err);
    } finally {
      watch.dispose();
    }
    for (const call of calls) yield { type: 'tool_call', call: { id: call.id, name: call.name, arguments: call.args } };
    if (sawUsage) {
      // Anthropic counts cached input separately; the neutral inputTokens is the whole prompt.
      yield {
        type: 'usage',
        usage: {
          ...usage,
          inputTokens: usage.inputTokens + cacheRead + cacheWrite,
          cacheReadTokens: cacheRead,
          cacheWriteTokens: cacheWrite,
        },
      };
    }
    yield { type: 'finish', reason: mapAnthropicStopReason(stopReason) };
  }
}
