// The events of one session with increasing `seq` (docs/server.md "Events"), kept in a bounded buffer so a client
// that reconnects catches up from the last seq it saw. A cursor older than the buffer, newer than the last event, or
// from another server run (`epoch`) cannot be caught up: the client is told `resync_required` and reads the snapshot.
export interface ServerEvent {
  type: string;
  seq: number;
  epoch: string;
  session_id?: string;
  timestamp: string;
  payload: unknown;
  /** A live-only event (`seq` 0): sent to the session's watchers, never kept or replayed (`message.delta`). */
  volatile?: true;
}

export const MAX_EVENT_BUFFER = 1000;

export type CatchUp = { events: ServerEvent[] } | { resync: string };

export class EventJournal {
  private readonly buffer: ServerEvent[] = [];
  private seq = 0;
  private readonly listeners = new Set<(e: ServerEvent) => void>();

  constructor(
    private readonly sessionId: string,
    readonly epoch: string,
    private readonly limit = MAX_EVENT_BUFFER,
  ) {}

  get lastSeq(): number {
    return this.seq;
  }

  emit(type: string, payload: unknown): ServerEvent {
    const event: ServerEvent = {
      type,
      seq: ++this.seq,
      epoch: this.epoch,
      session_id: this.sessionId,
      timestamp: new Date().toISOString(),
      payload,
    };
    this.buffer.push(event);
    if (this.buffer.length > this.limit) this.buffer.shift();
    for (const l of [...this.listeners]) l(event);
    return event;
  }

  /**
   * A live-only event: given to the listeners now with `seq` 0 and `volatile: true`, not buffered, so a client that
   * reconnects never gets it (it reads the whole message from the buffered events instead).
   */
  emitVolatile(type: string, payload: unknown): void {
    const event: ServerEvent = {
      type,
      seq: 0,
      epoch: this.epoch,
      session_id: this.sessionId,
      timestamp: new Date().toISOString(),
      payload,
      volatile: true,
    };
    for (const l of [...this.listeners]) l(event);
  }

  /** Events after `cursor` (the last seq the client saw), or why they cannot be given. */
  since(cursor: number, epoch?: string): CatchUp {
    if (epoch !== undefined && epoch !== this.epoch)
      return { resync: `the cursor is from another server run (epoch ${epoch}, now ${this.epoch})` };
    if (!Number.isInteger(cursor) || cursor < 0 || cursor > this.seq)
      return { resync: `cursor ${cursor} is not a sequence number of this session (last is ${this.seq})` };
    const oldest = this.buffer[0]?.seq ?? this.seq + 1;
    if (cursor < oldest - 1)
      return { resync: `events after ${cursor} are no longer buffered (the oldest kept is ${oldest})` };
    return { events: this.buffer.filter((e) => e.seq > cursor) };
  }

  listen(listener: (e: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
