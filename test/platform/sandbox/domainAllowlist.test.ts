// `[sandbox] allowed_domains` (docs/sandbox.md#the-network-allowlist): how entries read, which hosts and ports they
// allow, and which resolved addresses count as cloud metadata.
import { describe, expect, it } from 'vitest';
import {
  addressListed,
  hostAllowed,
  isMetadataAddress,
  parseDomainRule,
  parseDomainRules,
} from '../../../src/platform/sandbox/domainAllowlist';
import { hostNameProblem } from '../../../src/types/domainRule';
import { ConfigError, parseConfigText } from '../../../src/store/config';

describe('allowed_domains entries', () => {
  it.each([
    ['registry.npmjs.org', { host: 'registry.npmjs.org', wildcard: false }],
    ['*.PythonHosted.org', { host: 'pythonhosted.org', wildcard: true }],
    ['example.com.', { host: 'example.com', wildcard: false }],
    ['localhost:8080', { host: 'localhost', wildcard: false, port: 8080 }],
    ['127.0.0.1', { host: '127.0.0.1', wildcard: false }],
    ['[::1]:443', { host: '::1', wildcard: false, port: 443 }],
    ['fd00:ec2::254', { host: 'fd00:ec2::254', wildcard: false }],
    ['xn--bcher-kva.example', { host: 'xn--bcher-kva.example', wildcard: false }],
    ['LOCALHOST.', { host: 'localhost', wildcard: false }],
    ['a1.example.com2x', { host: 'a1.example.com2x', wildcard: false }],
  ])('reads %s', (entry, rule) => {
    expect(parseDomainRule(entry)).toMatchObject(rule);
  });

  it.each([
    ['', /not a host name/],
    ['https://registry.npmjs.org', /not a host name/],
    ['registry.npmjs.org/path', /not a host name/],
    ['*', /not a host name/],
    ['a.*.com', /not a host name/],
    ['**.example.com', /not a host name/],
    ['exa mple.com', /not a host name/],
    ['-bad.com', /not a host name/],
    ['host:0', /port 0 is not from 1 to 65535/],
    ['host:99999', /port 99999 is not from 1 to 65535/],
    ['*.10.0.0.1', /wildcard over an IP/],
    ['[1:2:3]', /not an IPv6 address/],
    // Attacks and edge cases of issue 35: spellings of addresses that getaddrinfo would read as IPv4, wildcards
    // wider than a domain, names no DNS holds.
    ['*.0.0.1', /a name ending in a number is an IP address/],
    ['127.1', /a name ending in a number is an IP address/],
    ['2130706433', /a name ending in a number is an IP address/],
    ['0x7f000001', /a name ending in a number is an IP address/],
    ['0177.0.0.1:80', /a name ending in a number is an IP address/],
    ['010.0.0.1', /a name ending in a number is an IP address/],
    ['*.com', /covers a whole top-level domain/],
    ['*.localhost', /covers a whole top-level domain/],
    ['.', /not a host name/],
    ['*.', /not a host name/],
    [' example.com', /not a host name/],
    ['bücher.example', /not a host name/],
    [`${'a.'.repeat(127)}com`, /at most 253 characters/],
  ])('refuses %j', (entry, why) => {
    const rule = parseDomainRule(entry);
    expect('error' in rule && rule.error).toMatch(why);
  });

  it('names the bad entry when a list is read', () => {
    expect(() => parseDomainRules(['ok.com', 'bad host'])).toThrow(/"bad host": not a host name/);
  });
});

describe('which hosts an allowlist lets through', () => {
  const rules = parseDomainRules(['*.example.com', 'registry.npmjs.org', 'only.test:8443', '10.1.2.3', '[::1]']);
  it.each([
    ['a.example.com', 443, true],
    ['deep.a.example.com', 80, true],
    ['A.EXAMPLE.COM.', 443, true],
    ['example.com', 443, false],
    ['example.com.evil.net', 443, false],
    ['evilexample.com', 443, false],
    ['a.example.com.', 1234, true],
    ['registry.npmjs.org', 443, true],
    ['Registry.NPMJS.org', 22, true],
    ['registry.npmjs.org.evil.net', 443, false],
    ['sub.registry.npmjs.org', 443, false],
    ['only.test', 8443, true],
    ['only.test', 443, false],
    ['10.1.2.3', 80, true],
    ['10.1.2.4', 80, false],
    ['[::1]', 443, true],
    ['::1', 443, true],
    ['127.0.0.1', 80, false],
  ])('%s:%d → %s', (host, port, allowed) => {
    expect(hostAllowed(rules, host, port)).toBe(allowed);
  });

  it('lets no wildcard match an IP literal', () => {
    expect(hostAllowed(parseDomainRules(['*.example.com']), '127.0.0.1', 80)).toBe(false);
    expect(hostAllowed(parseDomainRules(['*.example.com']), '::ffff:127.0.0.1', 80)).toBe(false);
  });

  it('lets nothing through an empty list', () => {
    expect(hostAllowed([], 'localhost', 80)).toBe(false);
  });
});

describe('host names in requests (issue 35 attacks)', () => {
  it.each([
    ['0177.0.0.1', /ending in a number/],
    ['2130706433', /ending in a number/],
    ['0x7f.1', /ending in a number/],
    ['127.1', /ending in a number/],
    ['b\u00fccher.example.com', /punycode/],
    ['evil.com\u3002example.com', /punycode/],
    ['a..example.com', /not a host name/],
    ['a b.example.com', /not a host name/],
    ['-a.example.com', /not a host name/],
    [`${'a.'.repeat(127)}com`, /at most 253/],
  ])('%j is refused', (host, why) => {
    expect(hostNameProblem(host)).toMatch(why);
  });

  it.each(['localhost', 'a.example.com', 'xn--bcher-kva.example', '127.0.0.1', '::1', '::ffff:127.0.0.1', 'a_b.test'])(
    '%j is a plain name or address',
    (host) => {
      expect(hostNameProblem(host)).toBeUndefined();
    },
  );
});

describe('metadata addresses', () => {
  it.each([
    ['169.254.169.254', true],
    ['169.254.1.1', true],
    ['::ffff:169.254.169.254', true],
    ['fd00:ec2::254', true],
    ['fd00:ec2:0:0:0:0:0:254', true],
    ['fe80::1', true],
    ['127.0.0.1', false],
    ['10.0.0.1', false],
    ['::1', false],
    ['fd00:ec2::253', false],
    // The same address in the IPv6 forms that carry an IPv4 one.
    ['::ffff:a9fe:a9fe', true],
    ['0:0:0:0:0:ffff:a9fe:a9fe', true],
    ['::FFFF:169.254.169.254', true],
    ['64:ff9b::169.254.169.254', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['::169.254.169.254', true],
    ['[::ffff:169.254.169.254]', true],
    ['FE80::1', true],
    ['febf::1', true],
    ['fec0::1', false],
    ['::ffff:127.0.0.1', false],
    ['::', false],
  ])('%s → %s', (address, metadata) => {
    expect(isMetadataAddress(address)).toBe(metadata);
  });

  it('counts an address as listed only when written exactly', () => {
    const rules = parseDomainRules(['169.254.169.254', '*.corp.internal']);
    expect(addressListed(rules, '169.254.169.254')).toBe(true);
    expect(addressListed(rules, '169.254.169.253')).toBe(false);
  });
});

describe('[sandbox] allowed_domains in config.toml (issue 35 edge cases)', () => {
  const load = (value: string) => parseConfigText(`[sandbox]\nallowed_domains = ${value}\n`, '/cfg/config.toml');
  const error = (value: string): string => {
    try {
      load(value);
    } catch (e) {
      if (e instanceof ConfigError) return e.message;
      throw e;
    }
    throw new Error('expected a ConfigError');
  };

  it.each([
    ['["*"]', /not a host name/],
    ['["*.com"]', /covers a whole top-level domain/],
    ['["."]', /not a host name/],
    ['[""]', /not a host name/],
    ['["*.0.0.1"]', /ending in a number/],
    ['["2130706433"]', /ending in a number/],
    ['["ok.test", "http://x.test"]', /not a host name/],
    ['[1]', /sandbox\.allowed_domains/],
    ['["a", 2]', /sandbox\.allowed_domains/],
    ['"registry.npmjs.org"', /sandbox\.allowed_domains/],
    ['[["a.test"]]', /sandbox\.allowed_domains/],
  ])('refuses %s, naming the key', (value, why) => {
    const message = error(value);
    expect(message).toContain('sandbox.allowed_domains');
    expect(message).toMatch(why);
  });

  it('reads a very long list and matches against all of it', () => {
    const names = Array.from({ length: 10_000 }, (_, i) => `h${i}.example.test`);
    const { config } = load(JSON.stringify(names));
    const rules = parseDomainRules(config.sandbox.allowed_domains);
    expect(hostAllowed(rules, 'h9999.example.test', 443)).toBe(true);
    expect(hostAllowed(rules, 'h10000.example.test', 443)).toBe(false);
  });
});
