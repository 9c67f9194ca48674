// The questions the engine is waiting on a human for (tool approvals, plan reviews, AskUserQuestion),
// for any front end: the terminal UI shows them one at a time in the input box's place; an editor
// front end (ACP) forwards them as permission requests. First asked, first shown; a question asked "in
// the background" waits while the agent works; the turn's abort withdraws a question, and the front
// end's shutdown withdraws them all. `V` is what the front end shows (a panel, a request id…).

export interface QueuedQuestion<V> {
  view: V;
  /** Shown only while the agent is idle (AskUserQuestion with `background`). */
  background: boolean;
  /** What the agent is doing meanwhile ("Waiting for your approval"). */
  label: string;
  /** Withdraws the question (the engine gets what `onAbort` says). */
  cancel(): void;
}

export interface AskOptions<T, V> {
  label: string;
  background?: boolean;
  /** Builds what the front end shows; calling `finish` answers the question. */
  view(finish: (value: T) => void): V;
  /** What the engine gets when the question is withdrawn: a value (an approval becomes a rejection) or an error. */
  onAbort(): T | Error;
}

export class QuestionQueue<V> {
  private entries: Array<QueuedQuestion<V>> = [];

  /** `onChange` runs after every question added or settled (the front end re-renders). */
  constructor(private readonly onChange: (queue: QuestionQueue<V>, added?: QueuedQuestion<V>) => void = () => {}) {}

  /** Queues a question; resolves with the answer, or with `onAbort`'s result when `signal` aborts first. */
  ask<T>(signal: AbortSignal, opts: AskOptions<T, V>): Promise<T> {
    if (signal.aborted) {
      const value = opts.onAbort();
      return value instanceof Error ? Promise.reject(value) : Promise.resolve(value);
    }
    return new Promise<T>((resolve, reject) => {
      const settle = (value: T | Error) => {
        if (!this.entries.includes(entry)) return;
        signal.removeEventListener('abort', aborted);
        this.entries = this.entries.filter((e) => e !== entry);
        this.onChange(this);
        if (value instanceof Error) reject(value);
        else resolve(value);
      };
      const aborted = () => settle(opts.onAbort());
      const entry: QueuedQuestion<V> = {
        view: opts.view((value) => settle(value)),
        background: !!opts.background,
        label: opts.label,
        cancel: aborted,
      };
      this.entries.push(entry);
      signal.addEventListener('abort', aborted, { once: true });
      this.onChange(this, entry);
    });
  }

  /** The question to show now: the oldest, except that background ones wait while the agent is busy. */
  current(agentBusy: boolean): V | undefined {
    return this.entries.find((e) => !(e.background && agentBusy))?.view;
  }

  /** The label of the oldest question the agent is blocked on, if any. */
  blockingLabel(): string | undefined {
    return this.entries.find((e) => !e.background)?.label;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Withdraws every question (front end shutting down). */
  cancelAll(): void {
    for (const e of [...this.entries]) e.cancel();
  }
}
