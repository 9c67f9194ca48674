// Pipelined `initialize` (docs/acp.md): an editor may write `session/new` right behind `initialize`
// in one chunk. The SDK dispatches every message as soon as it is read and rejects requests that
// arrive before the `initialize` answer went out, so the messages read after an `initialize` request
// are held back here until its response (result or error) has been written. After a failed
// `initialize`, the SDK still refuses what follows, as the protocol says.
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';

type Id = string | number | null;

function isInitializeRequest(m: AnyMessage): m is AnyMessage & { id: Id } {
  return 'method' in m && m.method === 'initialize' && 'id' in m;
}

function isResponseTo(m: AnyMessage, id: Id): boolean {
  return !('method' in m) && 'id' in m && m.id === id;
}

/** `stream` with incoming messages held while an `initialize` request is being answered. */
export function orderedAfterInitialize(stream: Stream): Stream {
  let pending: { id: Id; answered: () => void; wait: Promise<void> } | undefined;
  const settle = () => {
    const p = pending;
    pending = undefined;
    p?.answered();
  };
  const writer = stream.writable.getWriter();
  const writable = new WritableStream<AnyMessage>({
    async write(message) {
      try {
        await writer.write(message);
      } finally {
        // Written or failed: either way the held messages go on (a failed write closes the connection).
        if (pending && isResponseTo(message, pending.id)) settle();
      }
    },
    async close() {
      settle();
      await writer.close();
    },
    async abort(reason) {
      settle();
      await writer.abort(reason);
    },
  });
  const reader = stream.readable.getReader();
  const readable = new ReadableStream<AnyMessage>({
    async pull(controller) {
      // The previous message was an `initialize` request: deliver nothing more until it is answered.
      const held = pending;
      if (held) await held.wait;
      const { value, done } = await reader.read();
      if (done) return controller.close();
      if (isInitializeRequest(value)) {
        let answered!: () => void;
        const wait = new Promise<void>((resolve) => (answered = resolve));
        pending = { id: value.id, answered, wait };
      }
      controller.enqueue(value);
    },
    async cancel(reason) {
      settle();
      await reader.cancel(reason);
    },
  });
  return { readable, writable };
}
