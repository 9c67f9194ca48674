// Retry policy helpers for the engine: which provider errors to retry, how long to wait between
// attempts (exponential backoff with jitter, or the server's Retry-After), and an abortable sleep.

import { ProviderError } from './types';

export const RETRY_BASE_DELAY_MS = 1_000;
export const RETRY_MAX_DELAY_MS = 30_000;
/** A server-requested wait longer than this is cut short: the user is watching. */
export const RETRY_AFTER_CAP_MS = 60_000;

/**
 * How long to wait before the next attempt. `attempt` is the 1-based number of the attempt that just
 * failed. A Retry-After from the server wins (capped); otherwise base·2^(attempt-1), capped, with the
 * delay drawn between half and all of that so that many clients do not retry in lockstep.
 */
export function retryDelayMs(attempt: number, error: ProviderError, random: () => number = Math.random): number {
  if (error.retryAfterMs !== undefined && Number.isFinite(error.retryAfterMs) && error.retryAfterMs >= 0) {
    return Math.min(Math.round(error.retryAfterMs), RETRY_AFTER_CAP_MS);
  }
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  const ceiling = Math.min(RETRY_BASE_DELAY_MS * 2 ** exponent, RETRY_MAX_DELAY_MS);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(ceiling * (0.5 + 0.5 * r));
}

/** True when `error` is a transient provider failure and another attempt is allowed. */
export function shouldRetry(error: unknown, attempt: number, maxAttempts: number): boolean {
  return error instanceof ProviderError && error.retryable && attempt < maxAttempts;
}

/** Resolves after `ms`; rejects with an 'aborted' ProviderError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => new ProviderError('aborted', 'Cancelled while waiting to retry the model request.', { cause: signal?.reason });
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
