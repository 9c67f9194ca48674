// DISPLAY names and the Xauthority file: which socket, and which cookie goes to which server — never a cookie of
// one host to another (docs/computer-use.md, "Set-up per desktop").
import { mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCookie, parseDisplay, parseXauthority, X11DisplayError } from '../../../src/platform/x11/x11Display';

function entry(family: number, address: Buffer, number: string, name: string, data: Buffer): Buffer {
  const field = (b: Buffer) => Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
  return Buffer.concat([
    Buffer.from([family >> 8, family & 0xff]),
    field(address),
    field(Buffer.from(number)),
    field(Buffer.from(name)),
    field(data),
  ]);
}

const COOKIE = 'MIT-MAGIC-COOKIE-1';

function xauthority(...entries: Buffer[]): NodeJS.ProcessEnv {
  const file = join(mkdtempSync(join(tmpdir(), 'jarvis-xauth-')), 'Xauthority');
  writeFileSync(file, Buffer.concat(entries));
  return { XAUTHORITY: file };
}

describe('DISPLAY names', () => {
  it.each([
    [':0', { transport: 'unix', display: 0, screen: 0 }],
    [':1.0', { transport: 'unix', display: 1, screen: 0 }],
    ['unix:12.1', { transport: 'unix', display: 12, screen: 1 }],
    ['localhost:10.0', { transport: 'tcp', host: 'localhost', display: 10, screen: 0 }],
    ['10.1.2.3:0', { transport: 'tcp', host: '10.1.2.3', display: 0 }],
  ])('%s', (name, expected) => {
    expect(parseDisplay(name)).toMatchObject(expected);
  });

  it.each([
    [undefined, 'DISPLAY is not set'],
    ['', 'DISPLAY is not set'],
    ['wayland-0', 'is not an X11 display name'],
    [':x', 'is not an X11 display name'],
  ])('%j is refused with what to do', (name, message) => {
    expect(() => parseDisplay(name)).toThrow(X11DisplayError);
    expect(() => parseDisplay(name)).toThrow(message);
  });
});

describe('the Xauthority cookie', () => {
  const mine = Buffer.alloc(16, 7);
  const other = Buffer.alloc(16, 9);

  it("takes this host's entry for the display number, skipping other displays and other names", () => {
    const env = xauthority(
      entry(256, Buffer.from(hostname()), '1', COOKIE, other),
      entry(256, Buffer.from(hostname()), '0', 'XDM-AUTHORIZATION-1', other),
      entry(256, Buffer.from(hostname()), '0', COOKIE, mine),
    );
    expect(findCookie(parseDisplay(':0'), env)?.data).toEqual(mine);
    expect(findCookie(parseDisplay('localhost:0'), env)?.data).toEqual(mine);
  });

  it('takes a wildcard entry (FamilyWild), as Xvfb -auth files have', () => {
    const env = xauthority(entry(65535, Buffer.alloc(0), '5', COOKIE, mine));
    expect(findCookie(parseDisplay(':5'), env)?.data).toEqual(mine);
  });

  it("never sends a local cookie to a remote host, nor one host's cookie to another", () => {
    const env = xauthority(
      entry(256, Buffer.from(hostname()), '0', COOKIE, mine),
      entry(0, Buffer.from([10, 1, 2, 3]), '0', COOKIE, other),
    );
    expect(findCookie(parseDisplay('10.9.9.9:0'), env)).toBeUndefined();
    expect(findCookie(parseDisplay('10.1.2.3:0'), env)?.data).toEqual(other);
    expect(findCookie(parseDisplay('evil.example:0'), env)).toBeUndefined();
  });

  it('reads no cookie from a missing file, and ignores a truncated tail', () => {
    expect(findCookie(parseDisplay(':0'), { XAUTHORITY: '/nonexistent/Xauthority' })).toBeUndefined();
    const whole = entry(256, Buffer.from(hostname()), '0', COOKIE, mine);
    expect(parseXauthority(Buffer.concat([whole, whole.subarray(0, 7)]))).toHaveLength(1);
  });

  it('reports a file that exists but cannot be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jarvis-xauth-'));
    expect(() => findCookie(parseDisplay(':0'), { XAUTHORITY: dir })).toThrow(
      `the Xauthority file ${dir} cannot be read`,
    );
  });
});
