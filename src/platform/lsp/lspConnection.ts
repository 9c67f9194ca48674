// JSON-RPC 2.0 over a language server's stdio with LSP's `Content-Length` framing (docs/lsp.md). Our own small
// framing instead of vscode-jsonrpc: the client needs requests, notifications and a few server requests, nothing more.
import type { Readable, Writable } from 'node:stream';

export type LspNotificationHandler = (method: string, params: unknown) => void;
/** Answers a request the server sends the client (workspace/configuration…); undefined means "method not found". */
export type LspServerRequestHandler = (method: string, params: unknown) => { result: unknown } | undefined;

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** A message larger than this is a broken stream, not a real answer (a workspace/symbol list is well under it). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export class LspConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedWith: Error | undefined;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly onNotification: LspNotificationHandler,
    private readonly onServerRequest: LspServerRequestHandler,
  ) {
    input.on('data', (chunk: Buffer) => this.receive(chunk));
    output.on('error', (e: Error) => this.close(new Error(`writing to the server failed: ${e.message}`)));
  }

  request<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        this.send({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } });
        reject(new Error(`${method} was cancelled`));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        method,
        resolve: (v) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(v as T);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    if (!this.closedWith) this.send({ jsonrpc: '2.0', method, params });
  }

  /** Fails every waiting request with `error`; later calls fail at once. */
  close(error: Error): void {
    if (this.closedWith) return;
    this.closedWith = error;
    for (const p of this.pending.values()) p.reject(new Error(`${p.method}: ${error.message}`));
    this.pending.clear();
  }

  private send(message: object): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.output.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    // Each pass takes one whole message off the front; it ends when the buffer holds no complete one.
    while (!this.closedWith) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const match = /^content-length:\s*(\d+)\s*$/im.exec(header);
      const length = match ? Number(match[1]) : NaN;
      if (!Number.isSafeInteger(length) || length > MAX_MESSAGE_BYTES) {
        this.close(
          new Error(`the server sent a message without a valid Content-Length header: ${header.slice(0, 200)}`),
        );
        return;
      }
      const start = headerEnd + 4;
      if (this.buffer.length < start + length) return;
      const body = this.buffer.subarray(start, start + length).toString('utf8');
      this.buffer = this.buffer.subarray(start + length);
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(body) as Record<string, unknown>;
      } catch (e) {
        this.close(new Error(`the server sent a message that is not JSON (${(e as Error).message})`));
        return;
      }
      this.dispatch(message);
    }
  }

  private dispatch(message: Record<string, unknown>): void {
    const { id, method } = message;
    if (typeof method === 'string' && id !== undefined) {
      const answer = this.onServerRequest(method, message.params);
      this.send(
        answer
          ? { jsonrpc: '2.0', id, result: answer.result ?? null }
          : { jsonrpc: '2.0', id, error: { code: -32601, message: `${method} is not supported by this client` } },
      );
      return;
    }
    if (typeof method === 'string') {
      this.onNotification(method, message.params);
      return;
    }
    if (typeof id !== 'number') return;
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    const error = message.error as { message?: string; code?: number } | undefined;
    if (error) pending.reject(new Error(`${pending.method} failed: ${error.message ?? 'error ' + String(error.code)}`));
    else pending.resolve(message.result);
  }
}
