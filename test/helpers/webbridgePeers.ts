// Peers of the WebBridge loopback socket for tests (docs/plugins-official.md, "Pairing and who may connect"): an
// extension side that speaks the pairing handshake (with the right token, a wrong one, or scripted moves), and
// a server that holds the port and records every byte it is sent — the impostor of the attack tables.
import { createServer } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { newNonce, pairingProof, WEBBRIDGE_PROTOCOL } from '../../src/platform/webbridge/pairingProof';
import { WEBBRIDGE_EXTENSION_ID } from '../../src/platform/webbridge/extensionBridge';

export const EXTENSION_ORIGIN = `chrome-extension://${WEBBRIDGE_EXTENSION_ID}`;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

export interface KnockResult {
  /** The HTTP status when the WebSocket was refused at the handshake. */
  status?: number;
  closeCode?: number;
  reason?: string;
  /** Open and welcomed: the admitted connection. */
  socket?: WebSocket;
  /** Every message the server sent, parsed. */
  received: Array<Record<string, unknown>>;
}

export interface KnockPlan {
  origin?: string;
  /** The messages to send on open (default: a v2 hello with a fresh nonce). */
  hello?: unknown;
  /**
   * What to answer the server's challenge with: the token to prove with (`port` is the one it proves for, by
   * default the URL's), or a function given the challenge that returns the message to send (undefined: nothing).
   */
  answer?: { token: string; port?: number } | ((challenge: Record<string, unknown>, nonce: string) => unknown);
}

/** Connects to `url` as the plan says; resolves when the server welcomed, closed or refused the connection. */
export function knock(url: string, plan: KnockPlan = {}): Promise<KnockResult> {
  const nonce = newNonce();
  const received: KnockResult['received'] = [];
  return new Promise((resolve) => {
    const socket = new WebSocket(url, plan.origin === undefined ? {} : { origin: plan.origin });
    socket.on('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode, received });
      socket.terminate();
    });
    socket.on('error', () => undefined);
    socket.on('open', () =>
      socket.send(JSON.stringify(plan.hello ?? { type: 'hello', protocol: WEBBRIDGE_PROTOCOL, nonce })),
    );
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      received.push(message);
      if (message.type === 'welcome') return resolve({ socket, received });
      if (message.type !== 'challenge' || !plan.answer) return;
      const reply =
        typeof plan.answer === 'function'
          ? plan.answer(message, nonce)
          : {
              type: 'proof',
              proof: pairingProof(
                plan.answer.token,
                'extension',
                plan.answer.port ?? Number(new URL(url).port),
                nonce,
                String(message.nonce),
              ),
            };
      if (reply !== undefined) socket.send(JSON.stringify(reply));
    });
    socket.on('close', (code, reason) => resolve({ closeCode: code, reason: reason.toString(), received }));
  });
}

/** A program holding the WebBridge port: records what it is sent and answers as its script says. */
export interface ImpostorServer {
  port: number;
  /** Every message a client sent it, as text, in order. */
  heard: string[];
  /** How many clients connected. */
  connections(): number;
  /** The close code of each connection that ended, in order. */
  closes: number[];
  close(): Promise<void>;
}

/** `script` is called with each message a client sends (and may answer on the socket). */
export async function startImpostorServer(
  script: (socket: WebSocket, message: string) => void = () => undefined,
  port?: number,
): Promise<ImpostorServer> {
  const at = port ?? (await freePort());
  const server = new WebSocketServer({ host: '127.0.0.1', port: at, path: '/webbridge' });
  await new Promise<void>((r) => server.once('listening', r));
  const heard: string[] = [];
  const closes: number[] = [];
  let count = 0;
  server.on('connection', (socket) => {
    count++;
    socket.on('close', (code) => closes.push(code));
    socket.on('message', (data) => {
      heard.push(String(data));
      script(socket, String(data));
    });
  });
  return {
    port: at,
    heard,
    closes,
    connections: () => count,
    close: async () => {
      for (const c of server.clients) c.terminate();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
