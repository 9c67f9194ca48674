import * as OpenAISdk from 'openai';
import * as AnthropicSdk from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { httpProviderError, parseRetryAfterMs, toProviderError, type ErrorContext } from '../../src/llm/providerErrors';
import { generateToolCallId, normalizeToolCallIds, ToolCallIdAllocator } from '../../src/llm/toolCallIds';
import { ProviderError } from '../../src/llm/types';

const ctx: ErrorContext = {
  providerName: 'work',
  providerType: 'openai',
  model: 'gpt-x',
  baseUrl: 'http://example.test/v1',
  errors: OpenAISdk,
};

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after': '3' }, 3000],
    [{ 'retry-after': '0.5' }, 500],
    [{ 'Retry-After': '2' }, 2000],
    [{ 'retry-after-ms': '250' }, 250],
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [{ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }, 10_000],
    [{ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }, 0],
    [{ 'retry-after': 'soon' }, undefined],
    [{}, undefined],
  ])('%j → %s', (headers, expected) => {
    expect(parseRetryAfterMs(headers, now)).toBe(expected);
  });

  it('reads a fetch Headers object', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '4' }))).toBe(4000);
  });
});

describe('httpProviderError', () => {
  it.each([
    [401, undefined, 'auth'],
    [403, undefined, 'auth'],
    [402, { error: { message: 'Insufficient Balance' } }, 'quota'],
    [429, { error: { message: 'Your account balance is insufficient' } }, 'quota'],
    [429, { error: { message: 'slow down' } }, 'rate_limit'],
    [408, undefined, 'conflict'],
    [409, undefined, 'conflict'],
    [529, undefined, 'overloaded'],
    [503, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'overloaded'],
    [500, undefined, 'server'],
    [502, 'Bad gateway', 'server'],
    [400, { error: { message: 'prompt is too long: 210000 tokens > 200000 maximum' } }, 'context_overflow'],
    [400, { error: { message: 'Too many tokens in the request' } }, 'context_overflow'],
    [413, undefined, 'context_overflow'],
    [400, { error: { message: 'tools.0.name: invalid' } }, 'bad_request'],
    [404, undefined, 'not_found'],
  ] as const)('HTTP %i %j → %s', (status, body, kind) => {
    expect(httpProviderError(status, body, null, ctx).kind).toBe(kind);
  });

  it('classifies error events inside a stream by their type', () => {
    expect(
      httpProviderError(
        undefined,
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        null,
        ctx,
      ).kind,
    ).toBe('overloaded');
    expect(httpProviderError(undefined, { error: { type: 'rate_limit_error', message: 'x' } }, null, ctx).kind).toBe(
      'rate_limit',
    );
    expect(httpProviderError(undefined, { error: { message: 'boom' } }, null, ctx).kind).toBe('server');
  });

  it('carries Retry-After on retryable kinds', () => {
    const err = httpProviderError(503, undefined, { 'retry-after': '5' }, ctx);
    expect(err).toMatchObject({ kind: 'server', retryAfterMs: 5000, status: 503 });
  });

  it('names the provider and the fix in the messages', () => {
    expect(httpProviderError(401, undefined, null, ctx).message).toMatch(
      /provider "work" \(openai\).*\[providers\.work\].*JARVIS_MODEL_API_KEY/,
    );
    expect(httpProviderError(404, undefined, null, ctx).message).toContain('Model "gpt-x" was not found');
  });
});

describe('toProviderError', () => {
  it.each([
    ['openai', OpenAISdk],
    ['anthropic', AnthropicSdk],
  ] as const)('maps %s SDK errors', (_name, sdk) => {
    const c = { ...ctx, errors: sdk };
    expect(toProviderError(new sdk.APIUserAbortError(), c).kind).toBe('aborted');
    expect(toProviderError(new sdk.APIConnectionTimeoutError(), c).kind).toBe('timeout');
    const conn = toProviderError(new sdk.APIConnectionError({ cause: new Error('ECONNREFUSED') }), c);
    expect(conn.kind).toBe('connection');
    expect(conn.message).toContain('ECONNREFUSED');
    expect(conn.message).toContain('http://example.test/v1');
    // Transient socket failures retry; a dead address (refused, unknown host) fails at once.
    const socketError = (code: string) => Object.assign(new Error(`socket ${code}`), { code });
    const wrapped = (code: string) =>
      new sdk.APIConnectionError({ cause: Object.assign(new TypeError('fetch failed'), { cause: socketError(code) }) });
    expect(toProviderError(wrapped('ECONNRESET'), c)).toMatchObject({ kind: 'connection', retryable: true });
    expect(toProviderError(wrapped('EAI_AGAIN'), c)).toMatchObject({ kind: 'connection', retryable: true });
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'CERT_HAS_EXPIRED']) {
      expect(toProviderError(wrapped(code), c)).toMatchObject({ kind: 'unreachable', retryable: false });
    }
    const happyEyeballs = new sdk.APIConnectionError({
      cause: Object.assign(new TypeError('fetch failed'), { cause: new AggregateError([socketError('ECONNREFUSED')]) }),
    });
    expect(toProviderError(happyEyeballs, c).kind).toBe('unreachable');
    const rate = toProviderError(
      sdk.APIError.generate(429, { error: { message: 'slow' } }, undefined, new Headers({ 'retry-after': '2' })),
      c,
    );
    expect(rate).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 2000 });
  });

  it('maps error events sent inside a stream (no HTTP status)', () => {
    const c = { ...ctx, providerType: 'anthropic' as const, errors: AnthropicSdk };
    const overloaded = new AnthropicSdk.APIError(
      undefined,
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      undefined,
      undefined,
      'overloaded_error',
    );
    expect(toProviderError(overloaded, c).kind).toBe('overloaded');
    const openaiMidStream = new OpenAISdk.APIError(
      undefined,
      { message: 'The server had an error', type: 'server_error' },
      undefined,
      new Headers(),
    );
    expect(toProviderError(openaiMidStream, ctx).kind).toBe('server');
  });

  it('recognises SDK errors by class name when no classes are given', () => {
    expect(toProviderError(new OpenAISdk.APIConnectionTimeoutError(), { ...ctx, errors: undefined }).kind).toBe(
      'timeout',
    );
  });

  it('maps a JSON parse failure to bad_response', () => {
    let parseError: unknown;
    try {
      JSON.parse('{"broken');
    } catch (e) {
      parseError = e;
    }
    const err = toProviderError(parseError, ctx);
    expect(err.kind).toBe('bad_response');
    expect(err.message).toMatch(/^The provider sent a malformed stream: could not parse an event as JSON/);
  });

  it('passes a ProviderError through and maps a DOM AbortError', () => {
    const original = new ProviderError('quota', 'x');
    expect(toProviderError(original, ctx)).toBe(original);
    expect(toProviderError(new DOMException('stop', 'AbortError'), ctx).kind).toBe('aborted');
  });
});

describe('tool-call ids', () => {
  it('keeps unique ids, suffixes duplicates, fills in missing ones', () => {
    const out = normalizeToolCallIds([
      { id: 'a', name: 'X', arguments: '{}' },
      { id: 'a', name: 'Y', arguments: '{}' },
      { id: '', name: 'Z', arguments: '{}' },
      { id: 'a_2', name: 'W', arguments: '{}' },
    ]);
    const ids = out.map((c) => c.id);
    expect(ids[0]).toBe('a');
    expect(ids[1]).toBe('a_2');
    expect(ids[2]).toMatch(/^call_[A-Za-z0-9_-]+$/);
    expect(ids[3]).toBe('a_2_2');
    expect(new Set(ids).size).toBe(4);
    expect(out.map((c) => c.name)).toEqual(['X', 'Y', 'Z', 'W']);
  });

  it('avoids ids taken earlier in the conversation', () => {
    expect(normalizeToolCallIds([{ id: 'call_0', name: 'X', arguments: '{}' }], ['call_0'])[0].id).toBe('call_0_2');
  });

  it('returns the same objects when nothing changes', () => {
    const calls = [{ id: 'x', name: 'X', arguments: '{}' }];
    expect(normalizeToolCallIds(calls)[0]).toBe(calls[0]);
  });

  it('generates distinct ids', () => {
    const allocator = new ToolCallIdAllocator();
    const ids = new Set(Array.from({ length: 50 }, () => allocator.allocate(undefined)));
    expect(ids.size).toBe(50);
    expect(generateToolCallId()).not.toBe(generateToolCallId());
  });
});
