// A command's output held in memory with a bound: Bash and the UI's shell mode keep its start and its
// end, and count what fell between (the full text, where it matters, goes to a file).
export type StreamName = 'stdout' | 'stderr';
interface Chunk {
  stream: StreamName;
  text: string;
}

/**
 * What a command printed, in order, bounded in memory: the first `headLimit` and the last
 * `tailLimit` characters are kept, anything between is counted and marked as omitted.
 */
export class CommandOutput {
  private readonly head: Chunk[] = [];
  private readonly tail: Chunk[] = [];
  private headChars = 0;
  private tailChars = 0;
  private omitted = 0;
  /** Everything added, kept or not. */
  totalChars = 0;

  constructor(
    private readonly headLimit: number,
    private readonly tailLimit: number,
  ) {}

  /** Characters dropped from memory between the head and the tail. */
  get omittedChars(): number {
    return this.omitted;
  }

  add(stream: StreamName, text: string): void {
    this.totalChars += text.length;
    const room = this.headLimit - this.headChars;
    if (room > 0) {
      const head = text.length <= room ? text : text.slice(0, room);
      this.head.push({ stream, text: head });
      this.headChars += head.length;
      if (head.length === text.length) return;
      text = text.slice(head.length);
    }
    this.tail.push({ stream, text });
    this.tailChars += text.length;
    while (this.tailChars > this.tailLimit) {
      const first = this.tail[0];
      const excess = this.tailChars - this.tailLimit;
      if (first.text.length <= excess) {
        this.tail.shift();
        this.tailChars -= first.text.length;
        this.omitted += first.text.length;
      } else {
        first.text = first.text.slice(excess);
        this.tailChars -= excess;
        this.omitted += excess;
      }
    }
  }

  text(stream: StreamName): string {
    return this.join((c) => c.stream === stream);
  }

  combined(): string {
    return this.join(() => true);
  }

  private join(keep: (c: Chunk) => boolean): string {
    const pick = (chunks: Chunk[]) =>
      chunks
        .filter(keep)
        .map((c) => c.text)
        .join('');
    const marker = this.omitted ? `\n[… ${this.omitted} characters of output omitted from memory …]\n` : '';
    return pick(this.head) + marker + pick(this.tail);
  }
}
