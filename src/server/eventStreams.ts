// The live event streams (docs/server.md "WebSocket" and "SSE"). WebSocket /api/v1/ws: `server_hello` on connect;
// client frames `{type, id?, payload}` answered by `ack {id, code, msg, payload}`: `client_hello {client_id}`,
// `subscribe {session_ids, cursors?}` (replays what came after each cursor, or sends `resync_required`),
// `unsubscribe {session_ids}`. SSE /api/v1/sessions/{id}/events: the same events of one session, resumable with
// `since_seq` or Last-Event-ID.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import { ulid } from './envelope';
import { MAX_EVENT_BUFFER, type EventJournal, type ServerEvent } from './eventJournal';
import type { SessionRegistry } from './sessionRegistry';

export const PROTOCOL_VERSION = 2;
/** The subprotocol a client may offer next to `jarvis-code.bearer.<token>`. */
export const PROTOCOL_NAME = 'jarvis-code.v2';

interface Connection {
  id: string;
  clientId: string;
  socket: WebSocket;
  subscriptions: Map<string, () => void>;
}

function send(socket: WebSocket, frame: unknown): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
}

/** Replays what `journal` holds after `cursor`, then streams live events; returns the unsubscribe. */
function follow(
  journal: EventJournal,
  cursor: number | undefined,
  epoch: string | undefined,
  out: (e: ServerEvent) => void,
  resync: (reason: string) => void,
): () => void {
  if (cursor !== undefined) {
    const catchUp = journal.since(cursor, epoch);
    if ('resync' in catchUp) {
      resync(catchUp.resync);
      return journal.listen(out);
    }
    for (const e of catchUp.events) out(e);
  }
  return journal.listen(out);
}

export class EventHub {
  private readonly connections = new Map<string, Connection>();

  constructor(
    private readonly registry: SessionRegistry,
    private readonly serverId: string,
  ) {}

  get count(): number {
    return this.connections.size;
  }

  broadcast(type: string, payload: unknown): void {
    const frame = { type, seq: 0, volatile: true, timestamp: new Date().toISOString(), payload };
    for (const c of this.connections.values()) send(c.socket, frame);
  }

  accept(socket: WebSocket): void {
    const conn: Connection = { id: ulid(), clientId: '', socket, subscriptions: new Map() };
    conn.clientId = `ws:${conn.id}`;
    this.connections.set(conn.id, conn);
    send(socket, {
      type: 'server_hello',
      payload: {
        ws_connection_id: conn.id,
        server_id: this.serverId,
        protocol_version: PROTOCOL_VERSION,
        max_event_buffer_size: MAX_EVENT_BUFFER,
        capabilities: { subscribe: true, cursors: true, client_hello: true },
      },
    });
    socket.on('message', (data) => void this.onFrame(conn, String(data)));
    socket.on('close', () => {
      for (const off of conn.subscriptions.values()) off();
      this.connections.delete(conn.id);
    });
  }

  private async onFrame(conn: Connection, text: string): Promise<void> {
    let frame: { type?: unknown; id?: unknown; payload?: unknown };
    try {
      frame = JSON.parse(text) as typeof frame;
    } catch {
      return send(conn.socket, { type: 'ack', id: null, code: 40001, msg: 'a frame must be JSON', payload: null });
    }
    const id = typeof frame.id === 'string' || typeof frame.id === 'number' ? frame.id : null;
    const ack = (code: number, msg: string, payload: unknown = null) =>
      send(conn.socket, { type: 'ack', id, code, msg, payload });
    const payload = (frame.payload && typeof frame.payload === 'object' ? frame.payload : {}) as Record<
      string,
      unknown
    >;
    try {
      switch (frame.type) {
        case 'client_hello': {
          const cid = payload.client_id;
          if (typeof cid !== 'string' || !/^[A-Za-z0-9_.:-]{1,64}$/.test(cid))
            return ack(40001, 'client_hello needs client_id: 1-64 letters, digits, _ . : -');
          conn.clientId = cid;
          return ack(0, 'ok', { client_id: cid });
        }
        case 'subscribe':
          return ack(0, 'ok', await this.subscribe(conn, payload));
        case 'unsubscribe': {
          const ids = Array.isArray(payload.session_ids) ? payload.session_ids : [];
          for (const sid of ids) {
            conn.subscriptions.get(String(sid))?.();
            conn.subscriptions.delete(String(sid));
          }
          return ack(0, 'ok', { session_ids: ids });
        }
        default:
          return ack(40001, `unsupported frame type: ${String(frame.type)}`);
      }
    } catch (e) {
      const err = e as { code?: number; message?: string };
      return ack(typeof err.code === 'number' ? err.code : 50001, err.message ?? String(e));
    }
  }

  private async subscribe(conn: Connection, payload: Record<string, unknown>) {
    const ids = payload.session_ids;
    if (!Array.isArray(ids) || !ids.every((x) => typeof x === 'string') || ids.length > 100)
      throw Object.assign(new Error('subscribe needs session_ids: up to 100 session ids'), { code: 40001 });
    const cursors = (payload.cursors && typeof payload.cursors === 'object' ? payload.cursors : {}) as Record<
      string,
      unknown
    >;
    const epoch = typeof payload.epoch === 'string' ? payload.epoch : undefined;
    const subscribed: Array<{ session_id: string; last_seq: number; epoch: string }> = [];
    for (const sid of ids as string[]) {
      const session = await this.registry.get(sid);
      conn.subscriptions.get(sid)?.();
      const raw = cursors[sid];
      const cursor = raw === undefined ? undefined : Number(raw);
      conn.subscriptions.set(
        sid,
        follow(
          session.journal,
          cursor,
          epoch,
          (e) => send(conn.socket, e),
          (reason) =>
            send(conn.socket, {
              type: 'resync_required',
              session_id: sid,
              timestamp: new Date().toISOString(),
              payload: { reason, snapshot: `/api/v1/sessions/${sid}/snapshot`, last_seq: session.journal.lastSeq },
            }),
        ),
      );
      subscribed.push({ session_id: sid, last_seq: session.journal.lastSeq, epoch: session.journal.epoch });
    }
    return { subscribed };
  }

  closeAll(): void {
    for (const c of this.connections.values()) c.socket.close(1001, 'server stopping');
  }
}

/** GET /api/v1/sessions/{id}/events: SSE of one session until the client goes away. */
export async function serveSse(
  req: IncomingMessage,
  res: ServerResponse,
  registry: SessionRegistry,
  id: string,
  since: string | null,
): Promise<void> {
  const session = await registry.get(id);
  const last = since ?? (typeof req.headers['last-event-id'] === 'string' ? req.headers['last-event-id'] : null);
  const cursor = last === null ? undefined : Number(last);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'keep-alive',
  });
  res.write(`: jarvis session ${id} events\n\n`);
  // A volatile event has no `id:` line: the browser's Last-Event-ID must stay the last kept event's seq.
  const write = (e: ServerEvent) =>
    res.write(`${e.volatile ? '' : `id: ${e.seq}\n`}event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
  const off = follow(session.journal, cursor, undefined, write, (reason) =>
    res.write(
      `event: resync_required\ndata: ${JSON.stringify({ type: 'resync_required', session_id: id, payload: { reason, snapshot: `/api/v1/sessions/${id}/snapshot` } })}\n\n`,
    ),
  );
  req.on('close', off);
}
