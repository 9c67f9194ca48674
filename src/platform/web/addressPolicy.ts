// Which network addresses a web tool may contact. Loopback, private, link-local, cloud-metadata and
// other non-public ranges are refused (docs/web-tools.md, "Network safety"): a model that can be steered by
// page text must not be able to reach services on this machine or its network.
import { BlockList, isIP } from 'node:net';

const BLOCKED_V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'this-network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const BLOCKED_V6: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  // RFC 8215: a network's own NAT64 translator; what it reaches (its private IPv4 side) is not public.
  ['64:ff9b:1::', 48, 'NAT64 local-use'],
  ['100::', 64, 'discard'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

interface Range {
  list: BlockList;
  label: string;
}

const V4_RANGES: Range[] = BLOCKED_V4.map(([net, prefix, label]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, 'ipv4');
  return { list, label };
});
const V6_RANGES: Range[] = BLOCKED_V6.map(([net, prefix, label]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, 'ipv6');
  return { list, label };
});

/** Expands an IPv6 text form into its eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const fill = tail === undefined ? [] : new Array(8 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
}

/** The IPv4 address an IPv6 address carries (mapped, NAT64, 6to4, IPv4-compatible), if any. */
function embeddedIPv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4(g[6], g[7]); // ::ffff:a.b.c.d
  if (zeros(0, 6) && (g[6] !== 0 || g[7] > 1)) return v4(g[6], g[7]); // ::a.b.c.d (deprecated form)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6], g[7]); // NAT64
  if (g[0] === 0x2002) return v4(g[1], g[2]); // 6to4
  return undefined;
}

/** Why an IP address is refused (e.g. "loopback"), or undefined when it is a public address. */
export function blockedAddressReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return V4_RANGES.find((r) => r.list.check(bare, 'ipv4'))?.label;
  if (family === 6) {
    const inner = embeddedIPv4(bare);
    if (inner !== undefined) {
      const reason = blockedAddressReason(inner);
      return reason && `${reason}, as IPv4 inside IPv6`;
    }
    return V6_RANGES.find((r) => r.list.check(bare, 'ipv6'))?.label;
  }
  return 'not an IP address';
}

/** The host part of a URL as an IP literal, or undefined when it is a name to resolve. */
export function ipLiteralOf(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : undefined;
}
