// The web UI's one-time login codes and cookie secrets (src/server/webLogin.ts), on a clock the test moves.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { COOKIE_MAX_AGE_S, LOGIN_CODE_TTL_MS, WebLogin } from '../../src/server/webLogin';

function clock() {
  let now = 1_000_000;
  return { now: () => now, add: (ms: number) => (now += ms) };
}

const withCookie = (cookie: string) => ({ headers: { cookie } }) as unknown as IncomingMessage;

describe('WebLogin', () => {
  it('a code works once, within five minutes, and gives a secret that lasts a day', () => {
    const t = clock();
    const login = new WebLogin(() => 4321, t.now);
    const { code } = login.mintCode();
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const got = login.exchange(code)!;
    expect(got.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(got.secret).not.toBe(code);
    expect(login.exchange(code)).toBeUndefined();
    expect(login.valid(got.secret)).toBe(true);
    t.add(COOKIE_MAX_AGE_S * 1000);
    expect(login.valid(got.secret)).toBe(false);

    const late = login.mintCode();
    t.add(LOGIN_CODE_TTL_MS);
    expect(login.exchange(late.code)).toBeUndefined();
    expect(login.exchange('made-up-code')).toBeUndefined();
  });

  it('reads only its own port’s cookie, and logout ends the secret', () => {
    const login = new WebLogin(() => 4321);
    const got = login.exchange(login.mintCode().code)!;
    expect(login.cookieOf(withCookie(`jarvis_web_4322=other; jarvis_web_4321=${got.secret}`))).toBe(got.secret);
    expect(login.cookieOf(withCookie('jarvis_web_43210=x'))).toBeUndefined();
    expect(login.setCookie(got.secret)).toBe(
      `jarvis_web_4321=${got.secret}; HttpOnly; SameSite=Strict; Path=/; Max-Age=86400`,
    );
    login.logout(got.secret);
    expect(login.valid(got.secret)).toBe(false);
  });

  it('keeps at most 100 open codes: minting more drops the oldest', () => {
    const login = new WebLogin(() => 1);
    const first = login.mintCode().code;
    for (let i = 0; i < 100; i++) login.mintCode();
    expect(login.exchange(first)).toBeUndefined();
  });
});
