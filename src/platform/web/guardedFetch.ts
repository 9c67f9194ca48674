// HTTP GET for the web tools with the network-safety rules built in: every hop of a redirect chain is
// checked before it is contacted, host names are resolved and every resolved address is checked, and
// the connection then goes to exactly the address that was checked (a second, different DNS answer
// cannot slip in between). undici is loaded on first use, never on the start path.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { Agent, Dispatcher } from 'undici';
import { blockedAddressReason, ipLiteralOf } from './addressPolicy';

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const defaultResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export const MAX_REDIRECTS = 10;
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface GuardedFetchOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Bytes of body read at most; the rest is dropped and `truncated` is set. */
  maxBytes: number;
  /** `[web] allow_private_network`: skip the address checks. */
  allowPrivateNetwork?: boolean;
  /**
   * Hosts the user named themselves (a configured base URL): their addresses are not checked. Every other
   * host of the chain, redirects included, is (plugin installs: JARVIS_CODE_GITHUB_URL trusts that host only).
   */
  trustedHost?(url: URL): boolean;
  resolver?: Resolver;
  /** Sent to the target's origin only: a redirect to another origin drops them (tokens, cookies, Authorization). */
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** Where a redirect may lead (plugin installs: only GitHub's own hosts); a refused hop is never contacted. */
  redirectAllowed?(next: URL): boolean;
  /** A proxy dispatcher for this URL, when one applies (addresses are still checked before it is used). */
  proxyFor?(url: string): Promise<Dispatcher | undefined>;
}

export interface FetchedResponse {
  status: number;
  statusText: string;
  headers: Headers;
  /** The URL that answered, after redirects. */
  url: string;
  body: Buffer;
  /** The body was longer than maxBytes. */
  truncated: boolean;
}

/** A URL the safety rules do not allow; nothing was sent to it. */
export class UrlRefusedError extends Error {}

function refusal(url: string, address: string, reason: string): UrlRefusedError {
  return new UrlRefusedError(
    `Refused to fetch ${url}: ${address} is a ${reason} address. Web tools only contact public internet addresses ` +
      '(set [web] allow_private_network = true in config.toml to allow private and local ones).',
  );
}

/** Checks a URL before it is contacted; returns nothing or throws UrlRefusedError. */
export async function checkUrl(url: URL, opts: { allowPrivateNetwork?: boolean; resolver?: Resolver }): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UrlRefusedError(`Refused to fetch ${url.href}: only http and https URLs are supported.`);
  }
  if (opts.allowPrivateNetwork) return;
  const literal = ipLiteralOf(url);
  if (literal !== undefined) {
    const reason = blockedAddressReason(literal);
    if (reason) throw refusal(url.href, literal, reason);
    return;
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) throw refusal(url.href, host, 'loopback');
  await checkedAddresses(url.hostname, url.href, opts.resolver ?? defaultResolver);
}

async function checkedAddresses(hostname: string, href: string, resolver: Resolver): Promise<LookupAddress[]> {
  let addresses: LookupAddress[];
  try {
    addresses = await resolver(hostname.replace(/^\[|\]$/g, ''));
  } catch (e) {
    throw new Error(`Could not resolve ${hostname}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (addresses.length === 0) throw new Error(`Could not resolve ${hostname}: no addresses`);
  for (const { address } of addresses) {
    const reason = blockedAddressReason(address);
    if (reason) throw refusal(href, `${hostname} (${address})`, reason);
  }
  return addresses;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

let undiciModule: Promise<typeof import('undici')> | undefined;
async function loadUndici(): Promise<typeof import('undici')> {
  undiciModule ??= import('undici').then((m) =>
    m.Agent ? m : (m as unknown as { default: typeof import('undici') }).default,
  );
  return undiciModule;
}

/**
 * A `net`-style lookup that resolves with `resolver` and answers only when every address is allowed
 * (refused: an error with code EREFUSED_BY_POLICY, whose cause chain holds the UrlRefusedError).
 */
export function checkedLookup(resolver: Resolver = defaultResolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    checkedAddresses(hostname, hostname, resolver).then(
      (addresses) =>
        options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family),
      (err: Error) => callback(Object.assign(err, { code: 'EREFUSED_BY_POLICY' }), ''),
    );
  };
}

/** An undici agent whose DNS lookup only ever returns checked addresses. */
async function guardedAgent(resolver: Resolver): Promise<Agent> {
  const { Agent } = await loadUndici();
  return new Agent({ connect: { lookup: checkedLookup(resolver) } });
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Caller headers that carry no credential and may follow a redirect to another origin. */
const PORTABLE_HEADERS = new Set(['accept', 'accept-language', 'user-agent']);

/** The caller's headers for a hop to `next`: all of them on the first origin, only PORTABLE_HEADERS elsewhere. */
function headersFor(
  headers: Record<string, string> | undefined,
  origin: string,
  next: URL,
): Record<string, string> | undefined {
  if (!headers || next.origin === origin) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => PORTABLE_HEADERS.has(name.toLowerCase())));
}

async function readCapped(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  if (!response.body) return { body: Buffer.alloc(0), truncated: false };
  const reader = response.body.getReader();
  try {
    for (;;) {
      signal.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) return { body: Buffer.concat(chunks), truncated: false };
      const room = maxBytes - size;
      if (value.byteLength > room) {
        chunks.push(Buffer.from(value.buffer, value.byteOffset, room));
        await reader.cancel().catch(() => undefined);
        return { body: Buffer.concat(chunks), truncated: true };
      }
      chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
      size += value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
}

function unwrapRefusal(e: unknown): unknown {
  let cause: unknown = e;
  for (let i = 0; i < 5 && cause instanceof Error; i++) {
    if (cause instanceof UrlRefusedError) return cause;
    cause = cause.cause;
  }
  return e;
}

/**
 * GET (or POST) `target`, following at most MAX_REDIRECTS redirects, each checked before contact.
 * Throws UrlRefusedError for a refused URL, and a plain Error naming the URL on timeout.
 */
export async function guardedFetch(target: string, opts: GuardedFetchOptions): Promise<FetchedResponse> {
  const resolver = opts.resolver ?? defaultResolver;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const { fetch } = await loadUndici();
  const direct = opts.allowPrivateNetwork ? undefined : await guardedAgent(resolver);
  let url = new URL(target);
  const origin = url.origin;
  let method = opts.method ?? 'GET';
  let body = opts.body;
  try {
    for (let hop = 0; ; hop++) {
      const trusted = opts.allowPrivateNetwork || opts.trustedHost?.(url) === true;
      await checkUrl(url, { allowPrivateNetwork: trusted, resolver });
      const dispatcher = (await opts.proxyFor?.(url.href)) ?? (trusted ? undefined : direct);
      const headers = headersFor(opts.headers, origin, url);
      const via = dispatcher ? { dispatcher } : {};
      const response = await fetch(url.href, { method, body, headers, redirect: 'manual', signal, ...via });
      const location = response.headers.get('location');
      if (REDIRECT_STATUSES.has(response.status) && location) {
        await response.body?.cancel().catch(() => undefined);
        if (hop >= MAX_REDIRECTS)
          throw new Error(`Too many redirects: ${target} redirected more than ${MAX_REDIRECTS} times.`);
        const next = new URL(location, url);
        if (opts.redirectAllowed && !opts.redirectAllowed(next))
          throw new UrlRefusedError(
            `Refused to follow the redirect from ${url.href} to ${next.href}: that host is not allowed here.`,
          );
        url = next;
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const read = await readCapped(response as unknown as Response, opts.maxBytes, signal);
      return {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers as unknown as Headers,
        url: url.href,
        ...read,
      };
    }
  } catch (e) {
    if (timeout.aborted && !opts.signal?.aborted)
      throw new Error(`Timed out after ${timeoutMs / 1000} s fetching ${url.href}.`);
    throw unwrapRefusal(e);
  } finally {
    void direct?.close().catch(() => undefined);
  }
}
