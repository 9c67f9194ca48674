// `jarvis web`'s way in, attacked (docs/web.md "Security"): no credential, a reused one-time link, a wrong Host
// header, cross-site requests carrying the cookie (a foreign Origin, a POST without Origin, a cross-site fetch, a
// WebSocket from another page), a link minted with the cookie, a logged-out cookie, a non-loopback bind without a
// password, and the ban after repeated bad codes. Also what is allowed: the UI's files without credential, with
// their CSP, and the cookie on the page's own requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliDirs, mockModelEnv, runJarvis, cliEnv, type CliDirs } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { newLink, startWeb, type WebServed } from '../helpers/webProcess';
import { rawRequest, wsHandshake } from '../helpers/rawHttp';

let model: MockModelServer;
let dirs: CliDirs;
let served: WebServed;

const raw = (path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) =>
  rawRequest(served.port, path, headers, method, body);

const origin = () => `http://127.0.0.1:${served.port}`;
const json = { 'content-type': 'application/json' };
const codeOf = (link: string) => new URL(link).hash.replace('#login=', '');

/** Exchanges a link's code as the page does; the cookie header to send back. */
async function logIn(link: string): Promise<string> {
  const r = await raw(
    '/api/v1/auth/session',
    { ...json, origin: origin() },
    'POST',
    JSON.stringify({ code: codeOf(link) }),
  );
  expect(r.status, r.body).toBe(200);
  const set = String(r.headers['set-cookie']);
  return set.slice(0, set.indexOf(';'));
}

const wsStatus = (headers: Record<string, string>) => wsHandshake(served.port, headers, ['jarvis-code.v2']);

beforeAll(async () => {
  model = await startMockModelServer({ script: () => ({ text: 'ok' }) });
  dirs = makeCliDirs();
  served = await startWeb(dirs, mockModelEnv(model.baseUrlFor('openai')));
}, 60_000);

afterAll(async () => {
  await served?.stop();
  await model?.close();
});

describe('jarvis web: what is refused', () => {
  it('serves the UI without a credential, with a strict CSP and no inline script', async () => {
    const page = await raw('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)![1];
    const asset = await raw(script);
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/^text\/javascript/);
    expect(asset.body).not.toContain(served.token);
    expect((await raw('/assets/nothing-here.js')).status).toBe(404);
  });

  it('refuses the API and the WebSocket without a credential, or with a made-up cookie', async () => {
    expect((await raw('/api/v1/sessions')).status).toBe(401);
    const made = `jarvis_web_${served.port}=${'A'.repeat(43)}`;
    expect((await raw('/api/v1/sessions', { cookie: made })).status).toBe(401);
    expect(await wsStatus({ origin: origin() })).toBe(401);
  });

  it('takes a one-time link once: the second use is 401', async () => {
    const link = served.link;
    expect(served.stdout()).toContain(link);
    const cookie = await logIn(link);
    expect(cookie).toMatch(new RegExp(`^jarvis_web_${served.port}=[A-Za-z0-9_-]{43}$`));
    const again = await raw(
      '/api/v1/auth/session',
      { ...json, origin: origin() },
      'POST',
      JSON.stringify({ code: codeOf(link) }),
    );
    expect(again.status).toBe(401);
    expect(again.headers['set-cookie']).toBeUndefined();
    const ok = await raw('/api/v1/sessions', { cookie });
    expect(ok.status).toBe(200);
    expect(await wsStatus({ origin: origin(), cookie })).toBe(101);
  });

  it('refuses a wrong Host header before anything else (DNS rebinding)', async () => {
    const host = { host: `attacker.example:${served.port}` };
    expect((await raw('/', host)).status).toBe(403);
    const link = await newLink(served);
    const r = await raw('/api/v1/auth/session', { ...host, ...json }, 'POST', JSON.stringify({ code: codeOf(link) }));
    expect(r.status).toBe(403);
    // The code was not spent by the refused request.
    await logIn(link);
  });

  it('refuses cross-site requests that carry the cookie', async () => {
    const cookie = await logIn(await newLink(served));
    const body = JSON.stringify({});
    const foreign = await raw('/api/v1/sessions', { cookie, ...json, origin: 'http://attacker.example' }, 'POST', body);
    expect(foreign.status).toBe(403);
    const noOrigin = await raw('/api/v1/sessions', { cookie, ...json }, 'POST', body);
    expect(noOrigin.status).toBe(403);
    expect((await raw('/api/v1/sessions', { cookie, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(await wsStatus({ origin: 'http://attacker.example', cookie })).toBe(403);
    expect(await wsStatus({ cookie })).toBe(403);
    // A login from another site is refused too (login CSRF).
    const link = await newLink(served);
    const csrf = await raw(
      '/api/v1/auth/session',
      { ...json, origin: 'http://attacker.example' },
      'POST',
      JSON.stringify({ code: codeOf(link) }),
    );
    expect(csrf.status).toBe(403);
    const same = await raw('/api/v1/sessions', { cookie, ...json, origin: origin() }, 'POST', body);
    expect(same.status, same.body).toBe(200);
  });

  it('makes links with the token only, and a logged-out cookie is refused', async () => {
    const cookie = await logIn(await newLink(served));
    const minted = await raw('/api/v1/auth/links', { cookie, ...json, origin: origin() }, 'POST', '{}');
    expect(minted.status).toBe(403);
    const out = await raw('/api/v1/auth/logout', { cookie, ...json, origin: origin() }, 'POST', '{}');
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await raw('/api/v1/sessions', { cookie })).status).toBe(401);
  });

  it('refuses a non-loopback bind without a password', async () => {
    const r = await runJarvis(['web', '--host', '0.0.0.0', '--port', '0', '--no-open'], {
      env: cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('JARVIS_CODE_PASSWORD');
    expect(r.stdout).not.toContain('#login=');
  });

  it('counts bad login codes as failed credentials: within ten the address is banned, even with the token', async () => {
    // The requests refused above counted already; bad codes add up to the tenth failure.
    const statuses: number[] = [];
    for (let i = 0; i < 10 && statuses.at(-1) !== 429; i++) {
      const r = await raw(
        '/api/v1/auth/session',
        { ...json, origin: origin() },
        'POST',
        JSON.stringify({ code: `guess${i}` }),
      );
      statuses.push(r.status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    const withToken = await raw('/api/v1/sessions', { authorization: `Bearer ${served.token}` });
    expect(withToken.status).toBe(429);
  });
});
