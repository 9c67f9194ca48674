// The loopback WebSocket the Jarvis WebBridge browser extension connects to (docs/plugins-official.md,
// "The browser extension"). Three gates, in order: the handshake must come from the extension's own
// origin (chrome-extension://<its fixed id>), so no web page can connect; its first message must carry
// the pairing token (compared in constant time), so no other local process can drive the browser; and
// nothing is asked of a connection before it passed both. One paired extension at a time.
import { createHash, timingSafeEqual } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';

export const WEBBRIDGE_PROTOCOL = 'jarvis-webbridge.1';
/** Fixed by the `key` in the extension's manifest.json, so an unpacked copy has this id wherever it lies. */
export const WEBBRIDGE_EXTENSION_ID = 'aplnpadepfhihjaolldpoidbcjfkocgm';
export const DEFAULT_WEBBRIDGE_PORT = 47841;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const HELLO_WAIT_MS = 5_000;
/** The extension's service worker stays alive while messages pass at least every 30 s. */
const KEEPALIVE_MS = 20_000;
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export interface ExtensionBridgeOptions {
  port: number;
  token: string;
  /** How long a call waits for an extension that has not connected yet. */
  connectTimeoutMs: number;
  /** Where the unpacked extension is, for the "not installed" message. */
  extensionDir: string;
  origins?: string[];
}

type Refusal = 'not paired' | 'wrong token' | 'stopped';

const digest = (text: string) => createHash('sha256').update(text).digest();

export class ExtensionBridge {
  private server?: WebSocketServer;
  private listenError?: Error;
  private extension?: WebSocket;
  private refusal?: Refusal;
  private everConnected = false;
  private lastClose = '';
  private readonly waiters = new Set<() => void>();
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private keepalive?: NodeJS.Timeout;
  private readonly origins: string[];

  constructor(private readonly options: ExtensionBridgeOptions) {
    this.origins = options.origins ?? [`chrome-extension://${WEBBRIDGE_EXTENSION_ID}`];
  }

  get url(): string {
    return `ws://127.0.0.1:${this.options.port}/webbridge`;
  }

  /** Starts listening; a port already taken is kept as the error every call reports. */
  async listen(): Promise<void> {
    const server = new WebSocketServer({
      host: '127.0.0.1',
      port: this.options.port,
      path: '/webbridge',
      maxPayload: MAX_MESSAGE_BYTES,
      verifyClient: (info, done) => {
        if (this.origins.includes(info.origin)) return done(true);
        done(false, 403, 'Only the Jarvis WebBridge extension may connect');
      },
    });
    await new Promise<void>((resolve) => {
      server.once('listening', resolve);
      server.once('error', (e: NodeJS.ErrnoException) => {
        this.listenError = new Error(
          e.code === 'EADDRINUSE'
            ? `Port ${this.options.port} on 127.0.0.1 is taken (another Jarvis session using WebBridge?). ` +
                'Close it, or set another [webbridge] port in config.toml and pair the extension with that port.'
            : `WebBridge could not listen on 127.0.0.1:${this.options.port}: ${e.message}`,
        );
        resolve();
      });
    });
    if (this.listenError) return;
    this.server = server;
    server.on('connection', (socket) => this.greet(socket));
    this.keepalive = setInterval(() => this.extension?.send(JSON.stringify({ type: 'ping' })), KEEPALIVE_MS);
    this.keepalive.unref();
  }

  private greet(socket: WebSocket): void {
    const timer = setTimeout(() => socket.close(4002, 'no hello'), HELLO_WAIT_MS);
    socket.once('message', (data) => {
      clearTimeout(timer);
      let hello: { type?: unknown; token?: unknown; protocol?: unknown };
      try {
        hello = JSON.parse(String(data)) as typeof hello;
      } catch {
        return socket.close(4002, 'the first message must be the hello');
      }
      if (hello.type !== 'hello') return socket.close(4002, 'the first message must be the hello');
      if (typeof hello.token !== 'string' || !hello.token) return this.refuse(socket, 'not paired', 4003);
      if (!timingSafeEqual(digest(hello.token), digest(this.options.token)))
        return this.refuse(socket, 'wrong token', 4001);
      this.accept(socket);
    });
    socket.on('error', () => socket.terminate());
  }

  private refuse(socket: WebSocket, why: Refusal, code: number): void {
    this.refusal = why;
    socket.close(code, why === 'wrong token' ? 'wrong token: pair again' : 'not paired: paste the pairing token');
    this.wakeWaiters();
  }

  private accept(socket: WebSocket): void {
    this.extension?.close(1000, 'replaced by a newer connection');
    this.extension = socket;
    this.refusal = undefined;
    this.everConnected = true;
    let stopped = false;
    socket.on('message', (data) => {
      let message: { id?: unknown; result?: unknown; error?: unknown; type?: unknown };
      try {
        message = JSON.parse(String(data)) as typeof message;
      } catch {
        return;
      }
      if (message.type === 'stopped') stopped = true;
      if (typeof message.id !== 'number') return;
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (typeof message.error === 'string') waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.result);
    });
    socket.on('close', () => {
      if (this.extension !== socket) return;
      this.extension = undefined;
      if (stopped) this.refusal = 'stopped';
      this.lastClose = stopped
        ? 'The user stopped WebBridge from the extension popup; they can press Resume there to let the agent back in.'
        : 'The browser closed the WebBridge connection: the browser was closed, or the extension was reloaded.';
      for (const { reject } of this.pending.values()) reject(new Error(this.lastClose));
      this.pending.clear();
    });
    socket.send(JSON.stringify({ type: 'welcome', port: this.options.port }));
    this.wakeWaiters();
  }

  private wakeWaiters(): void {
    for (const wake of this.waiters) wake();
  }

  /** The paired extension, waiting up to the bound for one; otherwise why there is none. */
  private async connected(signal: AbortSignal): Promise<WebSocket> {
    if (this.listenError) throw this.listenError;
    const end = Date.now() + this.options.connectTimeoutMs;
    while (!this.extension && !this.refusal && Date.now() < end && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, end - Date.now());
        signal.addEventListener('abort', done, { once: true });
        this.waiters.add(done);
      });
    }
    if (signal.aborted) throw new Error('cancelled');
    if (this.extension) return this.extension;
    throw new Error(this.absence());
  }

  private absence(): string {
    const pair = 'Run `jarvis webbridge-pair` and paste the token it prints into the Jarvis WebBridge popup.';
    if (this.refusal === 'wrong token')
      return `The Jarvis WebBridge extension connected with a wrong pairing token, so it was refused. ${pair}`;
    if (this.refusal === 'not paired') return `The Jarvis WebBridge extension is installed but not paired. ${pair}`;
    if (this.refusal === 'stopped') return this.lastClose;
    const seconds = this.options.connectTimeoutMs / 1000;
    if (this.everConnected) return `${this.lastClose} It did not come back within ${seconds} s.`;
    return (
      `No Jarvis WebBridge extension connected to ${this.url} within ${seconds} s: the extension is not installed ` +
      `in a running browser, or is paired with another port. Install it with "Load unpacked" from ` +
      `${this.options.extensionDir} (docs/plugins-official.md), then pair it. ${pair} ` +
      'To attach over the DevTools port instead, set [browser] cdp_url.'
    );
  }

  /** Sends one request to the extension and waits for its answer. */
  async call(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const socket = await this.connected(signal);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        reject(new Error('cancelled'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
        reject: (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
      });
      socket.send(JSON.stringify({ id, method, params }));
    });
  }

  async close(): Promise<void> {
    clearInterval(this.keepalive);
    this.extension?.close(1001, 'the agent finished');
    const server = this.server;
    if (!server) return;
    for (const client of server.clients) client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
