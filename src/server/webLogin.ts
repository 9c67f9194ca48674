// How a browser gets into the web UI (docs/web.md "Login"): the process that runs the server mints one-time codes
// (32 random bytes, single use, 5 minutes); the link carries one in its fragment (`/#login=<code>`), so it never
// reaches a server log or a proxy. The page exchanges it at POST /api/v1/auth/session for a cookie
// `jarvis_web_<port>` holding a per-server secret (32 random bytes, in memory only: it dies with the server, and it
// is never the token). The cookie is a credential only together with a same-origin request (guard.ts).
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const LOGIN_CODE_TTL_MS = 5 * 60_000;
export const COOKIE_MAX_AGE_S = 86_400;
/** Codes not yet used at once; minting more drops the oldest (each is single use and short-lived anyway). */
const MAX_OPEN_CODES = 100;
const MAX_SESSIONS = 1000;

const digest = (secret: string) => createHash('sha256').update(secret).digest('base64url');

export class WebLogin {
  /** sha256 of each open code → its expiry. Looked up by hash, so no comparison works on the secret itself. */
  private readonly codes = new Map<string, number>();
  private readonly sessions = new Map<string, number>();

  constructor(
    private readonly port: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  get cookieName(): string {
    return `jarvis_web_${this.port()}`;
  }

  mintCode(): { code: string; expiresAt: number } {
    this.prune();
    while (this.codes.size >= MAX_OPEN_CODES) this.codes.delete(this.codes.keys().next().value as string);
    const code = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + LOGIN_CODE_TTL_MS;
    this.codes.set(digest(code), expiresAt);
    return { code, expiresAt };
  }

  /** The cookie's secret for a good code, which is used up; undefined for an unknown, used or expired code. */
  exchange(code: string): { secret: string; expiresAt: number } | undefined {
    this.prune();
    const key = digest(code);
    const expiry = this.codes.get(key);
    this.codes.delete(key);
    if (expiry === undefined || expiry <= this.now()) return undefined;
    while (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    const secret = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + COOKIE_MAX_AGE_S * 1000;
    this.sessions.set(digest(secret), expiresAt);
    return { secret, expiresAt };
  }

  /** The value of this server's cookie in the request, if it sent one. */
  cookieOf(req: IncomingMessage): string | undefined {
    const header = req.headers.cookie;
    if (!header) return undefined;
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === this.cookieName) return part.slice(eq + 1).trim();
    }
    return undefined;
  }

  valid(secret: string): boolean {
    const expiry = this.sessions.get(digest(secret));
    return expiry !== undefined && expiry > this.now();
  }

  logout(secret: string): void {
    this.sessions.delete(digest(secret));
  }

  setCookie(secret: string): string {
    return `${this.cookieName}=${secret}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${COOKIE_MAX_AGE_S}`;
  }

  clearCookie(): string {
    return `${this.cookieName}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
  }

  private prune(): void {
    const now = this.now();
    for (const [k, t] of this.codes) if (t <= now) this.codes.delete(k);
    for (const [k, t] of this.sessions) if (t <= now) this.sessions.delete(k);
  }
}
