// One connection to an X server, speaking the X11 core protocol ourselves over its socket (docs/computer-use.md,
// "Why the X protocol"): the setup handshake, requests framed with their sequence numbers, replies and errors
// matched to their requests, and events handed to listeners. Requests go out in little-endian byte order.
// Requests without a reply are "void": an error for one is kept and thrown by the next `sync()`, the way
// checked requests work in XCB, so a batch of input events costs one round trip, not one each.
import type { Socket } from 'node:net';
import { findCookie, parseDisplay, X11DisplayError, type X11Address } from './x11Display';
import { connectSocket, handshake, padded, type X11Screen, type X11Setup } from './x11Setup';

export { padded, type X11Screen, type X11Setup, type X11Visual } from './x11Setup';

const ERROR_NAMES = [
  '',
  'Request',
  'Value',
  'Window',
  'Pixmap',
  'Atom',
  'Cursor',
  'Font',
  'Match',
  'Drawable',
  'Access',
  'Alloc',
  'Colormap',
  'GContext',
  'IDChoice',
  'Name',
  'Length',
  'Implementation',
];

/** An error the X server answered a request with. */
export class X11Error extends Error {
  constructor(
    readonly code: number,
    readonly major: number,
    readonly minor: number,
    readonly badValue: number,
  ) {
    const name = ERROR_NAMES[code] ?? `error ${code}`;
    super(
      `the X server refused request ${major}${minor ? `.${minor}` : ''} (${name} error, value 0x${badValue.toString(16)})`,
    );
  }
}

/** An event as the server sent it: 32 bytes (more for generic events); `type` without the sent-by-SendEvent bit. */
export interface X11Event {
  type: number;
  bytes: Buffer;
}

interface Pending {
  seq: number;
  reply: boolean;
  resolve(reply: Buffer): void;
  reject(error: Error): void;
}

const GET_INPUT_FOCUS = 43;
const DEFAULT_TIMEOUT_MS = 10_000;

export class X11Connection {
  private chunks: Buffer[] = [];
  private size = 0;
  private seq = 0;
  private pending: Pending[] = [];
  private voidErrors: X11Error[] = [];
  private nextId = 0;
  private failure: Error | undefined;
  private readonly listeners = new Set<(event: X11Event) => void>();

  private constructor(
    private readonly socket: Socket,
    readonly address: X11Address,
    readonly setup: X11Setup,
    private readonly timeoutMs: number,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (e) =>
      this.fail(new Error(`the connection to the X server on ${address.name} failed: ${e.message}`)),
    );
    socket.on('close', () => this.fail(new Error(`the X server on ${address.name} closed the connection`)));
  }

  /** Why the connection is no longer usable (the server went away, a request timed out, close()), if it is not. */
  get broken(): Error | undefined {
    return this.failure;
  }

  /** The screen DISPLAY names (`:0.1` is screen 1). */
  get screen(): X11Screen {
    return this.setup.screens[this.address.screen] ?? this.setup.screens[0];
  }

  /** Connects to DISPLAY (from `env`), with the Xauthority cookie when there is one. */
  static async open(env: NodeJS.ProcessEnv, opts: { timeoutMs?: number } = {}): Promise<X11Connection> {
    const address = parseDisplay(env.DISPLAY);
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const cookie = findCookie(address, env);
    const socket = await connectSocket(address, timeoutMs);
    try {
      const setup = await handshake(socket, address, cookie, timeoutMs);
      if (address.screen >= setup.screens.length)
        throw new X11DisplayError(
          `DISPLAY=${address.name} names screen ${address.screen}, but the server has ${setup.screens.length}`,
        );
      return new X11Connection(socket, address, setup, timeoutMs);
    } catch (e) {
      socket.destroy();
      throw e;
    }
  }

  /** A fresh resource id (window, pixmap…) of this client. */
  newId(): number {
    const { resourceIdBase, resourceIdMask } = this.setup;
    const step = resourceIdMask & -resourceIdMask;
    const id = resourceIdBase | ((this.nextId++ * step) & resourceIdMask);
    return id >>> 0;
  }

  /** Sends a request that has a reply and resolves with the whole reply (32 bytes and more). */
  request(opcode: number, data: number, body: Buffer = Buffer.alloc(0)): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        const error = new Error(
          `the X server on ${this.address.name} did not answer within ${this.timeoutMs / 1000} s`,
        );
        reject(error);
        this.fail(error);
      }, this.timeoutMs);
      timer.unref();
      this.write(opcode, data, body, {
        reply: true,
        resolve: (r) => (clearTimeout(timer), resolve(r)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
    });
  }

  /** Sends a request without a reply; an error for it is thrown by the next `sync()`. */
  send(opcode: number, data: number, body: Buffer = Buffer.alloc(0)): void {
    this.write(opcode, data, body, {
      reply: false,
      resolve: () => undefined,
      reject: (e) => {
        if (e instanceof X11Error) this.voidErrors.push(e);
      },
    });
  }

  /** Waits until the server has handled every request sent so far; throws the first error any of them caused. */
  async sync(): Promise<void> {
    await this.request(GET_INPUT_FOCUS, 0);
    const error = this.voidErrors.shift();
    this.voidErrors = [];
    if (error) throw error;
  }

  onEvent(listener: (event: X11Event) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Keeps the events `match` accepts from now on, for `next()` to hand out in order: an event that arrives
   * while the caller still awaits a reply is not lost. `stop()` when done.
   */
  queueEvents(match: (event: X11Event) => boolean): EventQueue {
    const queue = new EventQueue(() => off());
    const off = this.onEvent((event) => {
      if (match(event)) queue.push(event);
    });
    return queue;
  }

  close(): void {
    this.failure ??= new Error('the X connection was closed');
    this.socket.destroy();
  }

  private write(opcode: number, data: number, body: Buffer, entry: Omit<Pending, 'seq'>): void {
    if (this.failure) return void entry.reject(this.failure);
    const length = 4 + padded(body.length);
    if (length / 4 > this.setup.maxRequestLength)
      return void entry.reject(new Error(`an X request of ${length} bytes is too long for this server`));
    const frame = Buffer.alloc(length);
    frame[0] = opcode;
    frame[1] = data;
    frame.writeUInt16LE(length / 4, 2);
    body.copy(frame, 4);
    this.seq++;
    this.pending.push({ seq: this.seq, ...entry });
    this.socket.write(frame);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) p.reject(this.failure);
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size >= 32) {
      const head = this.peek(32);
      const kind = head[0] & 0x7f;
      const total = head[0] === 1 || kind === 35 ? 32 + 4 * head.readUInt32LE(4) : 32;
      if (this.size < total) return;
      this.dispatch(this.take(total));
    }
  }

  private peek(n: number): Buffer {
    if (this.chunks[0].length < n) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0].subarray(0, n);
  }

  private take(n: number): Buffer {
    if (this.chunks[0].length < n) this.chunks = [Buffer.concat(this.chunks)];
    const first = this.chunks[0];
    const out = first.subarray(0, n);
    if (first.length === n) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
    this.size -= n;
    return out;
  }

  private dispatch(message: Buffer): void {
    const type = message[0];
    if (type === 0 || type === 1) {
      const entry = this.settle(message.readUInt16LE(2));
      if (!entry) return;
      if (type === 1) return entry.reply ? entry.resolve(message) : undefined;
      entry.reject(new X11Error(message[1], message[10], message.readUInt16LE(8), message.readUInt32LE(4)));
      return;
    }
    const event = { type: type & 0x7f, bytes: message };
    for (const listener of [...this.listeners]) listener(event);
  }

  /** The request a reply or error with this (16-bit) sequence number answers; void requests before it are done. */
  private settle(wireSeq: number): Pending | undefined {
    while (this.pending.length && (this.pending[0].seq & 0xffff) !== wireSeq) {
      const done = this.pending.shift()!;
      if (done.reply) done.reject(new Error('the X server skipped the reply to a request'));
      else done.resolve(Buffer.alloc(0));
    }
    return this.pending.shift();
  }
}

export class EventQueue {
  private readonly items: X11Event[] = [];
  private wake: (() => void) | undefined;

  constructor(readonly stop: () => void) {}

  /** Forgets the events kept so far. */
  clear(): void {
    this.items.length = 0;
  }

  push(event: X11Event): void {
    this.items.push(event);
    this.wake?.();
  }

  /** The next event, or a rejection after `timeoutMs` or when `signal` aborts. */
  async next(timeoutMs: number, what: string, signal?: AbortSignal): Promise<X11Event> {
    const deadline = Date.now() + timeoutMs;
    while (!this.items.length) {
      if (signal?.aborted) throw new Error('stopped');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        const onAbort = () => done();
        function done() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }
        this.wake = done;
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      this.wake = undefined;
    }
    return this.items.shift()!;
  }
}
