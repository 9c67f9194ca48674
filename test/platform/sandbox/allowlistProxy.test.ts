// The sandbox's network proxy (docs/sandbox.md#the-network-allowlist) spoken to directly on its Unix socket: request
// heads read strictly, hosts checked before any name is resolved, metadata addresses refused, bounds held, and
// allowed requests tunnelled or forwarded to loopback fixtures.
import { createServer as createHttpServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AllowlistProxy, type ProxyLookup } from '../../../src/platform/sandbox/allowlistProxy';
import { parseDomainRules } from '../../../src/platform/sandbox/domainAllowlist';
import { parseProxyHead } from '../../../src/platform/sandbox/proxyRequest';

describe('proxy request heads', () => {
  it.each([
    ['CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443', { kind: 'connect', host: 'localhost', port: 443 }],
    ['CONNECT [::1]:8443 HTTP/1.1\r\nHost: [::1]:8443', { kind: 'connect', host: '[::1]', port: 8443 }],
    ['CONNECT a.test:1 HTTP/1.0', { kind: 'connect', host: 'a.test', port: 1 }],
    ['GET http://a.test:81/x?y=1 HTTP/1.1\r\nHost: a.test:81', { kind: 'http', host: 'a.test', port: 81 }],
  ])('reads %j', (head, request) => {
    expect(parseProxyHead(head)).toMatchObject(request);
  });

  it.each([
    ['CONNECT localhost:99999 HTTP/1.1\r\nHost: localhost', /port 99999 is not from 1 to 65535/],
    ['CONNECT localhost:0 HTTP/1.1\r\nHost: localhost', /port 0 is not from 1 to 65535/],
    ['CONNECT localhost HTTP/1.1\r\nHost: localhost', /expected host:port/],
    ['CONNECT localhost:http HTTP/1.1\r\nHost: localhost', /expected host:port/],
    ['CONNECT user@evil.test:443 HTTP/1.1\r\nHost: x', /expected host:port/],
    ['CONNECT localhost:443 HTTP/1.1', /exactly one Host header/],
    ['CONNECT a:443 HTTP/1.1\r\nHost: a\r\nHost: b', /exactly one Host header/],
    ['GET http://a.test/ HTTP/1.1', /exactly one Host header/],
    ['CONNECT localhost:443 HTTP/2.0\r\nHost: localhost', /malformed request line/],
    ['CONNECT  localhost:443 HTTP/1.1\r\nHost: localhost', /malformed request line/],
    ['CONNECT localhost:443 HTTP/1.1\r\nHost: localhost\r\n folded', /malformed header line/],
    ['CONNECT localhost:443 HTTP/1.1\r\nno colon here', /malformed header line/],
    ['GET /ok HTTP/1.1\r\nHost: localhost', /send CONNECT host:port, or an absolute http:\/\/ URI/],
    ['GET https://a.test/ HTTP/1.1\r\nHost: a.test', /through a CONNECT tunnel/],
    ['GET http://u:p@a.test/ HTTP/1.1\r\nHost: a.test', /credentials in the URL/],
    ['GET http://a.test:0/ HTTP/1.1\r\nHost: a.test', /port 0 is not from 1 to 65535/],
    ['GET http://a.test:65536/ HTTP/1.1\r\nHost: a.test', /not a valid URL/],
  ])('refuses %j', (head, why) => {
    const parsed = parseProxyHead(head);
    expect('error' in parsed && parsed.status).toBe(400);
    expect('error' in parsed && parsed.error).toMatch(why);
  });

  it('forwards a plain request in origin form, with the target as Host and without proxy headers', () => {
    const parsed = parseProxyHead(
      'GET http://a.test:81/x?y=1 HTTP/1.1\r\nHost: spoofed\r\nProxy-Authorization: Basic eA==\r\n' +
        'Proxy-Connection: keep-alive\r\nAccept: */*',
    );
    expect(parsed).toMatchObject({
      head: 'GET /x?y=1 HTTP/1.1\r\nHost: a.test:81\r\nAccept: */*\r\nConnection: close\r\n\r\n',
    });
  });
});

let dir: string;
let fixture: Server;
let fixturePort: number;
let hits: string[] = [];
const proxies: AllowlistProxy[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'allowlist-proxy-'));
  fixture = createHttpServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${req.headers.host}`);
    res.end('FIXTURE');
  });
  await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve));
  fixturePort = (fixture.address() as { port: number }).port;
});
afterEach(async () => {
  hits = [];
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});
afterAll(async () => {
  await new Promise((resolve) => fixture.close(resolve));
});

function startProxy(allowed: string[], lookup?: ProxyLookup, limits = {}): AllowlistProxy {
  const socketPath = join(dir, `p${proxies.length}-${Math.random().toString(36).slice(2, 8)}.sock`);
  const proxy = AllowlistProxy.listenSync({ rules: parseDomainRules(allowed), socketPath, lookup, limits });
  proxies.push(proxy);
  return proxy;
}

/** Sends `data` on the proxy's socket and returns everything it answered until it closed the connection. */
function exchange(proxy: AllowlistProxy, data: string | Buffer, afterHead?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.socketPath);
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (afterHead && answer.includes('200 Connection Established\r\n\r\n')) {
        socket.write(afterHead);
        afterHead = undefined;
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(data);
  });
}

const stub = (map: Record<string, string[]>, calls: string[]): ProxyLookup => {
  return async (host) => {
    calls.push(host);
    const found = map[host];
    if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
    return found;
  };
};

describe('the proxy on its socket', () => {
  it('answers bad heads with 400 and what was wrong', async () => {
    const proxy = startProxy(['localhost']);
    const answer = await exchange(proxy, 'CONNECT localhost:99999 HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('port 99999 is not from 1 to 65535');
    const noHost = await exchange(proxy, `CONNECT localhost:${fixturePort} HTTP/1.1\r\n\r\n`);
    expect(noHost).toContain('exactly one Host header');
    expect(hits).toEqual([]);
  });

  it('refuses an oversized head with 431, without waiting for its end', async () => {
    const proxy = startProxy(['localhost'], undefined, { maxHeadBytes: 1024 });
    const answer = await exchange(proxy, `CONNECT localhost:443 HTTP/1.1\r\nX-Big: ${'a'.repeat(4096)}`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain('larger than 1024 bytes');
  });

  it('closes a connection whose head does not arrive in time with 408', async () => {
    const proxy = startProxy(['localhost'], undefined, { headTimeoutMs: 50 });
    expect(await exchange(proxy, 'CONNECT local')).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('refuses a host not listed with 403 naming it and the key, before resolving it', async () => {
    const calls: string[] = [];
    const proxy = startProxy(['*.example.com'], stub({}, calls));
    for (const host of ['example.com.evil.net', 'evilexample.com', '127.0.0.1']) {
      const answer = await exchange(proxy, `CONNECT ${host}:443 HTTP/1.1\r\nHost: ${host}:443\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 403 /);
      expect(answer).toContain(`refused ${host}:443`);
      expect(answer).toContain('[sandbox] allowed_domains');
    }
    expect(calls).toEqual([]);
    expect(proxy.refusedSince(0).map((r) => r.host)).toEqual(['example.com.evil.net', 'evilexample.com', '127.0.0.1']);
  });

  it('refuses a listed name that resolves to a metadata address, unless the address is listed', async () => {
    const calls: string[] = [];
    const map = { 'meta.test': ['10.0.0.5', '169.254.169.254'], 'meta6.test': ['fd00:ec2::254'] };
    const proxy = startProxy(['meta.test', 'meta6.test'], stub(map, calls));
    const answer = await exchange(proxy, 'CONNECT meta.test:80 HTTP/1.1\r\nHost: meta.test\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer).toContain('169.254.169.254, a link-local (cloud metadata) address');
    const v6 = await exchange(proxy, 'GET http://meta6.test/latest HTTP/1.1\r\nHost: meta6.test\r\n\r\n');
    expect(v6).toContain('fd00:ec2::254');
    expect(calls).toEqual(['meta.test', 'meta6.test']);
    expect(proxy.refusedSince(0).map((r) => r.why)).toEqual(['metadata address', 'metadata address']);
  });

  it('does not let a listed metadata address allow a name (the name is checked first)', async () => {
    const calls: string[] = [];
    const listed = startProxy(['169.254.169.254'], stub({ 'meta.test': ['169.254.169.254'] }, calls));
    const refusedName = await exchange(listed, 'CONNECT meta.test:80 HTTP/1.1\r\nHost: meta.test\r\n\r\n');
    expect(refusedName).toMatch(/^HTTP\/1\.1 403 /);
    expect(refusedName).toContain('meta.test is not in [sandbox] allowed_domains');
    expect(calls).toEqual([]);
  });

  it('forwards an allowed plain-HTTP request and tunnels an allowed CONNECT', async () => {
    const proxy = startProxy(['localhost']);
    const plain = await exchange(proxy, `GET http://localhost:${fixturePort}/a HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(plain).toMatch(/^HTTP\/1\.1 200 /);
    expect(plain).toContain('FIXTURE');
    const tunnel = await exchange(
      proxy,
      `CONNECT localhost:${fixturePort} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      'GET /b HTTP/1.1\r\nHost: inside\r\nConnection: close\r\n\r\n',
    );
    expect(tunnel).toContain('200 Connection Established');
    expect(tunnel).toContain('FIXTURE');
    expect(hits).toEqual([`GET /a localhost:${fixturePort}`, 'GET /b inside']);
  });

  it('says when an allowed host cannot be resolved or reached', async () => {
    const proxy = startProxy(['nowhere.test', 'localhost'], stub({ localhost: ['127.0.0.1'] }, []));
    const unresolved = await exchange(proxy, 'CONNECT nowhere.test:443 HTTP/1.1\r\nHost: nowhere.test\r\n\r\n');
    expect(unresolved).toMatch(/^HTTP\/1\.1 502 /);
    expect(unresolved).toContain('could not resolve nowhere.test');
    const closed = startClosedPort();
    const refused = await exchange(proxy, `CONNECT localhost:${await closed} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(refused).toMatch(/^HTTP\/1\.1 502 /);
    expect(refused).toContain('could not reach localhost');
  });

  it('refuses connections past its bound with 503', async () => {
    const proxy = startProxy(['localhost'], undefined, { maxConnections: 1 });
    const first = connect(proxy.socketPath);
    await new Promise((resolve) => first.once('connect', resolve));
    const second = await exchange(proxy, 'CONNECT localhost:1 HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    first.destroy();
  });

  // Attacks of issue 35 on the socket: each must reach no fixture and resolve no name it should not.
  it.each([
    ['CONNECT 0177.0.0.1:{P} HTTP/1.1\r\nHost: x', 400, /ending in a number is an IP address/],
    ['CONNECT 2130706433:{P} HTTP/1.1\r\nHost: x', 400, /ending in a number is an IP address/],
    ['CONNECT 0x7f.1:{P} HTTP/1.1\r\nHost: x', 400, /ending in a number is an IP address/],
    ['CONNECT 127.1.example.com.0:{P} HTTP/1.1\r\nHost: x', 400, /ending in a number/],
    ['CONNECT b\u00c3\u00bccher.example.com:{P} HTTP/1.1\r\nHost: x', 400, /punycode/],
    ['CONNECT localhost..:{P} HTTP/1.1\r\nHost: x', 400, /not a host name/],
    ['CONNECT [::ffff:127.0.0.1]:{P} HTTP/1.1\r\nHost: x', 403, /refused ::ffff:127.0.0.1/],
    ['CONNECT [::1]:{P} HTTP/1.1\r\nHost: x', 403, /refused ::1/],
    ['CONNECT localhost:1{P} HTTP/1.1\r\nHost: x', 400, /port|expected host:port/],
    ['CONNECT localhost:22 HTTP/1.1\r\nHost: localhost', 403, /refused localhost:22/],
    ['CONNECT evil.test:{P} HTTP/1.1\r\nHost: localhost:{P}', 403, /refused evil.test/],
    ['GET http://evil.test:{P}/ HTTP/1.1\r\nHost: localhost:{P}', 403, /refused evil.test/],
    ['GET http://2130706433:{P}/ HTTP/1.1\r\nHost: localhost', 403, /refused 127.0.0.1/],
    ['GET http://[::ffff:7f00:1]:{P}/ HTTP/1.1\r\nHost: localhost', 403, /refused ::ffff:7f00:1/],
    ['POST http://localhost:{P}/a HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked', 411, /Transfer-Enc/],
    [
      'POST http://localhost:{P}/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nTransfer-Encoding: chunked',
      411,
      /send a Content-Length/,
    ],
    [
      'POST http://localhost:{P}/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 40',
      400,
      /more than one/,
    ],
    ['POST http://localhost:{P}/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1', 400, /is not a number/],
    ['POST http://localhost:{P}/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0x10', 400, /is not a number/],
  ])('%j → %d', async (head, status, why) => {
    const calls: string[] = [];
    const proxy = startProxy([`localhost:${fixturePort}`, '*.example.com'], stub({ localhost: ['127.0.0.1'] }, calls));
    const answer = await exchange(
      proxy,
      Buffer.from(`${head.replaceAll('{P}', String(fixturePort))}\r\n\r\n`, 'latin1'),
    );
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(answer).toMatch(why);
    expect(calls).toEqual([]);
    expect(hits).toEqual([]);
  });

  it('reads the same listed name in upper case and with a trailing dot', async () => {
    const proxy = startProxy([`localhost:${fixturePort}`]);
    for (const host of ['LOCALHOST', 'localhost.', 'LocalHost.']) {
      const answer = await exchange(proxy, `GET http://${host}:${fixturePort}/u HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      expect(answer).toContain('FIXTURE');
    }
    expect(hits).toHaveLength(3);
  });

  it("sends the absolute URI's host upstream, not a Host header that names another", async () => {
    const proxy = startProxy(['localhost']);
    await exchange(proxy, `GET http://localhost:${fixturePort}/h HTTP/1.1\r\nHost: evil.test\r\n\r\n`);
    expect(hits).toEqual([`GET /h localhost:${fixturePort}`]);
  });

  it.each([
    ['a second request kept alive', 'Connection: keep-alive\r\n', '', ''],
    ['a request smuggled after Content-Length bytes', 'Content-Length: 5\r\n', 'hello', 'Content-Length: 5\r\n'],
  ])('sends upstream the one request and no more: %s', async (_, header, body, forwarded) => {
    const upstream = await rawFixture();
    const proxy = startProxy(['localhost']);
    const next = 'GET http://evil.test/b HTTP/1.1\r\nHost: evil.test\r\n\r\nGET /c HTTP/1.1\r\nHost: evil.test\r\n\r\n';
    const answer = await exchange(
      proxy,
      `POST http://localhost:${upstream.port}/a HTTP/1.1\r\nHost: localhost\r\n${header}\r\n${body}${next}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const received = await upstream.received;
    expect(received).toBe(
      `POST /a HTTP/1.1\r\nHost: localhost:${upstream.port}\r\n${forwarded}Connection: close\r\n\r\n${body}`,
    );
  });

  it('refuses a listed name resolving to a metadata address in an IPv6 form that carries IPv4', async () => {
    const map = { 'a.example.com': ['::ffff:a9fe:a9fe'], 'b.example.com': ['64:ff9b::a9fe:a9fe'] };
    const proxy = startProxy(['*.example.com'], stub(map, []));
    for (const host of Object.keys(map)) {
      const answer = await exchange(proxy, `CONNECT ${host}:80 HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 403 /);
      expect(answer).toContain('link-local (cloud metadata) address');
    }
  });

  it('removes its socket when closed', async () => {
    const proxy = startProxy(['localhost']);
    await proxy.close();
    proxies.splice(proxies.indexOf(proxy), 1);
    await expect(exchange(proxy, 'x')).rejects.toThrow(/ENOENT/);
  });
});

/**
 * A loopback server that answers the first request head with a 200, closes its side, and resolves `received` with
 * every byte the proxy sent it before the proxy closed in turn (TCP delivers them all before the end).
 */
async function rawFixture(): Promise<{ port: number; received: Promise<string> }> {
  let resolveReceived: (bytes: string) => void = () => {};
  const received = new Promise<string>((resolve) => (resolveReceived = resolve));
  const server = createServer((socket) => {
    let bytes = '';
    let answered = false;
    socket.on('data', (chunk) => {
      bytes += chunk.toString('latin1');
      if (!answered && bytes.includes('\r\n\r\n')) {
        answered = true;
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
      }
    });
    socket.on('close', () => {
      server.close();
      resolveReceived(bytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, received };
}

/** A loopback port nothing listens on: bound, then closed. */
async function startClosedPort(): Promise<number> {
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
