// The server's bearer token (docs/server.md "Security"): made on first start from 32 random bytes, kept in
// `server.token` under JARVIS_CODE_HOME (mode 0600) and reused. A token file that is not the owner's alone, or not
// a token, is refused rather than trusted.
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

export class TokenFileError extends Error {}

export function tokenPath(home: string): string {
  return join(home, 'server.token');
}

export function loadOrCreateToken(home: string): { token: string; created: boolean } {
  const path = tokenPath(home);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  if (existsSync(path)) {
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ELOOP')
        throw new TokenFileError(`${path} is a symbolic link; remove it and a new token is made`);
      throw e;
    }
    let text: string;
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw new TokenFileError(`${path} is not a regular file; remove it and start again`);
      if ((st.mode & 0o077) !== 0)
        throw new TokenFileError(
          `${path} can be read by other users (mode ${(st.mode & 0o777).toString(8)}); remove it (a new token is made) or chmod 600 it`,
        );
      if (typeof process.getuid === 'function' && st.uid !== process.getuid())
        throw new TokenFileError(`${path} belongs to another user; remove it and start again`);
      // Read from the descriptor checked above, not the path again.
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
    const token = text.trim();
    if (!/^[A-Za-z0-9_-]{32,128}$/.test(token))
      throw new TokenFileError(`${path} does not hold a token; remove it and a new one is made`);
    return { token, created: false };
  }
  const token = randomBytes(32).toString('base64url');
  // Written whole to a private temporary file, then linked into place: a second server starting at the same moment
  // either links first (and this one reads its token) or finds the file complete, never half-written.
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return loadOrCreateToken(home);
  } finally {
    unlinkSync(tmp);
  }
  return { token, created: true };
}

/** Compares two secrets in time independent of where they differ (hashing first makes the lengths equal). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}
