// An unbounded queue read as an async iterator (the messages of a query, docs/sdk.md): `push` never waits, `next`
// waits for a value, `end` lets the reader finish once it has read everything pushed before.
export class MessageQueue<T> {
  private readonly items: T[] = [];
  private readonly waiting: Array<(r: IteratorResult<T, undefined>) => void> = [];
  private ended = false;

  push(item: T): void {
    if (this.ended) return;
    const reader = this.waiting.shift();
    if (reader) reader({ done: false, value: item });
    else this.items.push(item);
  }

  end(): void {
    this.ended = true;
    for (const reader of this.waiting.splice(0)) reader({ done: true, value: undefined });
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.items.length) return Promise.resolve({ done: false, value: this.items.shift()! });
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}
