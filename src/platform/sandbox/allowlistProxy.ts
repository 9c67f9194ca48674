// The network proxy of the command sandbox in allowlist mode (docs/sandbox.md#the-network-allowlist): a server on a
// Unix socket that a sandboxed command reaches through the bridge inside its network namespace (proxyBridge.ts).
// It tunnels `CONNECT host:port` and forwards absolute-URI plain-HTTP requests, to hosts in
// `[sandbox] allowed_domains` only. The host is checked before anything is resolved or connected; the name is
// resolved here and refused when it points at a link-local (cloud metadata) address not listed itself; the connection
// goes to the address that was checked. Bounded: connections at once, head size, time to send the head, idle time.
import { lookup as dnsLookup } from 'node:dns/promises';
import { rmSync } from 'node:fs';
import { createServer, connect, isIP, type Server, type Socket } from 'node:net';
import { hostNameProblem } from '../../types/domainRule';
import { addressListed, hostAllowed, isMetadataAddress, normalizeHost, type DomainRule } from './domainAllowlist';
import { parseProxyHead } from './proxyRequest';

export interface ProxyLimits {
  maxConnections: number;
  maxHeadBytes: number;
  headTimeoutMs: number;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
}

export const PROXY_LIMITS: Readonly<ProxyLimits> = Object.freeze({
  maxConnections: 128,
  maxHeadBytes: 16 * 1024,
  headTimeoutMs: 10_000,
  connectTimeoutMs: 10_000,
  idleTimeoutMs: 300_000,
});

/** Resolves a name to every address it has (dns.lookup with all: true by default). */
export type ProxyLookup = (host: string) => Promise<string[]>;

export interface Refusal {
  host: string;
  port: number;
  why: 'not listed' | 'metadata address';
  at: number;
}

export interface AllowlistProxyOptions {
  rules: readonly DomainRule[];
  socketPath: string;
  lookup?: ProxyLookup;
  limits?: Partial<ProxyLimits>;
}

const MAX_REFUSALS_KEPT = 64;
const HEAD_END = Buffer.from('\r\n\r\n');

const systemLookup: ProxyLookup = async (host) => (await dnsLookup(host, { all: true })).map((a) => a.address);

export class AllowlistProxy {
  readonly refusals: Refusal[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly limits: ProxyLimits;
  private readonly lookup: ProxyLookup;

  private constructor(
    private readonly server: Server,
    private readonly opts: AllowlistProxyOptions,
  ) {
    this.limits = { ...PROXY_LIMITS, ...opts.limits };
    this.lookup = opts.lookup ?? systemLookup;
  }

  /**
   * Listens on `socketPath` at once: a Unix socket is bound and listening when listen() returns, so the command
   * spawned next can connect. Throws with what failed when it cannot listen.
   */
  static listenSync(opts: AllowlistProxyOptions): AllowlistProxy {
    const server = createServer();
    const proxy = new AllowlistProxy(server, opts);
    server.on('connection', (socket) => proxy.accept(socket));
    let failure: Error | undefined;
    server.on('error', (e) => (failure = e));
    rmSync(opts.socketPath, { force: true });
    server.listen(opts.socketPath);
    if (!server.listening) {
      server.close();
      throw new Error(`the sandbox network proxy cannot listen on ${opts.socketPath}${failure ? `: ${failure}` : ''}`);
    }
    return proxy;
  }

  get socketPath(): string {
    return this.opts.socketPath;
  }

  /** Refusals at or after `since` (Date.now()), newest last. */
  refusedSince(since: number): Refusal[] {
    return this.refusals.filter((r) => r.at >= since);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.opts.socketPath, { force: true });
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy()); // the peer went away: the pair is torn down by 'close'
  }

  private clients = 0;

  private accept(client: Socket): void {
    this.track(client);
    this.clients++;
    client.on('close', () => this.clients--);
    if (this.clients > this.limits.maxConnections) {
      reply(client, 503, `too many connections through the sandbox network proxy (${this.limits.maxConnections})`);
      return;
    }
    client.setTimeout(this.limits.headTimeoutMs, () => reply(client, 408, 'the request head did not arrive in time'));
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf(HEAD_END);
      if (end < 0 && buffered.length <= this.limits.maxHeadBytes) return;
      client.off('data', onData);
      client.pause();
      if (end < 0 || end > this.limits.maxHeadBytes) {
        reply(client, 431, `the request head is larger than ${this.limits.maxHeadBytes} bytes`);
        return;
      }
      const head = buffered.subarray(0, end).toString('latin1');
      void this.handle(client, head, buffered.subarray(end + HEAD_END.length));
    };
    client.on('data', onData);
  }

  private async handle(client: Socket, head: string, rest: Buffer): Promise<void> {
    const request = parseProxyHead(head);
    if ('error' in request) return reply(client, request.status, `bad proxy request: ${request.error}`);
    const { port } = request;
    const host = normalizeHost(request.host);
    const problem = hostNameProblem(host);
    if (problem) return reply(client, 400, `bad proxy request: ${JSON.stringify(host.slice(0, 200))}: ${problem}`);
    if (!hostAllowed(this.opts.rules, host, port)) {
      this.refuse(host, port, 'not listed');
      return reply(client, 403, refusedText(host, port));
    }
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await this.lookup(host);
    } catch (e) {
      return reply(client, 502, `the sandbox network proxy could not resolve ${host}: ${(e as Error).message}`);
    }
    if (addresses.length === 0) return reply(client, 502, `${host} has no address`);
    const metadata = addresses.find((a) => isMetadataAddress(a) && !addressListed(this.opts.rules, a));
    if (metadata) {
      this.refuse(host, port, 'metadata address');
      return reply(client, 403, metadataText(host, metadata));
    }
    if (client.destroyed) return;
    client.setTimeout(0);
    const upstream = connect({ host: addresses[0], port });
    this.track(upstream);
    let connected = false;
    client.on('close', () => upstream.destroy());
    // Before the connection is made, a failure is said to the client; after it, one side closing closes the other.
    upstream.on('close', () => (connected ? client.destroy() : undefined));
    upstream.setTimeout(this.limits.connectTimeoutMs, () => {
      reply(client, 504, `${host}:${port} did not answer in time`);
      upstream.destroy();
    });
    upstream.once('error', (e) => {
      if (!connected) reply(client, 502, `the sandbox network proxy could not reach ${host}:${port}: ${e.message}`);
    });
    upstream.once('connect', () => {
      connected = true;
      upstream.removeAllListeners('timeout');
      for (const s of [client, upstream]) s.setTimeout(this.limits.idleTimeoutMs, () => s.destroy());
      upstream.pipe(client);
      if (request.kind === 'connect') {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (rest.length > 0) upstream.write(rest);
        client.pipe(upstream);
      } else {
        upstream.write(request.head, 'latin1');
        forwardBody(client, upstream, rest, request.bodyBytes);
      }
      client.resume();
    });
  }

  private refuse(host: string, port: number, why: Refusal['why']): void {
    this.refusals.push({ host, port, why, at: Date.now() });
    if (this.refusals.length > MAX_REFUSALS_KEPT) this.refusals.shift();
  }
}

/**
 * Sends exactly `bytes` of request body (what came with the head first) and nothing after it: a second request
 * pipelined on the same connection never reaches the server unchecked (docs/sandbox.md#the-network-allowlist).
 */
function forwardBody(client: Socket, upstream: Socket, first: Buffer, bytes: number): void {
  let left = bytes;
  const send = (chunk: Buffer) => {
    if (left > 0) upstream.write(chunk.subarray(0, left));
    left = Math.max(0, left - chunk.length);
  };
  send(first);
  client.on('data', send);
}

/** The 403 body for a host not in the list: the domain, and the key to change. */
export function refusedText(host: string, port: number): string {
  return (
    `The Jarvis command sandbox refused ${host}:${port}: ${host} is not in [sandbox] allowed_domains of ` +
    'config.toml (docs/sandbox.md). Ask the user to add it there if the command needs it.'
  );
}

function metadataText(host: string, address: string): string {
  return (
    `The Jarvis command sandbox refused ${host}: it resolves to ${address}, a link-local (cloud metadata) address. ` +
    'List that exact address in [sandbox] allowed_domains of config.toml to allow it (docs/sandbox.md).'
  );
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function reply(socket: Socket, status: number, text: string): void {
  if (socket.destroyed || !socket.writable) return void socket.destroy();
  const body = `${text}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.setTimeout(1_000, () => socket.destroy());
}
