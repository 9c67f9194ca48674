import { describe, expect, it } from 'vitest';
import { blockedAddressReason } from '../../../src/platform/web/addressPolicy';

describe('blockedAddressReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade'],
    ['0.0.0.0', 'this-network'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback, as IPv4 inside IPv6'],
    ['::ffff:7f00:1', 'loopback, as IPv4 inside IPv6'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['64:ff9b::a00:1', 'private, as IPv4 inside IPv6'],
    ['2002:7f00:1::', 'loopback, as IPv4 inside IPv6'],
    // Issue 31: the local-use NAT64 prefix (RFC 8215) leads to the translator's private side.
    ['64:ff9b:1::a00:1', 'NAT64 local-use'],
    ['64:ff9b:1::7f00:1', 'NAT64 local-use'],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'NAT64 local-use'],
    ['[64:ff9b:1::5db8:d822]', 'NAT64 local-use'],
  ])('%s is refused (%s)', (address, reason) => {
    expect(blockedAddressReason(address)).toContain(reason);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '64:ff9b:2::1',
  ])('%s is public', (address) => {
    expect(blockedAddressReason(address)).toBeUndefined();
  });
});
