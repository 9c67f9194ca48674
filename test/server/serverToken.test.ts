// The server's token file (src/server/serverToken.ts, docs/server.md "Security"): made once with mode 0600 and reused,
// the same token for servers starting together, and refused when it is a symlink, readable by others or not a token.
import { chmodSync, mkdtempSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateToken, sameSecret, TokenFileError } from '../../src/server/serverToken';

const home = () => mkdtempSync(join(tmpdir(), 'jarvis-token-'));

describe('server token file', () => {
  it('is made once (0600, no temporary file left) and reused', () => {
    const h = home();
    const first = loadOrCreateToken(h);
    expect(first.created).toBe(true);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(join(h, 'server.token')).mode & 0o777).toBe(0o600);
    expect(loadOrCreateToken(h)).toEqual({ token: first.token, created: false });
    expect(readdirSync(h)).toEqual(['server.token']);
  });

  it('refuses a symlink, a file others can read, and a file without a token', () => {
    const a = home();
    writeFileSync(join(a, 'elsewhere'), `${'x'.repeat(43)}\n`, { mode: 0o600 });
    symlinkSync(join(a, 'elsewhere'), join(a, 'server.token'));
    expect(() => loadOrCreateToken(a)).toThrow(/symbolic link/);
    const b = home();
    writeFileSync(join(b, 'server.token'), `${'y'.repeat(43)}\n`);
    chmodSync(join(b, 'server.token'), 0o644);
    expect(() => loadOrCreateToken(b)).toThrow(TokenFileError);
    const c = home();
    writeFileSync(join(c, 'server.token'), 'hunter2 is not a token\n', { mode: 0o600 });
    expect(() => loadOrCreateToken(c)).toThrow(/does not hold a token/);
  });

  it('compares secrets of any length without throwing', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abd')).toBe(false);
    expect(sameSecret('', 'abc')).toBe(false);
    expect(sameSecret('abc'.repeat(1000), 'abc')).toBe(false);
  });
});
