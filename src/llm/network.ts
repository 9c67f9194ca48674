// Network settings shared by every model request: extra headers from JARVIS_CODE_CUSTOM_HEADERS and
// the proxy variables (HTTP(S)_PROXY, ALL_PROXY, NO_PROXY). The proxy machinery (undici) is imported
// only when a proxy variable is actually set, so nothing is loaded on the start path without one.

import type { Dispatcher } from 'undici';

type Env = Record<string, string | undefined>;

// RFC 9110 token: what a header name may be made of.
const HEADER_NAME_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses newline-separated `Name: Value` lines. Names and values are trimmed; a line without `:` (or
 * whose name is not a valid header name) is ignored; a later line for the same name wins.
 */
export function parseCustomHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of (text ?? '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    if (!HEADER_NAME_RE.test(name)) continue;
    setHeader(headers, name, line.slice(colon + 1).trim());
  }
  return headers;
}

function setHeader(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const key of Object.keys(headers)) if (key.toLowerCase() === lower) delete headers[key];
  headers[name] = value;
}

/** Merges header sets whose names compare case-insensitively; a later set wins. */
export function mergeHeaders(...layers: Array<Record<string, string> | undefined>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const layer of layers) for (const [name, value] of Object.entries(layer ?? {})) setHeader(merged, name, value);
  return merged;
}

const SOCKS_PROTOCOLS = new Set(['socks:', 'socks4:', 'socks4a:', 'socks5:', 'socks5h:']);

/** The first non-empty value among the given variables, with its name. */
function firstSet(env: Env, names: string[]): { variable: string; value: string } | undefined {
  for (const variable of names) {
    const value = env[variable]?.trim();
    if (value) return { variable, value };
  }
  return undefined;
}

const HTTP_PROXY_VARS = ['http_proxy', 'HTTP_PROXY'];
const HTTPS_PROXY_VARS = ['https_proxy', 'HTTPS_PROXY'];
const ALL_PROXY_VARS = ['all_proxy', 'ALL_PROXY'];
const NO_PROXY_VARS = ['no_proxy', 'NO_PROXY'];

/** Whether any proxy variable is set at all. */
export function hasProxyEnv(env: Env): boolean {
  return firstSet(env, [...HTTP_PROXY_VARS, ...HTTPS_PROXY_VARS, ...ALL_PROXY_VARS]) !== undefined;
}

function bareHost(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** localhost, 127.0.0.0/8 and ::1 never go through a proxy. */
export function isLoopbackHost(hostname: string): boolean {
  const host = bareHost(hostname);
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    host === '::1' ||
    host === '0:0:0:0:0:0:0:1'
  );
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/**
 * Whether NO_PROXY covers the URL. Entries are separated by commas or spaces; `*` covers everything;
 * `example.com` and `.example.com` cover the domain and its subdomains; `host:port` only that port.
 * IP addresses match exactly (CIDR ranges are not supported).
 */
export function noProxyCovers(url: URL, noProxy: string | undefined): boolean {
  const host = bareHost(url.hostname);
  const port = url.port || defaultPort(url.protocol);
  for (const raw of (noProxy ?? '').split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    let entryPort: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      entry = bracketed[1];
      entryPort = bracketed[2];
    } else {
      const withPort = /^([^:]+):(\d+)$/.exec(entry);
      if (withPort) {
        entry = withPort[1];
        entryPort = withPort[2];
      }
    }
    if (entryPort && entryPort !== port) continue;
    entry = entry.replace(/^\*?\./, '').replace(/\.$/, '');
    if (!entry) continue;
    if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}

/** A proxy URL with any credentials masked, for messages. */
function shown(value: string): string {
  return value.replace(/\/\/[^/@]*@/, '//***@');
}

export interface ProxyChoice {
  /** The environment variable the proxy came from. */
  variable: string;
  url: URL;
}

/**
 * The proxy a request to `target` should go through, or undefined for a direct connection.
 * Scheme-specific variables beat ALL_PROXY; NO_PROXY and loopback hosts bypass. Throws a clear error
 * for an invalid proxy URL and for SOCKS proxies, which are not supported yet.
 */
export function proxyFor(target: string | URL, env: Env): ProxyChoice | undefined {
  const url = typeof target === 'string' ? new URL(target) : target;
  if (isLoopbackHost(url.hostname)) return undefined;
  const specific = url.protocol === 'https:' ? HTTPS_PROXY_VARS : url.protocol === 'http:' ? HTTP_PROXY_VARS : [];
  const chosen = firstSet(env, [...specific, ...ALL_PROXY_VARS]);
  if (!chosen) return undefined;
  if (noProxyCovers(url, firstSet(env, NO_PROXY_VARS)?.value)) return undefined;
  const { variable, value } = chosen;
  // Like curl, a value without a scheme means an HTTP proxy.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let proxy: URL;
  try {
    proxy = new URL(text);
  } catch {
    throw new Error(
      `${variable} is not a valid proxy URL: "${shown(value)}". Use a URL such as http://proxy.example.com:8080, or unset ${variable}.`,
    );
  }
  if (SOCKS_PROTOCOLS.has(proxy.protocol)) {
    throw new Error(
      `${variable} names a SOCKS proxy (${shown(value)}): SOCKS proxies are not supported yet; use an HTTP proxy or unset ${variable}.`,
    );
  }
  if ((proxy.protocol !== 'http:' && proxy.protocol !== 'https:') || !proxy.hostname) {
    throw new Error(
      `${variable} is not a valid proxy URL: "${shown(value)}". Only http:// and https:// proxies are supported, such as http://proxy.example.com:8080.`,
    );
  }
  return { variable, url: proxy };
}

const agents = new Map<string, Dispatcher>();

/**
 * The fetch options (an undici dispatcher) that send requests for `target` through the configured
 * proxy, or undefined when they go direct. undici is loaded only when a proxy applies.
 */
export async function proxyFetchOptions(target: string, env: Env): Promise<{ dispatcher: Dispatcher } | undefined> {
  if (!hasProxyEnv(env)) return undefined;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return undefined; // a malformed base URL is reported by the request itself
  }
  const choice = proxyFor(url, env);
  if (!choice) return undefined;
  const key = choice.url.href;
  let dispatcher = agents.get(key);
  if (!dispatcher) {
    const undici = await import('undici');
    // Bundled, undici is a CommonJS module whose exports sit on `default`; unbundled, they are named too.
    const ProxyAgent = undici.ProxyAgent ?? (undici.default as unknown as typeof undici).ProxyAgent;
    // Plain-HTTP targets are sent to the proxy as absolute-URI requests, HTTPS ones through CONNECT.
    dispatcher = new ProxyAgent({ uri: key, proxyTunnel: false });
    agents.set(key, dispatcher);
  }
  return { dispatcher };
}
