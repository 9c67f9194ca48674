// Content-addressed copies of file contents, kept in the session folder (`file-history/<sha256>`) so
// a rewind can put files back without git (docs/sessions.md "Rewind"). The same bytes are stored once
// however often they are kept; a copy is written to a temporary name and renamed, so a reader never
// sees half a copy and a crash leaves at most a stray temporary file.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

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

function reasonOf(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC') return 'the disk is full';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'something other than a folder is in its place';
  if (code === 'ENOENT') return 'it does not exist';
  return e instanceof Error ? e.message : String(e);
}

export class FileBlobStore {
  readonly dir: string;

  constructor(sessionDir: string) {
    this.dir = join(sessionDir, FILE_HISTORY_DIR);
  }

  pathOf(hash: string): string {
    return join(this.dir, hash);
  }

  /** Keeps `bytes` (once per content) and returns their sha256. */
  async put(bytes: Uint8Array): Promise<string> {
    const hash = sha256Of(bytes);
    const target = this.pathOf(hash);
    try {
      const existing = await stat(target);
      if (existing.isFile() && existing.size === bytes.byteLength) return hash;
    } catch {
      // not kept yet
    }
    const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFile(tmp, bytes);
      await rename(tmp, target);
    } catch (e) {
      throw new FileBlobError(`could not write ${this.dir} (${reasonOf(e)})`, { cause: e });
    }
    return hash;
  }

  /** The kept bytes of `hash`; throws FileBlobError when the copy is missing or no longer matches. */
  async get(hash: string): Promise<Buffer> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.pathOf(hash));
    } catch (e) {
      throw new FileBlobError(`its kept copy ${this.pathOf(hash)} cannot be read (${reasonOf(e)})`, { cause: e });
    }
    if (sha256Of(bytes) !== hash) throw new FileBlobError(`its kept copy ${this.pathOf(hash)} is damaged (its content no longer matches)`);
    return bytes;
  }
}
