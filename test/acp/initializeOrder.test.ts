// Messages read behind an `initialize` request wait for its answer (src/acp/initializeOrder.ts,
// docs/acp.md). An agent whose `initialize` takes a moment shows the race: straight on the SDK, the
// pipelined `session/new` is refused; through orderedAfterInitialize it is answered.
import { describe, expect, it } from 'vitest';
import { agent, PROTOCOL_VERSION, type AnyMessage, type Stream } from '@agentclientprotocol/sdk';
import { orderedAfterInitialize } from '../../src/acp/initializeOrder';
import { waitUntil } from '../helpers/cli';

interface Answer {
  id: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** A stream that delivers `incoming` in one go and records what the agent writes. */
function pipelined(incoming: AnyMessage[]): { stream: Stream; written: Answer[] } {
  const written: Answer[] = [];
  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      for (const m of incoming) controller.enqueue(m);
    },
  });
  const writable = new WritableStream<AnyMessage>({ write: (m) => void written.push(m as unknown as Answer) });
  return { stream: { readable, writable }, written };
}

async function answers(order: (s: Stream) => Stream): Promise<Map<number, Answer>> {
  const app = agent({ name: 'slow-initialize' })
    .onRequest('initialize', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return { protocolVersion: PROTOCOL_VERSION };
    })
    .onRequest('session/new', () => ({ sessionId: 's-1' }));
  const { stream, written } = pipelined([
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION } },
    { jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: '/tmp', mcpServers: [] } },
  ]);
  const connection = app.connect(order(stream));
  try {
    await waitUntil(() => written.length >= 2, 5_000, 'both answers');
  } finally {
    connection.close();
  }
  return new Map(written.map((a) => [a.id, a]));
}

describe('orderedAfterInitialize', () => {
  it('without it, the SDK refuses a session/new that arrives while initialize is being answered', async () => {
    const got = await answers((s) => s);
    expect(got.get(2)?.error?.message).toMatch(/must be initialized before 'session\/new'/);
  });

  it('holds session/new until initialize is answered, then both succeed in order', async () => {
    const got = await answers(orderedAfterInitialize);
    expect(got.get(1)?.result?.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(got.get(2)?.error).toBeUndefined();
    expect(got.get(2)?.result?.sessionId).toBe('s-1');
  });

  it('after a failed initialize, what follows is still refused', async () => {
    const app = agent({ name: 'failing-initialize' })
      .onRequest('initialize', () => {
        throw new Error('unsupported client');
      })
      .onRequest('session/new', () => ({ sessionId: 's-1' }));
    const { stream, written } = pipelined([
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION } },
      { jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: '/tmp', mcpServers: [] } },
    ]);
    const connection = app.connect(orderedAfterInitialize(stream));
    try {
      await waitUntil(() => written.length >= 2, 5_000, 'both answers');
    } finally {
      connection.close();
    }
    expect(written.find((a) => a.id === 1)?.error).toBeDefined();
    expect(written.find((a) => a.id === 2)?.error?.message).toMatch(/initialized before 'session\/new'/);
  });
});
