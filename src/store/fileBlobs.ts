// Content-addressed copies of file contents, kept in the session folder (`file-history/<sha256>`) so
// a rewind can put files back without git (docs/sessions.md "Rewind"). The same bytes are stored once
// however often they are kept; a copy is written to a temporary name of its own and renamed, so a
// reader never sees half a copy, a crash leaves at most a stray temporary file, and parallel writes
// of the same bytes (several files with one content, edited in one response) never share a name.
import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fsReason, mkdirPrivate, writePrivateFile } from './privateFiles';

export const FILE_HISTORY_DIR = 'file-history';

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A kept copy could not be written or read back; `message` names the file and the reason. */
export class FileBlobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FileBlobError';
  }
}

export class FileBlobStore {
  readonly dir: string;
  /** Copies being written now, by hash: a second put of the same bytes waits for the first. */
  private readonly writing = new Map<string, Promise<string>>();

  constructor(sessionDir: string) {
    this.dir = join(sessionDir, FILE_HISTORY_DIR);
  }

  pathOf(hash: string): string {
    return join(this.dir, hash);
  }

  /** Keeps `bytes` (once per content) and returns their sha256. */
  async put(bytes: Uint8Array): Promise<string> {
    const hash = sha256Of(bytes);
    const inFlight = this.writing.get(hash);
    if (inFlight) return inFlight;
    const put = this.write(hash, bytes).finally(() => this.writing.delete(hash));
    this.writing.set(hash, put);
    return put;
  }

  private async write(hash: string, bytes: Uint8Array): Promise<string> {
    const target = this.pathOf(hash);
    try {
      const existing = await stat(target);
      if (existing.isFile() && existing.size === bytes.byteLength) return hash;
    } catch {
      // not kept yet
    }
    const tmp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdirPrivate(this.dir);
      await writePrivateFile(tmp, bytes, 'wx');
      await rename(tmp, target);
    } catch (e) {
      throw new FileBlobError(`could not write ${this.dir} (${fsReason(e)})`, { cause: e });
    }
    return hash;
  }

  /** The kept bytes of `hash`; throws FileBlobError when the copy is missing or no longer matches. */
  async get(hash: string): Promise<Buffer> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.pathOf(hash));
    } catch (e) {
      throw new FileBlobError(`its kept copy ${this.pathOf(hash)} cannot be read (${fsReason(e)})`, { cause: e });
    }
    if (sha256Of(bytes) !== hash)
      throw new FileBlobError(`its kept copy ${this.pathOf(hash)} is damaged (its content no longer matches)`);
    return bytes;
  }
}
