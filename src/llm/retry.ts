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

/** `[loop_control] retry_budget_s` default: how long retries of one request may go on. */
export const RETRY_BUDGET_MS = 30_000;

/**
 * The total time retries of one request may take, counted from its first failure: a dead or
 * flapping endpoint gives up after this long however many attempts are left. A retry is refused when
 * its wait, plus what the next attempt may itself take when the last one timed out (a provider that
 * accepts and never answers costs the whole idle time-out again), would pass the budget; the message
 * says how long the request really took.
 */
export class RetryBudget {
  private firstFailureAt: number | undefined;
  private readonly startedAt: number;
  constructor(
    private readonly budgetMs = RETRY_BUDGET_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
  }

  /**
   * Whether a time-out at `failAt` (ms since the epoch) would be followed by another attempt: surely (even the
   * longest wait before it fits), maybe (only a short draw of the jittered wait fits) or not at all.
   * `attempt` is the 1-based attempt that would fail; `nextAttemptMs` what the next one may take.
   */
  outlookAfterTimeout(failAt: number, attempt: number, nextAttemptMs: number): 'retry' | 'maybe' | 'give_up' {
    const spent = failAt - (this.firstFailureAt ?? failAt);
    const ceiling = Math.min(RETRY_BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1), RETRY_MAX_DELAY_MS);
    if (spent + ceiling + nextAttemptMs <= this.budgetMs) return 'retry';
    return spent + ceiling / 2 + nextAttemptMs <= this.budgetMs ? 'maybe' : 'give_up';
  }

  /**
   * Throws `error`, explained, when waiting `delayMs` and trying again would overrun the budget.
   * `nextAttemptMs`: how long the next attempt may take before it fails the same way (its time-out).
   */
  check(error: ProviderError, failedAttempts: number, delayMs: number, nextAttemptMs = 0): void {
    this.firstFailureAt ??= this.now();
    const spent = this.now() - this.firstFailureAt;
    const lookAhead = error.kind === 'timeout' ? nextAttemptMs : 0;
    if (spent + delayMs + lookAhead <= this.budgetMs) return;
    const tries = failedAttempts === 1 ? '1 attempt' : `${failedAttempts} attempts`;
    const budget = `the ${seconds(this.budgetMs)} retry budget ([loop_control] retry_budget_s)`;
    const why =
      lookAhead > 0
        ? `another attempt could wait ${seconds(lookAhead)} more for an answer ([loop_control] idle_timeout_s), ` +
          `past ${budget}`
        : `retrying would exceed ${budget}`;
    const took = seconds(this.now() - this.startedAt);
    const message = `${error.message} Gave up after ${tries} in ${took}: ${why}.`;
    throw new ProviderError(error.kind, message, { status: error.status, cause: error });
  }
}

/** "2 s", "4 min 3 s": a duration as a user reads it. */
function seconds(ms: number): string {
  const total = Math.round(ms / 1000);
  if (total < 60) return `${total} s`;
  const rest = total % 60;
  return `${Math.floor(total / 60)} min${rest ? ` ${rest} s` : ''}`;
}

/** True when `error` is a transient provider failure and another attempt is allowed. */
export function shouldRetry(error: unknown, attempt: number, maxAttempts: number): boolean {
  return error instanceof ProviderError && error.retryable && attempt < maxAttempts;
}

/** Resolves after `ms`; rejects with an 'aborted' ProviderError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () =>
      new ProviderError('aborted', 'Cancelled while waiting to retry the model request.', { cause: signal?.reason });
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
