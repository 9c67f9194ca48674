import { describe, expect, it } from 'vitest';
import {
  RETRY_AFTER_CAP_MS,
  RETRY_MAX_DELAY_MS,
  RetryBudget,
  retryDelayMs,
  shouldRetry,
  sleep,
} from '../../src/llm/retry';
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

describe('RetryBudget', () => {
  it('allows retries until the budget, counted from the first failure, would be overrun', () => {
    let now = 1_000;
    const budget = new RetryBudget(30_000, () => now);
    const err = new ProviderError('server', 'HTTP 500.');
    expect(() => budget.check(err, 1, 1_000)).not.toThrow();
    now += 20_000;
    expect(() => budget.check(err, 2, 9_000)).not.toThrow();
    now += 9_500;
    let thrown: unknown;
    try {
      budget.check(err, 3, 4_000);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ProviderError);
    expect((thrown as ProviderError).kind).toBe('server');
    expect((thrown as ProviderError).message).toBe(
      'HTTP 500. Gave up after 3 attempts in 30 s: retrying would exceed the 30 s retry budget ' +
        '([loop_control] retry_budget_s).',
    );
  });

  it('does not retry a time-out when the next attempt could run past the budget, and gives the real time', () => {
    let now = 0;
    const budget = new RetryBudget(30_000, () => now);
    now += 120_000; // the first attempt waited the whole idle time-out
    const silent = new ProviderError('timeout', 'The request timed out waiting for a response.');
    expect(() => budget.check(silent, 1, 1_000, 120_000)).toThrow(
      'The request timed out waiting for a response. Gave up after 1 attempt in 2 min: another attempt could wait ' +
        '2 min more for an answer ([loop_control] idle_timeout_s), past the 30 s retry budget ' +
        '([loop_control] retry_budget_s).',
    );
    // A short time-out fits the budget; other errors never look ahead.
    expect(() => new RetryBudget(30_000, () => now).check(silent, 1, 1_000, 5_000)).not.toThrow();
    const http500 = new ProviderError('server', 'HTTP 500.');
    expect(() => new RetryBudget(30_000, () => now).check(http500, 1, 1_000, 120_000)).not.toThrow();
  });

  it('tells ahead whether a time-out would be followed by another attempt: surely, maybe, or not', () => {
    const budget = new RetryBudget(30_000, () => 0);
    // The defaults: a 120 s idle time-out never fits a 30 s budget.
    expect(budget.outlookAfterTimeout(120_000, 1, 120_000)).toBe('give_up');
    // Attempt 1 waits 0.5–1 s before the next: with 29 s for it, surely; with 29.3 s, only on a short draw.
    expect(budget.outlookAfterTimeout(5_000, 1, 29_000)).toBe('retry');
    expect(budget.outlookAfterTimeout(5_000, 1, 29_300)).toBe('maybe');
    // Counted from the first failure: after one, the time already spent counts.
    let now = 0;
    const spent = new RetryBudget(30_000, () => now);
    spent.check(new ProviderError('timeout', 'timed out'), 1, 1_000, 5_000);
    now = 26_000;
    expect(spent.outlookAfterTimeout(now, 2, 5_000)).toBe('give_up');
  });
});
