// Saying that the model is silent (docs/configuration.md, "[loop_control]"): a provider that accepts the request
// and sends nothing leaves the user looking at a still screen for the whole idle time-out. After
// `[loop_control] wait_notice_s` without a byte (before the answer starts, or in the middle of it) the front ends
// are told how long the model has been silent, how much longer this request waits, and what follows if nothing
// comes; the notice repeats every three times that interval until something arrives.
import type { EngineEventBody } from './events';

/** `[loop_control] wait_notice_s` default: the first notice after this long without a byte. */
export const DEFAULT_WAIT_NOTICE_MS = 10_000;
/** Later notices come this many first intervals apart. */
export const WAIT_NOTICE_REPEAT_FACTOR = 3;

/** What follows a time-out of this request: another attempt, maybe one (the budget decides), or none. */
export type AfterTimeout = 'retry' | 'maybe' | 'give_up';

export interface ModelWaitOptions {
  /** The first notice after this long without a byte (0 = never). */
  noticeMs: number;
  /** The request's idle time-out ([loop_control] idle_timeout_s); 0 = none. */
  idleTimeoutMs: number;
  emit(event: EngineEventBody): void;
  /** Asked when a notice is due: what a time-out at `failAt` would lead to. */
  afterTimeout(failAt: number): AfterTimeout;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

export class ModelWait {
  private timer: NodeJS.Timeout | undefined;
  private silentSince = 0;
  private started = false;
  private answering = false;

  constructor(private readonly opts: ModelWaitOptions) {}

  /** The request was sent: the silence starts now. */
  start(): void {
    this.silentSince = Date.now();
    this.started = true;
    this.arm(this.opts.noticeMs);
  }

  /** Something arrived: the silence ends (and starts again until the next part). */
  heard(): void {
    if (!this.started) return;
    this.answering = true;
    this.silentSince = Date.now();
    this.arm(this.opts.noticeMs);
  }

  stop(): void {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.opts.noticeMs <= 0) return;
    this.timer = setTimeout(() => this.announce(), ms);
    // The request itself keeps the process alive; the notice never does.
    this.timer.unref();
  }

  private announce(): void {
    if (!this.started) return;
    const now = Date.now();
    const silent = now - this.silentSince;
    const what = this.answering
      ? `The model has sent nothing for ${seconds(silent)} in the middle of its answer.`
      : `The model has not answered yet (${seconds(silent)} since the request was sent).`;
    const { idleTimeoutMs } = this.opts;
    let wait: string;
    if (idleTimeoutMs <= 0) {
      wait = 'This request waits with no time limit ([loop_control] idle_timeout_s = 0).';
    } else {
      const left = Math.max(0, idleTimeoutMs - silent);
      const after = this.opts.afterTimeout(now + left);
      const then =
        after === 'retry'
          ? 'then it is sent again'
          : after === 'maybe'
            ? 'then it is sent again if [loop_control] retry_budget_s still allows'
            : 'then the request fails';
      wait = `It waits up to ${seconds(left)} more ([loop_control] idle_timeout_s = ${seconds(idleTimeoutMs)}), ${then}.`;
    }
    this.opts.emit({ type: 'notice', level: 'warning', text: `${what} ${wait}` });
    this.arm(this.opts.noticeMs * WAIT_NOTICE_REPEAT_FACTOR);
  }
}
