// The loopback WebSocket the Jarvis WebBridge browser extension connects to (docs/plugins-official.md,
// "Pairing and who may connect"). Three gates, in order: the handshake must come from the extension's own
// origin (chrome-extension://<its fixed id>), so no web page can connect; then both sides prove they hold the
// pairing token without sending it (pairingProof.ts: the server first, so an impostor holding the port learns
// nothing), so no other local process can drive the browser or be driven by it; and nothing is asked of a
// connection before it passed both. One paired extension at a time: a newer connection replaces the older one,
// and the calls still waiting on the older one fail at once, saying so.
import type { WebSocket } from 'ws';
import { WebSocketServer } from 'ws';
import { runPairingHandshake, type Refusal } from './pairingHandshake';

/** Fixed by the `key` in the extension's manifest.json, so an unpacked copy has this id wherever it lies. */
export const WEBBRIDGE_EXTENSION_ID = 'aplnpadepfhihjaolldpoidbcjfkocgm';
export const DEFAULT_WEBBRIDGE_PORT = 47841;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
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

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** One admitted extension connection and the calls sent on it that wait for an answer. */
interface Connection {
  socket: WebSocket;
  pending: Map<number, Pending>;
}

export const REPLACED_CONNECTION =
  'The WebBridge connection this call was sent on was replaced by a newer one from the browser (the extension ' +
  'reconnected or was paired again) before the answer came. Whether the browser did it is unknown: check ' +
  '(list_tabs, get_tab_content) before calling it again.';

export class ExtensionBridge {
  private server?: WebSocketServer;
  private listenError?: Error;
  private connection?: Connection;
  private refusal?: Refusal;
  /** Connections still in the pairing handshake: a call waits for their outcome rather than an older refusal. */
  private handshaking = 0;
  private everConnected = false;
  private lastClose = '';
  private readonly waiters = new Set<() => void>();
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
    this.keepalive = setInterval(() => this.connection?.socket.send(JSON.stringify({ type: 'ping' })), KEEPALIVE_MS);
    this.keepalive.unref();
  }

  /** A new connection: admitted only once the pairing handshake (pairingHandshake.ts) succeeds. */
  private greet(socket: WebSocket): void {
    this.handshaking++;
    runPairingHandshake(socket, this.options.token, this.options.port, {
      admitted: (admitted) => this.accept(admitted),
      refused: (why) => (this.refusal = why),
      ended: () => {
        this.handshaking--;
        this.wakeWaiters();
      },
    });
  }

  private accept(socket: WebSocket): void {
    const previous = this.connection;
    const connection: Connection = { socket, pending: new Map() };
    this.connection = connection;
    if (previous) {
      failAll(previous, REPLACED_CONNECTION);
      previous.socket.close(1000, 'replaced by a newer connection');
    }
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
      const waiting = connection.pending.get(message.id);
      connection.pending.delete(message.id);
      if (typeof message.error === 'string') waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.result);
    });
    socket.on('close', () => {
      if (this.connection !== connection) return failAll(connection, REPLACED_CONNECTION);
      this.connection = undefined;
      if (stopped) this.refusal = 'stopped';
      this.lastClose = stopped
        ? 'The user stopped WebBridge from the extension popup; they can press Resume there to let the agent back in.'
        : 'The browser closed the WebBridge connection: the browser was closed, or the extension was reloaded.';
      failAll(connection, this.lastClose);
    });
    socket.send(JSON.stringify({ type: 'welcome', port: this.options.port }));
    this.wakeWaiters();
  }

  private wakeWaiters(): void {
    for (const wake of this.waiters) wake();
  }

  /** The paired extension, waiting up to the bound for one; otherwise why there is none. */
  private async connected(signal: AbortSignal): Promise<Connection> {
    if (this.listenError) throw this.listenError;
    const end = Date.now() + this.options.connectTimeoutMs;
    while (!this.connection && (!this.refusal || this.handshaking > 0) && Date.now() < end && !signal.aborted) {
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
    if (this.connection) return this.connection;
    throw new Error(this.absence());
  }

  private absence(): string {
    const pair = 'Run `jarvis webbridge-pair` and paste the token it prints into the Jarvis WebBridge popup.';
    if (this.refusal === 'wrong token')
      return `The Jarvis WebBridge extension connected with a wrong pairing token, so it was refused. ${pair}`;
    if (this.refusal === 'not paired') return `The Jarvis WebBridge extension is installed but not paired. ${pair}`;
    if (this.refusal === 'outdated')
      return (
        'The Jarvis WebBridge extension in the browser is an older version that pairs by sending its token; it was ' +
        `refused. Reload it in chrome://extensions (its folder: ${this.options.extensionDir}), then pair it. ${pair}`
      );
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

  /** Sends one request to the extension and waits for its answer (or for its connection to end). */
  async call(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const { socket, pending } = await this.connected(signal);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        pending.delete(id);
        reject(new Error('cancelled'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      pending.set(id, {
        resolve: (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
        reject: (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
      });
      socket.send(JSON.stringify({ id, method, params }), (e) => {
        if (!e || !pending.has(id)) return;
        pending.get(id)!.reject(new Error(`The request could not be sent to the WebBridge extension: ${e.message}`));
        pending.delete(id);
      });
    });
  }

  async close(): Promise<void> {
    clearInterval(this.keepalive);
    this.connection?.socket.close(1001, 'the agent finished');
    const server = this.server;
    if (!server) return;
    for (const client of server.clients) client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Fails every call still waiting on `connection`, with `why`. */
function failAll(connection: Connection, why: string): void {
  for (const { reject } of connection.pending.values()) reject(new Error(why));
  connection.pending.clear();
}
