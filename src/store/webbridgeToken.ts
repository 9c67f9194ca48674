// The WebBridge pairing token (docs/plugins-official.md, "Pairing"): 256 random bits, made on first use
// and kept 0600 under $JARVIS_CODE_HOME/webbridge/, so the browser extension pairs once and every later
// `jarvis webbridge-mcp` accepts it. Only a process that can read the file can pair.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fsReason, mkdirPrivateSync, writePrivateFileSync } from './privateFiles';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function webbridgeTokenPath(home: string): string {
  return join(home, 'webbridge', 'pairing-token');
}

/** The stored token; a new one if there is none. A damaged file is an error, never silently replaced. */
export function webbridgeToken(home: string): string {
  const path = webbridgeTokenPath(home);
  let text: string | undefined;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`Could not read the WebBridge pairing token ${path}: ${fsReason(e)}`);
  }
  if (text !== undefined) {
    if (TOKEN_PATTERN.test(text)) return text;
    throw new Error(
      `The WebBridge pairing token ${path} is damaged; run \`jarvis webbridge-pair --new\` to make a new one ` +
        'and pair the extension again.',
    );
  }
  return newWebbridgeToken(home);
}

/** Replaces the token: an extension paired with the old one is refused until it pairs again. */
export function newWebbridgeToken(home: string): string {
  const path = webbridgeTokenPath(home);
  const token = randomBytes(32).toString('base64url');
  try {
    mkdirPrivateSync(join(home, 'webbridge'));
    writePrivateFileSync(path, `${token}\n`);
  } catch (e) {
    throw new Error(`Could not write the WebBridge pairing token ${path}: ${fsReason(e)}`);
  }
  return token;
}
