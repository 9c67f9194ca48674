// The managed browser's only way out (docs/browser.md "Network safety"): a loopback HTTP proxy that every
// connection of the browser goes through — page loads, subresources, iframes, form posts, redirects,
// meta refreshes, WebSockets (CONNECT or an absolute-form Upgrade) and WebRTC over TCP (Chromium is told
// to send no UDP outside the proxy). Each connection's target is checked with the same rules as FetchURL
// before anything is sent to it; a refused target is never connected to. Request interception in the
// browser (browserSession.ts) gives a friendlier error first; this proxy is what holds when it is missed.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIP, type AddressInfo, type LookupFunction, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface RequestProxyOptions {
  /** Why a connection to `url` is refused, or undefined when it may be made (the browser's checkRequest). */
  check(url: string): Promise<string | undefined>;
  /** Resolves a host name for the proxy's own connections (e.g. one that checks every address it returns). */
  lookup?: LookupFunction;
}

export interface RequestProxy {
  /** `http://127.0.0.1:PORT` */
  url: string;
  close(): Promise<void>;
}

/** `host:port` of a CONNECT request, IPv6 in brackets; undefined when it is not that shape. */
function splitAuthority(authority: string): { host: string; port: number } | undefined {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  if (!m) return undefined;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: m[1].replace(/^\[|\]$/g, ''), port } : undefined;
}

/** How a target is named to `check`: a URL, as the web tools see one. */
function urlOf(scheme: 'http' | 'https', host: string, port: number, path = '/'): string {
  const shownHost = isIP(host) === 6 ? `[${host}]` : host;
  return `${scheme}://${shownHost}:${port}${path}`;
}

function refuse(socket: Duplex, why: string): void {
  const body = `Refused by Jarvis: ${why}\n`;
  const length = `content-length: ${Buffer.byteLength(body)}`;
  const head = ['HTTP/1.1 403 Forbidden', 'content-type: text/plain', length, 'connection: close'];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** Pipes two sockets together until either ends; an error on one ends both. */
function splice(a: Duplex, b: Socket): void {
  a.pipe(b).pipe(a);
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', end);
  b.on('error', end);
  a.on('close', end);
  b.on('close', end);
}

/** Headers of an incoming request without the proxy's own (hop-by-hop for the proxy). */
function forwardedHeaders(req: IncomingMessage): string[] {
  const raw = req.rawHeaders;
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (/^proxy-/i.test(raw[i])) continue;
    out.push(raw[i], raw[i + 1]);
  }
  return out;
}

/** `check`, with a check that fails counted as a refusal that says what failed (fail closed). */
function checker(opts: RequestProxyOptions): (url: string) => Promise<string | undefined> {
  return (url) =>
    opts.check(url).catch((e: unknown) => {
      const why = e instanceof Error ? e.message : String(e);
      return `the address check of ${url} failed (${why})`;
    });
}

export async function startRequestProxy(options: RequestProxyOptions): Promise<RequestProxy> {
  const opts = { ...options, check: checker(options) };
  const lookup = opts.lookup ? { lookup: opts.lookup } : {};
  const tunnels = new Set<Duplex>();
  const track = (socket: Duplex) => {
    tunnels.add(socket);
    socket.on('close', () => tunnels.delete(socket));
  };

  /** A plain-HTTP request in absolute form (`GET http://host/path`). */
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const target = URL.canParse(req.url ?? '') ? new URL(req.url ?? '') : undefined;
    if (!target || target.protocol !== 'http:') {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('Refused by Jarvis: only absolute http:// requests and CONNECT are proxied\n');
      return;
    }
    const port = Number(target.port || 80);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    void opts.check(urlOf('http', host, port, target.pathname + target.search)).then((why) => {
      if (why) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end(`Refused by Jarvis: ${why}\n`);
        req.resume();
        return;
      }
      const upstream = httpRequest(
        {
          host,
          port,
          method: req.method,
          path: target.pathname + target.search,
          headers: forwardedHeaders(req),
          ...lookup,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
          answer.pipe(res);
        },
      );
      upstream.on('error', (e) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`Jarvis proxy: ${target.host} could not be reached: ${e.message}\n`);
      });
      req.pipe(upstream);
    });
  };

  /** A tunnel (`CONNECT host:port`): HTTPS, and WebSockets through a proxy. */
  const onConnect = (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    const target = splitAuthority(req.url ?? '');
    if (!target) return refuse(client, `"${req.url}" is not a host:port to connect to`);
    void opts.check(urlOf(target.port === 443 ? 'https' : 'http', target.host, target.port)).then((why) => {
      if (why) return refuse(client, why);
      const upstream = connect({ host: target.host, port: target.port, ...lookup });
      track(upstream);
      upstream.once('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) upstream.write(head);
        splice(client, upstream);
      });
      upstream.once('error', (e) => refuse(client, `${req.url} could not be reached: ${e.message}`));
    });
  };

  /** An Upgrade (WebSocket) sent in absolute form instead of through CONNECT. */
  const onUpgrade = (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    const target = URL.canParse(req.url ?? '') ? new URL(req.url ?? '') : undefined;
    if (!target || (target.protocol !== 'http:' && target.protocol !== 'ws:')) {
      return refuse(client, 'only absolute http:// upgrades are proxied');
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const port = Number(target.port || 80);
    void opts.check(urlOf('http', host, port, target.pathname + target.search)).then((why) => {
      if (why) return refuse(client, why);
      const upstream = connect({ host, port, ...lookup });
      track(upstream);
      upstream.once('connect', () => {
        const headers = forwardedHeaders(req);
        const lines = [`${req.method} ${target.pathname + target.search} HTTP/1.1`];
        for (let i = 0; i < headers.length; i += 2) lines.push(`${headers[i]}: ${headers[i + 1]}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length) upstream.write(head);
        splice(client, upstream);
      });
      upstream.once('error', (e) => refuse(client, `${target.host} could not be reached: ${e.message}`));
    });
  };

  const server = createServer(onRequest);
  server.on('connect', onConnect);
  server.on('upgrade', onUpgrade);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const socket of tunnels) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
