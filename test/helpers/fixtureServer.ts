// A loopback HTTP server for web-tool tests: a route table (path → handler), a log of every request
// it received (so a test can prove a refused URL was never contacted), closed by the caller.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export interface FixtureServer {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** Every request received: method, path with query, headers. */
  hits: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: string }>;
  route(path: string, handler: RouteHandler): void;
  close(): Promise<void>;
}

export async function startFixtureServer(routes: Record<string, RouteHandler> = {}): Promise<FixtureServer> {
  const table = new Map(Object.entries(routes));
  const hits: FixtureServer['hits'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fixture');
      hits.push({
        method: req.method ?? '',
        path: url.pathname + url.search,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const handler = table.get(url.pathname);
      if (!handler) {
        res.writeHead(404, 'Not Found', { 'content-type': 'text/plain' }).end('no such fixture');
        return;
      }
      Promise.resolve(handler(req, res, url)).catch((e: Error) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(e.message));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    route: (path, handler) => void table.set(path, handler),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A handler that answers with a fixed body and content type. */
export function serve(body: string | Buffer, contentType?: string, status = 200): RouteHandler {
  return (_req, res) => {
    res.writeHead(status, contentType ? { 'content-type': contentType } : {});
    res.end(body);
  };
}
