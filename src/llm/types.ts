// The provider-neutral message and stream model. Every adapter maps onto these shapes, and the
// engine, the journal and the front ends only ever see these.

export type ContentPart =
  { type: 'text'; text: string } | { type: 'image'; mediaType: string; data: string /* base64 */ };

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text exactly as the model produced it; parsing happens in the engine. */
  arguments: string;
}

export interface ThinkingBlock {
  text: string;
  /** Provider signature that must travel back with the block (Anthropic). */
  signature?: string;
  /** Opaque redacted thinking payload (Anthropic). */
  redacted?: string;
}

export type Message =
  | { role: 'user'; content: ContentPart[] }
  | { role: 'assistant'; text: string; thinking?: ThinkingBlock[]; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; toolName: string; content: ContentPart[]; isError?: boolean };

export interface ToolSchema {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ThinkingParams {
  enabled: boolean;
  effort?: string;
}

export interface ModelRequestParams {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  thinking?: ThinkingParams;
  /** Stable key for provider-side prompt caching (session id). */
  promptCacheKey?: string;
}

export interface ModelRequest {
  system: string;
  messages: Message[];
  tools: ToolSchema[];
  params: ModelRequestParams;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** What the request cost in USD, when the provider reported it (src/llm/reportedCost.ts); never estimated. */
  costUsd?: number;
  /**
   * What the request cost in USD by a price table, when the provider reported no cost (src/llm/pricing.ts): the
   * model's `price` in config.toml, or the bundled price dataset. Never set beside `costUsd`.
   */
  pricedUsd?: number;
  /** Where `pricedUsd` came from. */
  priceSource?: PriceSource;
}

/** `config`: the model's `[models.<alias>] price`; `dataset`: the bundled price list (docs/print-mode.md "Cost"). */
export type PriceSource = 'config' | 'dataset';

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

export type StreamPart =
  | { type: 'text'; delta: string }
  | { type: 'thinking'; delta: string }
  /** A complete thinking block with its signature, emitted when the provider closes it. */
  | { type: 'thinking_block'; block: ThinkingBlock }
  /** A tool call announced by the stream (name known, arguments still arriving). */
  | { type: 'tool_call_start'; id: string; name: string }
  /** A complete tool call, arguments assembled from the deltas. */
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: FinishReason };

export interface ModelClient {
  readonly providerType: ProviderType;
  readonly model: string;
  /**
   * Streams one model response. Throws ProviderError for anything that went wrong on the wire.
   * The SDK's own retries are off: the caller decides whether to retry.
   */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamPart>;
}

// The model facts store shares with this layer live once, in the types layer below both.
export { CAPABILITIES, DEFAULT_BASE_URLS, PROVIDER_TYPES } from '../types/models';
export type { Capability, KimiRequestOverrides, ProviderType, ResolvedModel, TokenPrices } from '../types/models';
import type { ProviderType } from '../types/models';

export type ProviderErrorKind =
  | 'auth' // bad or missing key: fail at once
  | 'quota' // balance / quota exhausted: fail at once
  | 'rate_limit' // transient 429
  | 'overloaded'
  | 'server' // 5xx
  | 'connection' // transient: reset, timed out, DNS try-again
  | 'unreachable' // refused, unknown host, bad URL or certificate: fail at once
  | 'timeout'
  | 'conflict' // 408/409
  | 'context_overflow'
  | 'bad_request'
  | 'not_found'
  | 'bad_response' // garbled or truncated stream
  | 'aborted';

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set([
  'rate_limit',
  'overloaded',
  'server',
  'connection',
  'timeout',
  'conflict',
]);

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;
  constructor(
    kind: ProviderErrorKind,
    message: string,
    opts: { status?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = opts.status;
    this.retryAfterMs = opts.retryAfterMs;
  }
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}
