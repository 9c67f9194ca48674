// The key that authenticates what Jarvis reads back to decide what may run without asking (docs/sessions.md, "What a
// resume trusts"): the permission records of a journal (mode, session approvals) and the process a background task
// record names. It is 32 random bytes at $JARVIS_CODE_HOME/keys/records.key (0600, in a 0700 folder), under the data
// root that the command sandbox hides, so neither a sandboxed command nor a file that came with a repository or
// another machine can produce a record that passes. A record is authenticated by an HMAC-SHA256 over the fields it
// binds (its session, its agent, what it grants).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, fstatSync, linkSync, readSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { recordKeyPath } from './paths';
import { fsReason, mkdirPrivateSync, openPrivateSync, writePrivateFileSync } from './privateFiles';

const KEY_BYTES = 32;

export class RecordSigner {
  constructor(private readonly key: Buffer) {}

  /** The authentication tag of `fields` (hex). */
  sign(fields: readonly unknown[]): string {
    return createHmac('sha256', this.key).update(JSON.stringify(fields)).digest('hex');
  }

  /** Whether `tag` is the authentication tag of `fields`; anything but a well-formed tag is not. */
  verify(fields: readonly unknown[], tag: unknown): boolean {
    if (typeof tag !== 'string' || !/^[0-9a-f]{64}$/.test(tag)) return false;
    return timingSafeEqual(Buffer.from(this.sign(fields), 'hex'), Buffer.from(tag, 'hex'));
  }
}

export type RecordKeyResult = { signer: RecordSigner } | { error: string };

function readKey(path: string): Buffer {
  const fd = openPrivateSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size !== KEY_BYTES) throw new Error(`it holds ${size} bytes instead of ${KEY_BYTES}`);
    const key = Buffer.alloc(KEY_BYTES);
    if (readSync(fd, key, 0, KEY_BYTES, 0) !== KEY_BYTES) throw new Error('it could not be read whole');
    return key;
  } finally {
    closeSync(fd);
  }
}

/** Makes the key: written aside and hard-linked into place, so of two processes making it at once one wins. */
function createKey(path: string): void {
  mkdirPrivateSync(dirname(path));
  const draft = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writePrivateFileSync(draft, randomBytes(KEY_BYTES), 'wx');
  try {
    linkSync(draft, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    unlinkSync(draft);
  }
}

/**
 * The signer of the data root `home`, the key made on first use and read again at each call (32 bytes: a session
 * opening never relies on what an earlier one saw). A key that cannot be read or made (a link or a file of the wrong
 * size in its place, a read-only disk) gives `error`: records are then neither written with a tag nor trusted.
 */
export function recordSigner(home: string): RecordKeyResult {
  const path = recordKeyPath(home);
  try {
    try {
      return { signer: new RecordSigner(readKey(path)) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      createKey(path);
      return { signer: new RecordSigner(readKey(path)) };
    }
  } catch (e) {
    return { error: `the record key ${path} cannot be used (${fsReason(e)})` };
  }
}
