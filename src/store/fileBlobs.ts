// Content-addressed copies of file contents, kept in the session folder (`file-history/<sha256>`) so
// a rewind can put files back without git (docs/sessions.md "Rewind"). The same bytes are stored once
// however often they are kept; a copy is written to a temporary name of its own and renamed, so a
// reader never sees half a copy, a crash leaves at most a stray temporary file, and parallel writes
// of the same bytes (several files with one content, edited in one response) never share a name.
// Nothing below the session folder is followed if it is a link (ownedFiles.ts), and a copy is used only
// when its bytes still hash to its name: a blob planted or changed by anything else is refused.
import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { readFileBelow, writeFileBelow } from './ownedFiles';
import { fsReason } from './privateFiles';

export const FILE_HISTORY_DIR = 'file-history';
const HASH = /^[0-9a-f]{64}$/;

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

  constructor(private readonly sessionDir: string) {
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
    const existing = await lstat(target).catch(() => undefined);
    if (existing?.isFile() && existing.size === bytes.byteLength) return hash;
    try {
      writeFileBelow(this.sessionDir, join(FILE_HISTORY_DIR, hash), bytes, { makeDirs: true });
    } catch (e) {
      throw new FileBlobError(`could not write ${this.dir} (${fsReason(e)})`, { cause: e });
    }
    return hash;
  }

  /**
   * The kept bytes of `hash`; throws FileBlobError when the name is not a sha256, or the copy is missing, a link, or
   * no longer hashes to its name.
   */
  async get(hash: string): Promise<Buffer> {
    if (!HASH.test(hash))
      throw new FileBlobError(`its record names no kept copy (${JSON.stringify(hash)} is not a sha256)`);
    let bytes: Buffer;
    try {
      bytes = readFileBelow(this.sessionDir, join(FILE_HISTORY_DIR, hash));
    } catch (e) {
      throw new FileBlobError(`its kept copy ${this.pathOf(hash)} cannot be read (${fsReason(e)})`, { cause: e });
    }
    if (sha256Of(bytes) !== hash)
      throw new FileBlobError(`its kept copy ${this.pathOf(hash)} is damaged (its content no longer matches)`);
    return bytes;
  }
}
