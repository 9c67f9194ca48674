// `[sandbox] allowed_domains`: which hosts the network proxy of the command sandbox lets a sandboxed command reach
// (docs/sandbox.md#the-network-allowlist). An entry is a host name (`registry.npmjs.org`), a wildcard over the
// names below a domain (`*.pythonhosted.org`: `files.pythonhosted.org`, not `pythonhosted.org`), or an IP literal
// (`127.0.0.1`, `[::1]`); each may end in `:port`. Without a port an entry allows every port; with one, only that
// port. Names compare case-insensitively with a trailing dot stripped. An IP literal is allowed only when it is
// listed exactly: a name never allows an address, and a wildcard never matches one.
import { isIP } from 'node:net';
import { parseDomainRule, type DomainRule } from '../../types/domainRule';

export { parseDomainRule, type DomainRule };

/** The rules of a validated list (config validation has already refused bad entries). */
export function parseDomainRules(entries: readonly string[]): DomainRule[] {
  return entries.map((entry) => {
    const rule = parseDomainRule(entry);
    if ('error' in rule) throw new Error(`[sandbox] allowed_domains: "${entry}": ${rule.error}`);
    return rule;
  });
}

/** A host as a request names it, compared form: lower case, no trailing dot, IPv6 without brackets. */
export function normalizeHost(host: string): string {
  let h = host.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/** Whether `host:port` is allowed by one of `rules`. */
export function hostAllowed(rules: readonly DomainRule[], host: string, port: number): boolean {
  const h = normalizeHost(host);
  const ip = isIP(h) !== 0;
  return rules.some((r) => {
    if (r.port !== undefined && r.port !== port) return false;
    if (r.wildcard) return !ip && h.endsWith(`.${r.host}`);
    return r.host === h;
  });
}

/** Whether an address the host resolved to was listed exactly (the one way to reach a metadata address). */
export function addressListed(rules: readonly DomainRule[], address: string): boolean {
  const a = normalizeHost(address);
  return rules.some((r) => !r.wildcard && r.host === a);
}

/**
 * Link-local addresses, where clouds answer with instance credentials (169.254.169.254, fd00:ec2::254): a listed
 * name that resolves to one is refused, unless the address itself is listed.
 */
export function isMetadataAddress(address: string): boolean {
  let a = normalizeHost(address);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) a = mapped[1];
  if (isIP(a) === 4) return a.startsWith('169.254.');
  if (isIP(a) !== 6) return false;
  if (/^fe[89ab][0-9a-f]?:/.test(a)) return true; // fe80::/10
  return expandV6(a) === expandV6('fd00:ec2::254');
}

function expandV6(a: string): string {
  const [head, tail = ''] = a.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const parts = a.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return parts.map((p) => p.padStart(4, '0')).join(':');
}
