// The live event stream (docs/server.md "WebSocket /api/v1/ws"): offers the `jarvis-code.v2` subprotocol (the
// login cookie is the credential), names this tab with client_hello, subscribes to the open session with its cursor
// so a reconnect catches up without a gap, and reconnects a bounded number of times before telling the user.
import type { ServerEvent } from '../state/types';
import { CLIENT_ID } from './http';

export type { ServerEvent };

export interface StreamHandlers {
  event(e: ServerEvent): void;
  /** The cursor of `session` is one the server cannot serve: read the snapshot again. */
  resync(sessionId: string): void;
  state(s: 'connecting' | 'open' | 'closed' | 'gave-up', detail?: string): void;
  /** A frame the server refused (a session another jarvis holds, say): its message. */
  refused(message: string): void;
  /** The cursor to resume `session` from, and its epoch. */
  cursor(sessionId: string): { seq: number; epoch?: string } | undefined;
}

const MAX_RETRIES = 8;

export class EventStream {
  private socket?: WebSocket;
  private nextId = 1;
  private retries = 0;
  private sessionId?: string;
  private stopped = false;

  constructor(private readonly on: StreamHandlers) {}

  connect(): void {
    this.stopped = false;
    this.on.state('connecting');
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/ws`;
    let socket: WebSocket;
    try {
      socket = new WebSocket(url, ['jarvis-code.v2']);
    } catch (e) {
      return this.retry(`the live connection could not be opened: ${(e as Error).message}`);
    }
    this.socket = socket;
    socket.addEventListener('message', (m) => this.frame(String(m.data)));
    socket.addEventListener('close', (e) => {
      if (this.socket !== socket || this.stopped) return;
      this.socket = undefined;
      this.retry(`the live connection closed ${MAX_RETRIES} times (last: ${e.code} ${e.reason || 'no reason'})`);
    });
  }

  /** Tries again after a growing pause, MAX_RETRIES times in a row at most; then says so and stops. */
  private retry(gaveUp: string): void {
    if (this.retries >= MAX_RETRIES) return this.on.state('gave-up', `${gaveUp}; reload the page to try again`);
    this.on.state('closed', `reconnecting (${this.retries + 1}/${MAX_RETRIES})`);
    const delay = Math.min(250 * 2 ** this.retries++, 8000);
    setTimeout(() => this.connect(), delay);
  }

  stop(): void {
    this.stopped = true;
    this.socket?.close();
  }

  /** Follows one session (the one shown); the previous one is dropped. */
  follow(sessionId: string | undefined): void {
    if (this.sessionId && this.sessionId !== sessionId) this.send('unsubscribe', { session_ids: [this.sessionId] });
    this.sessionId = sessionId;
    if (sessionId) this.subscribe(sessionId);
  }

  private subscribe(sessionId: string): void {
    const cursor = this.on.cursor(sessionId);
    this.send('subscribe', {
      session_ids: [sessionId],
      ...(cursor ? { cursors: { [sessionId]: cursor.seq }, ...(cursor.epoch ? { epoch: cursor.epoch } : {}) } : {}),
    });
  }

  private send(type: string, payload: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN)
      this.socket.send(JSON.stringify({ type, id: this.nextId++, payload }));
  }

  private frame(text: string): void {
    let f: ServerEvent;
    try {
      f = JSON.parse(text) as ServerEvent;
    } catch {
      return;
    }
    if (f.type === 'server_hello') {
      this.retries = 0;
      this.send('client_hello', { client_id: CLIENT_ID });
      if (this.sessionId) this.subscribe(this.sessionId);
      this.on.state('open');
      return;
    }
    if (f.type === 'ack') {
      const ack = f as unknown as { code?: number; msg?: string };
      if (ack.code) this.on.refused(ack.msg ?? `refused (${ack.code})`);
      return;
    }
    if (f.type === 'resync_required' && f.session_id) return this.on.resync(f.session_id);
    this.on.event(f);
  }
}
