// `jarvis serve`'s guards, attacked the way attackers do it (docs/server.md "Security"): no or a wrong token, a
// rebinding Host, percent-encoded and dot-segment paths (with and without the token), a cross-site Origin, a
// WebSocket without the token or from another site, folders outside the workspace roots (a symlink too), the token
// file's mode and reuse, a non-loopback bind without a password, and the ban after 10 failures.
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { api, startServe, type Served } from '../helpers/serveProcess';
import { rawRequest, wsHandshake, type Raw } from '../helpers/rawHttp';

let model: MockModelServer;
let dirs: CliDirs;
let served: Served;

/** A request sent exactly as written, to this file's server unless `port` says otherwise. */
const raw = (path: string, headers: Record<string, string> = {}, method = 'GET', body?: string, port = served.port) =>
  rawRequest(port, path, headers, method, body);

const bearer = () => ({ authorization: `Bearer ${served.token}` });

function code(r: Raw): number {
  return (JSON.parse(r.body) as { code: number }).code;
}

const wsFails = (headers: Record<string, string>, protocols: string[] = []) =>
  wsHandshake(served.port, headers, protocols);

beforeAll(async () => {
  model = await startMockModelServer({ script: () => ({ text: 'ok' }) });
  dirs = makeCliDirs();
  served = await startServe(dirs, mockModelEnv(model.baseUrlFor('openai')));
}, 60_000);

afterAll(async () => {
  await served?.stop();
  await model?.close();
});

describe('jarvis serve security', () => {
  it('needs the token for everything but the health check, and never sends CORS headers', async () => {
    expect((await raw('/api/v1/healthz')).status).toBe(200);
    const none = await raw('/api/v1/meta');
    expect([none.status, code(none)]).toEqual([401, 40101]);
    const wrong = await raw('/api/v1/sessions', { authorization: 'Bearer not-the-token' });
    expect([wrong.status, code(wrong)]).toEqual([401, 40101]);
    expect((await raw('/openapi.json')).status).toBe(401);
    const meta = await raw('/api/v1/meta', bearer());
    expect(meta.status).toBe(200);
    const preflight = await raw(
      '/api/v1/sessions',
      { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      'OPTIONS',
    );
    for (const r of [meta, preflight, none])
      expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('refuses a Host that is not the server (DNS rebinding), even with the token', async () => {
    for (const host of [
      `evil.example:${served.port}`,
      'localhost:1',
      '127.0.0.1',
      `127.0.0.1.evil.example:${served.port}`,
    ]) {
      const r = await raw('/api/v1/meta', { ...bearer(), host });
      expect([host, r.status]).toEqual([host, 403]);
    }
    expect((await raw('/api/v1/meta', { ...bearer(), host: `localhost:${served.port}` })).status).toBe(200);
    expect((await raw('/api/v1/meta', { ...bearer(), host: `[::1]:${served.port}` })).status).toBe(200);
  });

  it('refuses percent-encoded and dot-segment paths before routing, with or without the token', async () => {
    const paths = [
      '/api/v1/%2e%2e/api/v1/meta',
      '/api/v1/sessions/%2e%2e/%2e%2e/meta',
      '/api/v1/healthz/../meta',
      '/api/v1/healthz/%2e%2e/meta',
      '/api/v1/health%7a',
      '/api/v1/sessions/..%2f..%2fetc%2fpasswd/messages',
      '/api/v1//meta',
      '/api/v1/./meta',
      '/api/v1/meta%00',
      '/api/v1\\meta',
    ];
    for (const p of paths) {
      for (const headers of [{}, bearer()]) {
        const r = await raw(p, headers);
        expect([p, r.status, code(r)]).toEqual([p, 400, 41304]);
      }
    }
  });

  it('refuses state changes from another site, and cross-site or tokenless WebSockets', async () => {
    const body = JSON.stringify({});
    const headers = { ...bearer(), 'content-type': 'application/json' };
    const cross = await raw('/api/v1/sessions', { ...headers, origin: 'https://evil.example' }, 'POST', body);
    expect([cross.status, code(cross)]).toEqual([403, 40101]);
    const nullOrigin = await raw('/api/v1/sessions', { ...headers, origin: 'null' }, 'POST', body);
    expect(nullOrigin.status).toBe(403);
    const own = await raw('/api/v1/sessions', { ...headers, origin: `http://127.0.0.1:${served.port}` }, 'POST', body);
    expect(code(own)).toBe(0);
    // A form post cannot send JSON: a body of another type is refused.
    const form = await raw('/api/v1/sessions', { ...bearer(), 'content-type': 'text/plain' }, 'POST', '{}');
    expect(code(form)).toBe(40001);

    expect(await wsFails({})).toBe(401);
    expect(await wsFails({}, ['jarvis-code.bearer.wrong'])).toBe(401);
    expect(await wsFails({ origin: 'https://evil.example' }, [`jarvis-code.bearer.${served.token}`])).toBe(403);
    expect(await wsFails({}, ['jarvis-code.v2', `jarvis-code.bearer.${served.token}`])).toBe(101);
  });

  it('keeps sessions inside the workspace roots (a symlink out is refused too)', async () => {
    const outside = join(tmpdir(), `jarvis-outside-${process.pid}`);
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, join(dirs.cwd, 'escape'));
    for (const cwd of [outside, join(dirs.cwd, 'escape'), `${dirs.cwd}/../`, '/etc']) {
      const r = await api(served, 'POST', '/api/v1/sessions', { metadata: { cwd } });
      expect([cwd, r.code]).toEqual([cwd, 40410]);
    }
    mkdirSync(join(dirs.cwd, 'sub'));
    expect((await api(served, 'POST', '/api/v1/sessions', { metadata: { cwd: join(dirs.cwd, 'sub') } })).code).toBe(0);
    const bad = await api(served, 'GET', '/api/v1/sessions/not-a-session');
    expect(bad.code).toBe(40401);
  });

  it('keeps the token in a 0600 file, reuses it, and refuses one others can read', async () => {
    const file = join(dirs.home, 'server.token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(served.token);
    const other = makeCliDirs();
    const second = await startServe({ ...other, home: dirs.home }, mockModelEnv(model.baseUrlFor('openai')));
    expect(second.token).toBe(served.token);
    await second.stop();
    chmodSync(file, 0o644);
    const r = await runJarvis(['serve', '--port', '0'], { env: cliEnv(dirs), cwd: dirs.cwd });
    chmodSync(file, 0o600);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/server\.token can be read by other users/);
  });

  it('refuses a --root that is missing or not a folder, before anything starts', async () => {
    const missing = await runJarvis(['serve', '--port', '0', '--root', join(dirs.cwd, 'nope')], {
      env: cliEnv(dirs),
      cwd: dirs.cwd,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--root \S+nope: no such folder/);
    const file = join(dirs.cwd, 'a-file.txt');
    writeFileSync(file, 'x');
    const notFolder = await runJarvis(['serve', '--port', '0', '--root', file], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(notFolder.code).toBe(2);
    expect(notFolder.stderr).toMatch(/a-file\.txt: not a folder/);
  });

  it('refuses a non-loopback bind without a password; with one, the password works as a credential', async () => {
    const refused = await runJarvis(['serve', '--host', '0.0.0.0', '--port', '0'], {
      env: cliEnv(dirs),
      cwd: dirs.cwd,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/JARVIS_CODE_PASSWORD/);
    const other = makeCliDirs();
    const open = await startServe(
      other,
      { ...mockModelEnv(model.baseUrlFor('openai')), JARVIS_CODE_PASSWORD: 'correct horse' },
      ['--host', '0.0.0.0'],
    );
    const basic = Buffer.from('any:correct horse').toString('base64');
    const ok = await fetch(`http://127.0.0.1:${open.port}/api/v1/meta`, {
      headers: { authorization: `Basic ${basic}` },
    });
    expect(ok.status).toBe(200);
    // Bound to every address: the machine's own addresses are accepted as Host, other names are not.
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    const asHost = async (host: string) => (await raw('/api/v1/healthz', { host }, 'GET', undefined, open.port)).status;
    if (lan) expect(await asHost(`${lan}:${open.port}`)).toBe(200);
    else
      process.stdout.write('no non-loopback IPv4 address here: the wildcard Host check is tested with loopback only\n');
    expect(await asHost(`evil.example:${open.port}`)).toBe(403);
    const bad = Buffer.from('any:wrong').toString('base64');
    expect(
      (await fetch(`http://127.0.0.1:${open.port}/api/v1/meta`, { headers: { authorization: `Basic ${bad}` } })).status,
    ).toBe(401);
    await open.stop();
  });

  it('bans an address for 60 s after 10 failed logins in 60 s, even when it then has the token', async () => {
    // A server of its own: the other tests' failures count toward the ban of 127.0.0.1 too.
    const main = served;
    served = await startServe(makeCliDirs(), mockModelEnv(model.baseUrlFor('openai')));
    try {
      for (let i = 0; i < 10; i++) {
        const r = await raw('/api/v1/meta', { authorization: `Bearer guess-${i}` });
        expect([i, r.status]).toEqual([i, 401]);
      }
      const banned = await raw('/api/v1/meta', bearer());
      expect([banned.status, code(banned)]).toEqual([429, 42901]);
      expect(JSON.parse(banned.body).msg).toMatch(/try again in (60|59) s/);
      expect(await wsFails({}, [`jarvis-code.bearer.${served.token}`])).toBe(429);
    } finally {
      await served.stop();
      served = main;
    }
  });
});
