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
  const a = normalizeHost(address);
  if (isIP(a) === 4) return a.startsWith('169.254.');
  if (isIP(a) !== 6) return false;
  const groups = expandV6(a);
  const v4 = embeddedV4(groups);
  if (v4 !== undefined) return v4.startsWith('169.254.');
  if (/^fe[89ab]/.test(groups[0])) return true; // fe80::/10
  return groups.join(':') === expandV6('fd00:ec2::254').join(':');
}

// IPv6 forms that carry an IPv4 address in their last 32 bits and reach it: IPv4-mapped (::ffff:a.b.c.d, also
// written ::ffff:a9fe:a9fe), IPv4-compatible (::a.b.c.d) and the NAT64 prefix 64:ff9b::/96.
const V4_PREFIXES = ['0:0:0:0:0:ffff', '0:0:0:0:0:0', '64:ff9b:0:0:0:0'];

function embeddedV4(groups: string[]): string | undefined {
  const prefix = groups
    .slice(0, 6)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':');
  if (!V4_PREFIXES.includes(prefix)) return undefined;
  const [hi, lo] = [parseInt(groups[6], 16), parseInt(groups[7], 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** The eight groups of an IPv6 address (validated by isIP), four hex digits each; a dotted IPv4 tail converted. */
function expandV6(address: string): string[] {
  let a = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (dotted) {
    const [b0, b1, b2, b3] = dotted.slice(1).map(Number);
    a = `${a.slice(0, dotted.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail = ''] = a.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const parts = a.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  return parts.map((p) => p.padStart(4, '0'));
}
