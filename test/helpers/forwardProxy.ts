// A loopback HTTP forward proxy for tests: it takes absolute-URI requests (`GET http://host/path`) and
// forwards every one of them to a fixed loopback target, whatever host the URL names, so a test can use
// a made-up host name without DNS or any traffic beyond 127.0.0.1. It records what it was asked for.
// CONNECT (tunnelling) is refused and recorded: the tests only proxy plain HTTP.

import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startMockModelServer, type MockModelServer, type MockModelServerOptions } from './mockModelServer';

export interface ProxiedRequest {
  method: string;
  /** The absolute URI the client asked the proxy for. */
  url: string;
  headers: IncomingHttpHeaders;
}

export interface ForwardProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  requests: ProxiedRequest[];
  connects: string[];
  close(): Promise<void>;
}

export async function startForwardProxy(target: string): Promise<ForwardProxy> {
  const to = new URL(target);
  const requests: ProxiedRequest[] = [];
  const connects: string[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    let path: string;
    try {
      const asked = new URL(req.url ?? '');
      path = asked.pathname + asked.search;
    } catch {
      res.writeHead(400).end('forward proxy: expected an absolute-URI request');
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = httpRequest({ host: to.hostname, port: to.port, method: req.method, path, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(`forward proxy: ${err.message}`);
    });
    req.pipe(upstream);
  });
  server.on('connect', (req, socket) => {
    connects.push(req.url ?? '');
    socket.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connects,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * For a describe block or file: a mock model server and a forward proxy in front of it, started once,
 * closed at the end, and with their recorded requests cleared before each test.
 */
export function useProxiedMockServer(opts?: MockModelServerOptions): {
  server(): MockModelServer;
  proxy(): ForwardProxy;
} {
  let server: MockModelServer;
  let proxy: ForwardProxy;
  beforeAll(async () => {
    server = await startMockModelServer(opts);
    proxy = await startForwardProxy(server.url);
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    proxy.requests.length = 0;
  });
  return { server: () => server, proxy: () => proxy };
}
