// Requests to a loopback server sent exactly as written (fetch would normalise the path and refuse to set Host),
// and a WebSocket handshake's answer: what the server tests' attacks send (test/server/, test/web/).
import { request } from 'node:http';
import WebSocket from 'ws';

export interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function rawRequest(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The HTTP status a WebSocket handshake to /api/v1/ws gets: 101 when it opens. */
export function wsHandshake(port: number, headers: Record<string, string>, protocols: string[] = []): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/ws`, protocols, { headers });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode!));
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('error', () => undefined);
  });
}
