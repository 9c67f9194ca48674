// The WebBridge pairing proof (docs/plugins-official.md, "Pairing and who may connect"): neither side ever
// sends the pairing token. Each side picks a fresh 256-bit nonce; the server proves it holds the token with
// HMAC-SHA256(token, "jarvis-webbridge.2|server|<port>|<extension nonce>|<server nonce>") and only then does the
// extension answer with the same HMAC labelled "extension". The labels keep one side's proof from being replayed
// as the other's, the fresh nonces keep an old proof from being replayed, and the port keeps a proof made for one
// listener from being relayed to another. The extension computes the same strings with WebCrypto
// (src/plugins/jarvis-webbridge/extension/background.js); the Chromium test pairs the two.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const WEBBRIDGE_PROTOCOL = 'jarvis-webbridge.2';
/** 32 random bytes in base64url, as both sides send them. */
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type ProofSide = 'server' | 'extension';

export function newNonce(): string {
  return randomBytes(32).toString('base64url');
}

/** The proof `side` sends on the connection to `port` whose nonces are these. */
export function pairingProof(
  token: string,
  side: ProofSide,
  port: number,
  extensionNonce: string,
  serverNonce: string,
): string {
  return createHmac('sha256', token)
    .update(`${WEBBRIDGE_PROTOCOL}|${side}|${port}|${extensionNonce}|${serverNonce}`)
    .digest('base64url');
}

/** Whether `given` (from the wire, untrusted) is exactly `expected`, compared in constant time. */
export function proofMatches(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
