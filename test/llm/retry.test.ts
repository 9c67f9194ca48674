import { describe, expect, it } from 'vitest';
import { RETRY_AFTER_CAP_MS, RETRY_MAX_DELAY_MS, retryDelayMs, shouldRetry, sleep } from '../../src/llm/retry';
import { ProviderError } from '../../src/llm/types';

const server = new ProviderError('server', 'boom', { status: 500 });

describe('retryDelayMs', () => {
  it('doubles from one second, between half and all of the step', () => {
    expect(retryDelayMs(1, server, () => 1)).toBe(1000);
    expect(retryDelayMs(1, server, () => 0)).toBe(500);
    expect(retryDelayMs(2, server, () => 1)).toBe(2000);
    expect(retryDelayMs(3, server, () => 1)).toBe(4000);
    expect(retryDelayMs(4, server, () => 0.5)).toBe(6000);
  });

  it('caps the backoff', () => {
    expect(retryDelayMs(20, server, () => 1)).toBe(RETRY_MAX_DELAY_MS);
    expect(retryDelayMs(200, server, () => 1)).toBe(RETRY_MAX_DELAY_MS);
  });

  it('honours Retry-After, capped', () => {
    expect(retryDelayMs(1, new ProviderError('rate_limit', 'x', { retryAfterMs: 7000 }), () => 0)).toBe(7000);
    expect(retryDelayMs(5, new ProviderError('rate_limit', 'x', { retryAfterMs: 0 }), () => 1)).toBe(0);
    expect(retryDelayMs(1, new ProviderError('rate_limit', 'x', { retryAfterMs: 3_600_000 }))).toBe(RETRY_AFTER_CAP_MS);
  });

  it('spreads retries with jitter', () => {
    const delays = new Set(Array.from({ length: 20 }, () => retryDelayMs(3, server)));
    expect(delays.size).toBeGreaterThan(1);
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(2000);
      expect(d).toBeLessThanOrEqual(4000);
    }
  });
});

describe('shouldRetry', () => {
  it.each([
    ['rate_limit', true],
    ['overloaded', true],
    ['server', true],
    ['connection', true],
    ['timeout', true],
    ['conflict', true],
    ['auth', false],
    ['quota', false],
    ['context_overflow', false],
    ['bad_request', false],
    ['not_found', false],
    ['bad_response', false],
    ['aborted', false],
  ] as const)('%s → %s', (kind, expected) => {
    expect(shouldRetry(new ProviderError(kind, 'x'), 1, 10)).toBe(expected);
  });

  it('stops at the attempt limit', () => {
    expect(shouldRetry(server, 9, 10)).toBe(true);
    expect(shouldRetry(server, 10, 10)).toBe(false);
    expect(shouldRetry(server, 1, 1)).toBe(false);
  });

  it('never retries errors that are not ProviderErrors', () => {
    expect(shouldRetry(new Error('bug'), 1, 10)).toBe(false);
    expect(shouldRetry('nope', 1, 10)).toBe(false);
  });
});

describe('sleep', () => {
  it('resolves after the delay', async () => {
    await expect(sleep(5)).resolves.toBeUndefined();
  });

  it('rejects with an aborted ProviderError when the signal aborts', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'ProviderError', kind: 'aborted' });
  });

  it('rejects at once on an already-aborted signal', async () => {
    await expect(sleep(60_000, AbortSignal.abort())).rejects.toBeInstanceOf(ProviderError);
  });
});
