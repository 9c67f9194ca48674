// How an entry of `[sandbox] allowed_domains` reads (docs/sandbox.md#the-network-allowlist): a host name
// (`registry.npmjs.org`), a wildcard over the names below a domain (`*.pythonhosted.org`), or an IP literal
// (`127.0.0.1`, `[::1]`), each with an optional `:port`. Here because both the config's validation (store) and the
// proxy (platform/sandbox/domainAllowlist.ts) read it.
import { isIP } from 'node:net';

export interface DomainRule {
  /** Lower-case, without a trailing dot; for a wildcard the suffix after `*.`; for IPv6 without brackets. */
  host: string;
  wildcard: boolean;
  /** Undefined: any port. */
  port?: number;
  /** The entry as written, for messages. */
  entry: string;
}

const LABEL = '[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?';
const NAME = new RegExp(`^(\\*\\.)?(${LABEL}(?:\\.${LABEL})*)\\.?(?::(\\d{1,5}))?$`, 'i');
const BRACKETED = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/i;
// A last label that makes a name an IPv4 address to URL parsers and getaddrinfo (`127.1`, `0x7f000001`, `0177.0.0.1`).
const NUMERIC_LABEL = /(?:^|\.)(?:\d+|0x[0-9a-f]*)\.?$/i;
const MAX_NAME = 253;
const PLAIN_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`, 'i');

/**
 * Why `host` (lower case, no port, no brackets, no trailing dot) is not a plain DNS name or a canonical IP
 * address, or undefined when it is one. Both the config (entries) and the proxy (requests) hold names to this,
 * so no spelling of an address (decimal, octal, hex, short forms) or of a name (non-ASCII, over-long) slips between
 * what is compared and what getaddrinfo would resolve (docs/sandbox.md#the-network-allowlist).
 */
export function hostNameProblem(host: string): string | undefined {
  if (isIP(host)) return undefined;
  if (host.length > MAX_NAME) return `a host name is at most ${MAX_NAME} characters`;
  if (NUMERIC_LABEL.test(host)) return 'a name ending in a number is an IP address; write it as a.b.c.d';
  if (!PLAIN_NAME.test(host)) {
    return /[^\x20-\x7e]/.test(host)
      ? 'not an ASCII host name (write international names in punycode, xn--…)'
      : 'not a host name or IP address';
  }
  return undefined;
}

/** The rule an entry stands for, or the reason it is not one (a config error names the entry with it). */
export function parseDomainRule(entry: string): DomainRule | { error: string } {
  const bracketed = BRACKETED.exec(entry);
  if (bracketed) {
    if (isIP(bracketed[1]) !== 6) return { error: `${bracketed[1]} is not an IPv6 address` };
    return withPort({ host: bracketed[1].toLowerCase(), wildcard: false, entry }, bracketed[2]);
  }
  if (isIP(entry) === 6) return { host: entry.toLowerCase(), wildcard: false, entry };
  const name = NAME.exec(entry);
  if (!name) {
    return { error: 'not a host name, wildcard or IP address' };
  }
  const host = name[2].toLowerCase();
  if (name[1] && isIP(host)) return { error: 'a wildcard over an IP address means nothing; list the address itself' };
  if (!isIP(host) && NUMERIC_LABEL.test(host)) {
    return { error: 'a name ending in a number is an IP address; list it as a.b.c.d' };
  }
  if (host.length > MAX_NAME) return { error: `a host name is at most ${MAX_NAME} characters` };
  if (name[1] && !host.includes('.')) {
    return { error: `*.${host} covers a whole top-level domain; name the domain below it (*.example.${host})` };
  }
  return withPort({ host, wildcard: Boolean(name[1]), entry }, name[3]);
}

function withPort(rule: DomainRule, port: string | undefined): DomainRule | { error: string } {
  if (port === undefined) return rule;
  const n = Number(port);
  if (n < 1 || n > 65_535) return { error: `port ${port} is not from 1 to 65535` };
  return { ...rule, port: n };
}
