// The server's side of the WebBridge pairing handshake (docs/plugins-official.md, "Pairing and who may connect"):
// the extension's hello (its nonce) → our challenge (our nonce and our proof, pairingProof.ts) → its proof. Any
// other message, or nothing within the bound, ends the connection before a request is sent on it; the outcome is
// reported once (admitted, refused with a reason, or dropped).
import type { WebSocket } from 'ws';
import { NONCE_PATTERN, WEBBRIDGE_PROTOCOL, newNonce, pairingProof, proofMatches } from './pairingProof';

/** Why an extension was not admitted (`stopped` is the user's Stop in the popup, said after a connection ends). */
export type Refusal = 'not paired' | 'wrong token' | 'stopped' | 'outdated';

const HANDSHAKE_WAIT_MS = 5_000;
/** The close code the extension uses when our proof was wrong: it holds another token. */
const EXTENSION_REFUSED_SERVER = 4004;

const REFUSALS: Record<Exclude<Refusal, 'stopped'>, { code: number; reason: string }> = {
  'wrong token': { code: 4001, reason: 'wrong token: pair again' },
  'not paired': { code: 4003, reason: 'not paired: paste the pairing token' },
  outdated: { code: 4005, reason: 'outdated extension: reload it from the plugin folder' },
};

export interface HandshakeOutcome {
  admitted(socket: WebSocket): void;
  refused(why: Refusal): void;
  /** Called once when the handshake is over, whatever its outcome. */
  ended(): void;
}

type Message = { type?: unknown; protocol?: unknown; nonce?: unknown; paired?: unknown; proof?: unknown };

export function runPairingHandshake(socket: WebSocket, token: string, port: number, outcome: HandshakeOutcome): void {
  let extensionNonce = '';
  let serverNonce: string | undefined;
  let over = false;
  const finish = (close?: { code: number; reason: string }) => {
    if (over) return;
    over = true;
    clearTimeout(timer);
    socket.off('message', onMessage);
    if (close) socket.close(close.code, close.reason);
    outcome.ended();
  };
  const drop = (reason: string) => finish({ code: 4002, reason });
  const refuse = (why: Exclude<Refusal, 'stopped'>) => {
    outcome.refused(why);
    finish(REFUSALS[why]);
  };
  const timer = setTimeout(() => drop('the pairing handshake did not finish in time'), HANDSHAKE_WAIT_MS);
  const onMessage = (data: unknown) => {
    let message: Message;
    try {
      message = JSON.parse(String(data)) as Message;
    } catch {
      return drop('the first messages must be the pairing handshake');
    }
    if (serverNonce === undefined) {
      if (message.type !== 'hello') return drop('the first message must be the hello');
      // A version 1 extension sends its token here; it is never compared, and the extension is told to update.
      if (message.protocol !== WEBBRIDGE_PROTOCOL || 'token' in message) return refuse('outdated');
      if (message.paired === false) return refuse('not paired');
      if (typeof message.nonce !== 'string' || !NONCE_PATTERN.test(message.nonce))
        return drop('the hello must carry a nonce');
      extensionNonce = message.nonce;
      serverNonce = newNonce();
      const proof = pairingProof(token, 'server', port, extensionNonce, serverNonce);
      socket.send(JSON.stringify({ type: 'challenge', nonce: serverNonce, proof }));
      return;
    }
    if (message.type !== 'proof') return drop('the second message must be the proof');
    if (!proofMatches(message.proof, pairingProof(token, 'extension', port, extensionNonce, serverNonce)))
      return refuse('wrong token');
    finish();
    outcome.admitted(socket);
  };
  socket.on('message', onMessage);
  socket.on('close', (code) => {
    if (over) return;
    if (serverNonce !== undefined && code === EXTENSION_REFUSED_SERVER) outcome.refused('wrong token');
    finish();
  });
  socket.on('error', () => socket.terminate());
}
