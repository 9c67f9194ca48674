// The live view of one session for the server's watchers (docs/server.md "Live events"): the engine's events turned
// into server events. Text and thinking tokens become volatile `message.delta` events (not kept, not replayed: a
// client that reconnects reads the whole message from the kept `message` event), each naming the message it belongs
// to, so a browser can stream the answer and then swap in the finished message.
import { MAIN_AGENT_ID, type EngineEvent } from '../engine/loop/events';
import type { EventJournal } from './eventJournal';

export class LiveFeed {
  /** The main agent's message in progress: one per model step (`msg_<turn>_<step>`). */
  private messageId: string | null = null;

  constructor(
    private readonly journal: EventJournal,
    /** The prompt whose turn runs now (null for a turn a finished background task started). */
    private readonly promptId: () => string | null,
  ) {}

  /** The id of the main agent's message in progress, for the `message` (or `retry`) event that ends its stream. */
  get currentMessageId(): string | null {
    return this.messageId;
  }

  observe(event: EngineEvent): void {
    if (event.agentId !== MAIN_AGENT_ID) return;
    switch (event.type) {
      case 'step_start':
        this.messageId = `msg_${event.turnId}_${event.step}`;
        return;
      case 'text_delta':
      case 'thinking_delta':
        this.journal.emitVolatile('message.delta', {
          prompt_id: this.promptId(),
          message_id: this.messageId,
          kind: event.type === 'text_delta' ? 'text' : 'thinking',
          delta: event.delta,
        });
        return;
      default:
        return;
    }
  }
}
