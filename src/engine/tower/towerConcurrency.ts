// How many Tower agents run at once (docs/tower.md "Concurrency"): a budget that halves when a
// provider answers with a rate limit and grows back by one for each agent that finishes cleanly,
// never above TOWER_MAX_CONCURRENCY. Spawns past the budget wait in order for a free slot.

import { TOWER_INITIAL_CONCURRENCY, TOWER_MAX_CONCURRENCY } from '../../tools/tower/towerLimits';

export class AdaptiveConcurrency {
  private current: number;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    initial = TOWER_INITIAL_CONCURRENCY,
    readonly ceiling = TOWER_MAX_CONCURRENCY,
  ) {
    this.current = Math.max(1, Math.min(initial, ceiling));
  }

  get limit(): number {
    return this.current;
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Whether a start now would run at once. */
  get hasRoom(): boolean {
    return this.running < this.current;
  }

  /** Resolves when a slot is free (at once when one is); the slot is held until `release`. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (this.running < this.current && this.waiting.length === 0) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const start = () => {
        signal?.removeEventListener('abort', onAbort);
        this.running++;
        resolve();
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(start);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new Error('stopped before it started'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(start);
    });
  }

  /** Frees a slot; `cleanly` (the agent finished without a rate limit) lets the budget grow by one. */
  release(cleanly: boolean): void {
    this.running = Math.max(0, this.running - 1);
    if (cleanly) this.current = Math.min(this.ceiling, this.current + 1);
    this.drain();
  }

  /** A provider said "rate limited": halve the budget (at least one keeps running). */
  rateLimited(): void {
    this.current = Math.max(1, Math.floor(this.current / 2));
  }

  private drain(): void {
    while (this.running < this.current && this.waiting.length) this.waiting.shift()!();
  }
}
