// The complete output of a foreground command, on disk. Memory keeps only a head and a tail, so
// once a command prints more than the model can be shown, everything it printed (stdout and stderr
// interleaved, in the order received) is streamed to a file in the session, up to a size cap that
// the result states plainly when it is reached. The file is in the session's scratch folder, which commands may
// write: it is created new below that folder without following a link on the way (store/ownedFiles.ts).
import { closeSync, writeSync } from 'node:fs';
import { relative } from 'node:path';
import { openBelow, OPEN } from '../../store/ownedFiles';
import { fsReason } from '../../store/privateFiles';

/** Most bytes of one command's output kept on disk. */
export const SAVED_OUTPUT_MAX_BYTES = 256 * 1024 * 1024;

export class SavedOutput {
  private fd: number | undefined;
  private opened = false;
  private pending: string[] = [];
  private pendingChars = 0;
  /** Bytes written to the file. */
  savedBytes = 0;
  /** Bytes that came after the cap and were not saved. */
  droppedBytes = 0;
  private failure: string | undefined;

  constructor(
    /** The folder the file is created below (the session's scratch folder). */
    private readonly root: string,
    readonly path: string,
    /** Output up to this many characters stays in memory only; more opens the file. */
    private readonly spillAfterChars: number,
    private readonly maxBytes = SAVED_OUTPUT_MAX_BYTES,
  ) {}

  get spilled(): boolean {
    return this.opened || this.failure !== undefined;
  }

  /** Why the file could not be written (a full disk…), if it could not. */
  get error(): string | undefined {
    return this.failure;
  }

  add(text: string): void {
    if (this.failure) return;
    if (this.fd === undefined) {
      this.pending.push(text);
      this.pendingChars += text.length;
      if (this.pendingChars <= this.spillAfterChars) return;
      try {
        // Exclusive: a saved output is never written over another one (store/toolOutputs.ts).
        const flags = OPEN.O_WRONLY | OPEN.O_CREAT | OPEN.O_EXCL;
        this.fd = openBelow(this.root, relative(this.root, this.path), flags, { makeDirs: true });
        this.opened = true;
      } catch (e) {
        this.failure = fsReason(e);
        return;
      }
      const buffered = this.pending.join('');
      this.pending = [];
      this.write(buffered);
      return;
    }
    this.write(text);
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private write(text: string): void {
    let bytes = Buffer.from(text, 'utf8');
    const room = this.maxBytes - this.savedBytes;
    if (bytes.length > room) {
      this.droppedBytes += bytes.length - Math.max(room, 0);
      bytes = bytes.subarray(0, Math.max(room, 0));
    }
    if (bytes.length === 0 || this.fd === undefined) return;
    try {
      writeSync(this.fd, bytes);
      this.savedBytes += bytes.length;
    } catch (e) {
      this.failure = (e as Error).message;
      this.close();
    }
  }
}
