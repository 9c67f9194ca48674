// Maps whatever the provider SDKs throw (HTTP status errors, connection failures, time-outs, aborts,
// a garbled or cut-off SSE stream) onto ProviderError, with a message that names the provider and says
// what to do. The SDK error classes are passed in rather than imported, so this module stays light on
// the start path.

import { ProviderError, type ProviderErrorKind, type ProviderType } from './types';
import { ENV_MODEL_ALIAS } from '../types/models';

/** The error classes both official SDKs export under the same names. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

export interface ErrorContext {
  providerName: string;
  providerType: ProviderType;
  model: string;
  baseUrl?: string;
  /** Where the API key came from (ResolvedModel.apiKeySource), named in an auth error. */
  keySource?: string;
  errors?: SdkErrorClasses;
  /** How long the request waits for a first byte ([loop_control] idle_timeout_s), named in a time-out. */
  timeoutMs?: number;
}

type HeaderSource = { get(name: string): string | null } | Record<string, string | undefined> | undefined | null;

const QUOTA_RE = /quota|balance|insufficient|billing|credit|payment/i;
const CONTEXT_RE =
  /context[ _-]?(length|window)|too many tokens|prompt is too long|input is too long|maximum context|max(imum)?[ _-]?tokens? exceeded|token limit|exceeds? the (model|maximum)|reduce the length/i;
const OVERLOADED_RE = /overloaded/i;

function who(ctx: ErrorContext): string {
  // The JARVIS_MODEL_* channel has no provider name of its own: say where it was set, not the internal alias.
  if (ctx.providerName === ENV_MODEL_ALIAS) return `the ${ctx.providerType} provider of the JARVIS_MODEL_* variables`;
  return `provider "${ctx.providerName}" (${ctx.providerType})`;
}

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : record[key];
}

/** Retry-After in milliseconds from `retry-after-ms`, or `retry-after` as seconds or an HTTP date. */
export function parseRetryAfterMs(headers: HeaderSource, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const after = header(headers, 'retry-after')?.trim();
  if (!after) return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Math.round(Number(after) * 1000);
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The server's own explanation, from the usual `{error: {message}}` / `{message}` body shapes. */
function serverMessage(body: unknown, fallback: string): string {
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 500);
  if (body && typeof body === 'object') {
    const obj = body as Record<string, unknown>;
    const inner = obj.error && typeof obj.error === 'object' ? (obj.error as Record<string, unknown>) : obj;
    if (typeof inner.message === 'string' && inner.message.trim()) return inner.message.trim().slice(0, 500);
    if (typeof obj.error === 'string' && obj.error.trim()) return obj.error.trim().slice(0, 500);
  }
  return fallback;
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  try {
    return JSON.stringify(body);
  } catch {
    return String(body);
  }
}

/** Builds the ProviderError for an HTTP error response (or an error event inside the stream: status undefined). */
export function httpProviderError(
  status: number | undefined,
  body: unknown,
  headers: HeaderSource,
  ctx: ErrorContext,
  cause?: unknown,
): ProviderError {
  const text = bodyText(body);
  const said = serverMessage(body, status ? `HTTP ${status}` : 'no details');
  const http = status ? ` (HTTP ${status})` : '';
  const make = (kind: ProviderErrorKind, message: string, retryAfterMs?: number) =>
    new ProviderError(kind, message, { status, retryAfterMs, cause });
  const retryAfterMs = parseRetryAfterMs(headers);

  if (
    status === 401 ||
    status === 403 ||
    (!status && /authentication_error|permission_error|invalid[_ ]api[_ ]key/i.test(text))
  ) {
    return make(
      'auth',
      ctx.keySource
        ? `Authentication failed for ${who(ctx)}${http}: ${said}. The API key came from ${ctx.keySource}: check or replace it there.`
        : `Authentication failed for ${who(ctx)}${http}: ${said}. Check the API key: set api_key under ` +
            `[providers.${ctx.providerName}] in config.toml, or JARVIS_MODEL_API_KEY when using the JARVIS_MODEL_* variables.`,
    );
  }
  if (status === 402 || (status === 429 && QUOTA_RE.test(text))) {
    return make(
      'quota',
      `The account's quota or balance is exhausted at ${who(ctx)}${http}: ${said}. Top up or raise the limit with the provider, or switch to another model (/model).`,
    );
  }
  if (status === 429 || (!status && /rate[_ ]limit/i.test(text))) {
    return make(
      'rate_limit',
      `Rate limited by ${who(ctx)}${http}: ${said}. Retrying after a pause usually helps.`,
      retryAfterMs,
    );
  }
  if (status === 529 || OVERLOADED_RE.test(text)) {
    return make('overloaded', `${who(ctx)} is overloaded${http}: ${said}. Try again shortly.`, retryAfterMs);
  }
  if (status === 408 || status === 409) {
    return make('conflict', `${who(ctx)} asked us to retry${http}: ${said}.`, retryAfterMs);
  }
  if (status === 413 || ((status === undefined || (status >= 400 && status < 500)) && CONTEXT_RE.test(text))) {
    return make(
      'context_overflow',
      `The request is too large for model "${ctx.model}" at ${who(ctx)}${http}: ${said}. Compact the conversation (/compact) or start a new session.`,
    );
  }
  if (status === 404) {
    return make(
      'not_found',
      `Model "${ctx.model}" was not found at ${who(ctx)}${ctx.baseUrl ? ` (${ctx.baseUrl})` : ''}${http}: ${said}. ` +
        `Check the model name and base_url in config.toml (or JARVIS_MODEL_NAME / JARVIS_MODEL_BASE_URL).`,
    );
  }
  if (status !== undefined && status >= 500) {
    return make('server', `${who(ctx)} had a server error${http}: ${said}.`, retryAfterMs);
  }
  if (status !== undefined && status >= 400) {
    return make('bad_request', `${who(ctx)} rejected the request${http}: ${said}.`);
  }
  // An error event inside an otherwise healthy stream, with nothing more specific to go on.
  return make('server', `${who(ctx)} reported an error mid-stream: ${said}.`, retryAfterMs);
}

export function malformedStreamError(ctx: ErrorContext, detail: string, cause?: unknown): ProviderError {
  return new ProviderError(
    'bad_response',
    `The provider sent a malformed stream: ${detail} (${who(ctx)}, model "${ctx.model}").`,
    { cause },
  );
}

export function truncatedStreamError(ctx: ErrorContext, missing: string): ProviderError {
  return new ProviderError(
    'bad_response',
    `The provider sent a malformed stream: it ended before ${missing} (${who(ctx)}, model "${ctx.model}"). The response is incomplete.`,
  );
}

export function abortedError(ctx: ErrorContext, cause?: unknown): ProviderError {
  return new ProviderError('aborted', `The request to ${who(ctx)} was cancelled.`, { cause });
}

function isInstance(err: unknown, cls: (abstract new (...args: never[]) => Error) | undefined, name: string): boolean {
  if (cls && err instanceof cls) return true;
  // Fallback for a second copy of an SDK: match the class name along the prototype chain.
  for (let p = err ? Object.getPrototypeOf(err) : null; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    if ((p.constructor as { name?: string } | undefined)?.name === name) return true;
  }
  return false;
}

/**
 * Connection failures that another attempt a few seconds later will not fix: nothing listens on the
 * port, the host name does not exist, the URL or its TLS certificate is wrong. These fail at once.
 * Resets, time-outs and DNS "try again" stay transient and are retried within the budget.
 */
const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_FAIL',
  'EAI_NONAME',
  'ERR_INVALID_URL',
  'ERR_SOCKET_BAD_PORT',
  'EADDRNOTAVAIL',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** Every `code` along an error's cause chain (the SDKs wrap fetch's TypeError, which wraps the socket's). */
function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    // AggregateError (happy eyeballs tried several addresses) keeps the real ones in `errors`.
    for (const inner of (e as { errors?: unknown[] }).errors ?? []) {
      const c = (inner as { code?: unknown })?.code;
      if (typeof c === 'string') codes.push(c);
    }
  }
  return codes;
}

/** Maps anything thrown while calling or streaming from a provider onto a ProviderError. */
export function toProviderError(err: unknown, ctx: ErrorContext): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = ctx.errors;
  const message = err instanceof Error ? err.message : String(err);
  if (
    isInstance(err, e?.APIUserAbortError, 'APIUserAbortError') ||
    (err instanceof Error && err.name === 'AbortError')
  ) {
    return abortedError(ctx, err);
  }
  if (errorCodes(err).includes('ERR_INVALID_URL')) {
    return new ProviderError(
      'unreachable',
      `The base URL of ${who(ctx)}${ctx.baseUrl ? ` (${ctx.baseUrl})` : ''} is not a valid URL: ${message}. Fix base_url in config.toml, or JARVIS_MODEL_BASE_URL.`,
      { cause: err },
    );
  }
  if (isInstance(err, e?.APIConnectionTimeoutError, 'APIConnectionTimeoutError')) {
    const s = ctx.timeoutMs ? Math.round(ctx.timeoutMs / 1000) : undefined;
    const waited = s === undefined ? '' : ` (nothing came for ${s} s, [loop_control] idle_timeout_s)`;
    const text =
      `The request to ${who(ctx)} timed out waiting for a response${waited}. ` +
      'The provider may be slow or unreachable.';
    return new ProviderError('timeout', text, { cause: err });
  }
  if (isInstance(err, e?.APIConnectionError, 'APIConnectionError')) {
    const cause = (err as { cause?: unknown }).cause;
    const detail =
      cause instanceof Error
        ? `${cause.message}${(cause as { cause?: Error }).cause?.message ? `: ${(cause as { cause?: Error }).cause?.message}` : ''}`
        : message;
    // undici refuses the fetch standard's "bad ports" (e.g. 9, 6000) with no error code.
    const code =
      errorCodes(err).find((c) => UNREACHABLE_CODES.has(c)) ?? (/\bbad port\b/.test(detail) ? 'bad port' : undefined);
    return new ProviderError(
      code ? 'unreachable' : 'connection',
      `Could not connect to ${who(ctx)}${ctx.baseUrl ? ` at ${ctx.baseUrl}` : ''}: ${detail}. Check the network, proxy settings and the base URL (base_url in config.toml, or JARVIS_MODEL_BASE_URL).`,
      { cause: err },
    );
  }
  if (isInstance(err, e?.APIError, 'APIError')) {
    const api = err as Error & { status?: number; error?: unknown; headers?: HeaderSource; type?: unknown };
    const body = api.error ?? (typeof api.type === 'string' ? { error: { type: api.type, message } } : message);
    return httpProviderError(api.status, body, api.headers, ctx, err);
  }
  if (err instanceof SyntaxError)
    return malformedStreamError(ctx, `could not parse an event as JSON (${message})`, err);
  return malformedStreamError(ctx, message, err);
}

/**
 * Watches one streamed response: combines the caller's abort signal with an idle time-out (no chunk for
 * `idleTimeoutMs` while we wait for one) and turns a stream that stopped because of either into the
 * right ProviderError. The SDKs end iteration quietly when their signal aborts, so the adapter asks
 * `stopError()` after the loop.
 */
export class StreamWatch {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private idled = false;
  private readonly onOuterAbort = () => this.controller.abort();

  constructor(
    private readonly outer: AbortSignal,
    private readonly idleTimeoutMs: number,
    private readonly ctx: ErrorContext,
  ) {
    this.signal = this.controller.signal;
    if (outer.aborted) this.controller.abort();
    else outer.addEventListener('abort', this.onOuterAbort, { once: true });
  }

  /** Iterates `source`, timing only the waits for the next chunk (not the time our consumer holds a chunk). */
  async *watch<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
    const it = source[Symbol.asyncIterator]();
    try {
      while (true) {
        this.arm();
        const next = await it.next().finally(() => this.disarm());
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await it.return?.();
    }
  }

  /** The error explaining why the stream stopped early, if it was stopped by abort or idleness. */
  stopError(): ProviderError | undefined {
    if (this.outer.aborted) return abortedError(this.ctx, this.outer.reason);
    if (this.idled) {
      return new ProviderError(
        'timeout',
        `${who(this.ctx)} stopped sending data for ${Math.round(this.idleTimeoutMs / 1000)} s in the middle of a response; giving up on it.`,
      );
    }
    return undefined;
  }

  /** Maps an error thrown during the request or stream, preferring abort/idle as the explanation. */
  toError(err: unknown): ProviderError {
    return this.stopError() ?? toProviderError(err, this.ctx);
  }

  dispose(): void {
    this.disarm();
    this.outer.removeEventListener('abort', this.onOuterAbort);
  }

  private arm(): void {
    this.disarm();
    if (this.idleTimeoutMs > 0) {
      this.timer = setTimeout(() => {
        this.idled = true;
        this.controller.abort();
      }, this.idleTimeoutMs);
    }
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
