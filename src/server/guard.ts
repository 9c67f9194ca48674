// The checks every request passes before a route sees it (docs/server.md "Security"): the Host header (against DNS
// rebinding), the address ban after repeated auth failures, a path of plain characters (so percent-encoding and dot
// segments cannot reach another route or skip auth), the Origin of state-changing requests (CORS stays closed: no
// Access-Control-Allow-Origin is ever sent), and the credential: the bearer token, its WebSocket subprotocol form
// `jarvis-code.bearer.<token>`, or the password (JARVIS_CODE_PASSWORD) as HTTP Basic.
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { ApiError, Codes } from './envelope';
import { sameSecret } from './serverToken';

export const BEARER_SUBPROTOCOL = 'jarvis-code.bearer.';
const BAN_FAILURES = 10;
const BAN_WINDOW_MS = 60_000;
const BAN_MS = 60_000;

export interface GuardOptions {
  token: string;
  password?: string;
  /** host:port forms the Host header may take (loopback names and the bound address). */
  allowedHosts: Set<string>;
  now?: () => number;
}

/**
 * The Host values this server answers to: the loopback names, the bound address (for a wildcard bind, every address
 * of this machine's interfaces) and names given with `--allow-host` (a reverse proxy's), each with the port.
 */
export function allowedHostsFor(host: string, port: number, extra: string[] = []): Set<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]', ...extra]);
  const bracket = (a: string) => (a.includes(':') ? `[${a}]` : a);
  if (host !== '0.0.0.0' && host !== '::') names.add(bracket(host));
  else
    for (const list of Object.values(networkInterfaces()))
      for (const a of list ?? []) if (host === '::' || a.family === 'IPv4') names.add(bracket(a.address));
  const out = new Set<string>();
  for (const n of names) out.add(`${n.toLowerCase()}:${port}`);
  return out;
}

/** Counts auth failures per address; 10 inside 60 s ban that address for 60 s (HTTP 429, code 42901). */
export class BanList {
  private readonly failures = new Map<string, number[]>();
  private readonly bannedUntil = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  check(address: string): void {
    const until = this.bannedUntil.get(address);
    if (until === undefined) return;
    if (this.now() < until) {
      const retry = Math.ceil((until - this.now()) / 1000);
      throw new ApiError(Codes.banned, `too many failed logins from ${address}; try again in ${retry} s`, 429, {
        retry_after_s: retry,
      });
    }
    this.bannedUntil.delete(address);
  }

  fail(address: string): void {
    const now = this.now();
    const recent = (this.failures.get(address) ?? []).filter((t) => now - t < BAN_WINDOW_MS);
    recent.push(now);
    if (recent.length >= BAN_FAILURES) {
      this.bannedUntil.set(address, now + BAN_MS);
      this.failures.delete(address);
    } else this.failures.set(address, recent);
  }
}

/** The request path if it is made of plain characters only; anything else is refused, never decoded. */
export function plainPath(rawUrl: string): { path: string; query: URLSearchParams } {
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
  if (!path.startsWith('/') || !/^[A-Za-z0-9._~:/-]*$/.test(path))
    throw new ApiError(
      Codes.pathEscape,
      'the path may hold only letters, digits and . _ ~ : / - (no percent-encoding, no backslash)',
      400,
    );
  const segments = path.split('/').slice(1);
  if (segments.some((s, i) => s === '.' || s === '..' || (s === '' && i < segments.length - 1)))
    throw new ApiError(Codes.pathEscape, 'the path may not hold empty, "." or ".." segments', 400);
  return { path, query };
}

export function checkHost(req: IncomingMessage, allowed: Set<string>): void {
  const host = req.headers.host?.toLowerCase();
  if (!host || !allowed.has(host))
    throw new ApiError(
      Codes.unauthorized,
      `Host ${JSON.stringify(req.headers.host ?? '')} is not this server's (DNS rebinding guard); use ${[...allowed][0]}`,
      403,
    );
}

/** Cross-site requests: an Origin that is not this server's is refused for anything but reading. */
export function checkOrigin(req: IncomingMessage, allowed: Set<string>, changes: boolean): void {
  const origin = req.headers.origin;
  if (origin === undefined || !changes) return;
  let host: string;
  try {
    const u = new URL(origin);
    host = u.protocol === 'http:' ? u.host.toLowerCase() : '';
  } catch {
    host = '';
  }
  if (!allowed.has(host))
    throw new ApiError(Codes.unauthorized, `cross-site request from ${origin} refused (CORS is closed)`, 403);
}

/** The credential of a request, or undefined. */
function credentialOf(req: IncomingMessage): { kind: 'bearer' | 'password'; value: string } | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return { kind: 'bearer', value: auth.slice(7).trim() };
  if (auth?.startsWith('Basic ')) {
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return { kind: 'password', value: colon < 0 ? decoded : decoded.slice(colon + 1) };
  }
  const protocols = req.headers['sec-websocket-protocol'];
  if (typeof protocols === 'string')
    for (const p of protocols.split(',').map((s) => s.trim()))
      if (p.startsWith(BEARER_SUBPROTOCOL)) return { kind: 'bearer', value: p.slice(BEARER_SUBPROTOCOL.length) };
  return undefined;
}

/** The browser's login cookie (webLogin.ts): its value, and whether it holds a live secret of this server. */
export interface CookieCheck {
  value(req: IncomingMessage): string | undefined;
  valid(secret: string): boolean;
}

/**
 * The cookie counts only on a same-origin request (docs/web.md "Login"): a POST or WebSocket must carry this server's
 * Origin (checkOrigin has refused a foreign one already), and a GET that says where it came from
 * (Sec-Fetch-Site) must come from this origin. SameSite=Strict keeps other sites from sending it at all.
 */
function cookieRequestAllowed(req: IncomingMessage, changes: boolean): boolean {
  if (changes && req.headers.origin === undefined) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
}

/**
 * Throws 401 (40101) unless the request carries the token or the password, or (`cookie` given) the web UI's login
 * cookie on a same-origin request (403 on a cross-site one); failures count toward a ban.
 */
export function authenticate(
  req: IncomingMessage,
  opts: GuardOptions,
  bans: BanList,
  address: string,
  cookie?: CookieCheck,
  changes = true,
): void {
  const cred = credentialOf(req);
  const ok =
    !!cred &&
    (cred.kind === 'bearer'
      ? sameSecret(cred.value, opts.token) || (!!opts.password && sameSecret(cred.value, opts.password))
      : !!opts.password && sameSecret(cred.value, opts.password));
  if (ok) return;
  const secret = !cred && cookie ? cookie.value(req) : undefined;
  if (secret !== undefined) {
    if (!cookieRequestAllowed(req, changes))
      throw new ApiError(Codes.unauthorized, "the login cookie is accepted only from the web UI's own page", 403);
    if (cookie!.valid(secret)) return;
    bans.fail(address);
    throw new ApiError(Codes.unauthorized, 'the login has ended; open a new link from `jarvis web`', 401);
  }
  bans.fail(address);
  throw new ApiError(
    Codes.unauthorized,
    cred ? 'the token is wrong' : 'this needs the token: Authorization: Bearer <token> (see `jarvis serve` output)',
    401,
  );
}
