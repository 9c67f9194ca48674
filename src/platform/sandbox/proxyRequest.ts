// The head of one request to the sandbox's network proxy (docs/sandbox.md#the-network-allowlist), read strictly:
// `CONNECT host:port` (a tunnel) or a plain-HTTP request with an absolute URI (`GET http://host/path`). Anything
// else is a 400 that says what was wrong, before any name is resolved or any connection made.

export type ProxyRequest =
  | { kind: 'connect'; host: string; port: number }
  /**
   * `head` is the request to send upstream: origin-form target, Host of the target, `Connection: close`; then
   * exactly `bodyBytes` bytes of body (its Content-Length) and nothing more from the client.
   */
  | { kind: 'http'; host: string; port: number; head: string; bodyBytes: number };

export interface ProxyRequestError {
  status: 400 | 405 | 411;
  error: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;
// Hop-by-hop headers of the client's connection to the proxy; never forwarded.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'upgrade']);

/** Parses a request head (the bytes before the first empty line, without it). */
export function parseProxyHead(head: string): ProxyRequest | ProxyRequestError {
  const lines = head.split('\r\n');
  const parts = lines[0].split(' ');
  if (parts.length !== 3 || !TOKEN.test(parts[0]) || !/^HTTP\/1\.[01]$/.test(parts[2])) {
    return bad(`malformed request line ${JSON.stringify(lines[0].slice(0, 200))}`);
  }
  const [method, target, version] = parts;
  const headers: Array<[string, string]> = [];
  for (const line of lines.slice(1)) {
    const m = HEADER.exec(line);
    if (!m) return bad(`malformed header line ${JSON.stringify(line.slice(0, 200))}`);
    headers.push([m[1], m[2]]);
  }
  const hosts = headers.filter(([n]) => n.toLowerCase() === 'host');
  if (version === 'HTTP/1.1' && hosts.length !== 1) return bad('an HTTP/1.1 request needs exactly one Host header');
  if (method === 'CONNECT') {
    const authority = parseAuthority(target);
    return 'error' in authority ? bad(`CONNECT ${target.slice(0, 200)}: ${authority.error}`) : authority;
  }
  if (!/^http:\/\//i.test(target)) {
    if (/^https:\/\//i.test(target)) return bad('send https:// requests through a CONNECT tunnel');
    return bad('this is a proxy: send CONNECT host:port, or an absolute http:// URI');
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return bad(`${target.slice(0, 200)} is not a valid URL`);
  }
  if (url.username || url.password) return bad('credentials in the URL are not forwarded');
  const body = bodyLength(headers);
  if (typeof body !== 'number') return body;
  const port = url.port ? Number(url.port) : 80;
  if (port < 1) return bad(`port ${url.port} is not from 1 to 65535`);
  const kept = headers.filter(([n]) => n.toLowerCase() !== 'host' && !HOP_BY_HOP.has(n.toLowerCase()));
  const out = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  for (const [n, v] of kept) out.push(`${n}: ${v}`);
  out.push('Connection: close', '', '');
  return { kind: 'http', host: url.hostname, port, head: out.join('\r\n'), bodyBytes: body };
}

/**
 * The body length of a plain-HTTP request: its one Content-Length, or 0. A request whose framing the proxy and
 * the server could read differently (Transfer-Encoding, several or malformed Content-Length) is refused, so no second
 * request can ride in a body to the same server unchecked; chunked uploads go through a CONNECT tunnel instead.
 */
function bodyLength(headers: ReadonlyArray<[string, string]>): number | ProxyRequestError {
  if (headers.some(([n]) => n.toLowerCase() === 'transfer-encoding')) {
    return {
      status: 411,
      error: 'Transfer-Encoding is not forwarded on plain-HTTP requests: send a Content-Length, or use https',
    };
  }
  const lengths = headers.filter(([n]) => n.toLowerCase() === 'content-length').map(([, v]) => v);
  if (lengths.length === 0) return 0;
  if (lengths.length > 1) return bad('more than one Content-Length header');
  if (!/^\d{1,15}$/.test(lengths[0]))
    return bad(`Content-Length ${JSON.stringify(lengths[0].slice(0, 40))} is not a number`);
  return Number(lengths[0]);
}

/** `host:port` of a CONNECT request; the port is required and from 1 to 65535; IPv6 in brackets. */
export function parseAuthority(target: string): { kind: 'connect'; host: string; port: number } | { error: string } {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[^\s:[\]/@]+):(\d{1,5})$/.exec(target);
  if (!m) return { error: 'expected host:port' };
  const port = Number(m[2]);
  if (port < 1 || port > 65_535) return { error: `port ${m[2]} is not from 1 to 65535` };
  return { kind: 'connect', host: m[1], port };
}

function bad(error: string): ProxyRequestError {
  return { status: 400, error };
}
