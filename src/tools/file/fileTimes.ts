// Modification times for many files, and the time slicing that lets Glob and Grep do synchronous
// file-system work without freezing the process. One statSync on this thread costs a few µs; the
// promise API costs several times that per file (a thread-pool hop and a promise per call), which
// dominated Glob's time. Sync work runs in short slices with a yield to the event loop between
// them, so the UI keeps drawing and an abort is noticed within a slice.
import { statSync } from 'node:fs';

/** Longest stretch of synchronous file-system work before yielding to the event loop. */
export const SLICE_MS = 8;

export class TimeSlicer {
  private start = performance.now();

  constructor(private readonly signal?: AbortSignal) {}

  /** True when the current slice has run its time: the caller should `await pause()`. */
  due(): boolean {
    return performance.now() - this.start > SLICE_MS;
  }

  /** Lets the event loop run, then throws if the call was aborted meanwhile. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.signal?.throwIfAborted();
    this.start = performance.now();
  }
}

/**
 * mtimeMs of each path (symlinks followed), or undefined where it cannot be read — or, with
 * `filesOnly`, where it is not a regular file (a symlink to a folder, say).
 */
const NO_THROW = { throwIfNoEntry: false } as const;

export async function modifiedTimes(
  paths: readonly string[],
  options: { filesOnly: boolean; signal?: AbortSignal },
): Promise<Array<number | undefined>> {
  const times = new Array<number | undefined>(paths.length);
  const slicer = new TimeSlicer(options.signal);
  for (let i = 0; i < paths.length; i++) {
    if ((i & 63) === 63 && slicer.due()) await slicer.pause();
    try {
      const s = statSync(paths[i], NO_THROW);
      times[i] = s && (!options.filesOnly || s.isFile()) ? s.mtimeMs : undefined;
    } catch {
      times[i] = undefined;
    }
  }
  return times;
}
