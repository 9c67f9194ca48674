// Files Jarvis keeps below a folder it owns — the session folder, the session's scratch folder (which sandboxed
// commands may write), the workspace when a rewind puts a file back: no component below that folder is followed if
// it is a symbolic link, so a link planted where a file or folder of ours should be is an error naming the path,
// never written (or read) through (docs/sessions.md, "Links are never followed"). On Linux every step is taken
// relative to the folder opened before it (through /proc/self/fd, the way openat works), so a folder swapped for a
// link between two steps is caught too; elsewhere each step is checked with lstat first. Special files (a FIFO a
// command made where an output file should be) are refused instead of blocking on them.
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { explainOpenFailure, LinkInTheWayError, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './privateFiles';

export { LinkInTheWayError } from './privateFiles';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;

const viaProc = process.platform === 'linux' && existsSync('/proc/self/fd');

/** `rel` as the folder names below a root; refuses absolute paths, `..` and empty steps. */
function stepsOf(rel: string): string[] {
  const steps = rel.split(/[\\/]/).filter((s) => s !== '' && s !== '.');
  if (isAbsolute(rel) || steps.includes('..') || steps.length === 0)
    throw new Error(`${rel} is not a path below the folder it must stay in`);
  return steps;
}

/** The path of `path` below `root`, or undefined when it is not strictly inside it (no `..`, not the root itself). */
export function pathBelow(root: string, path: string): string | undefined {
  const rel = relative(resolve(root), resolve(path));
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel;
}

/** An open folder: its descriptor and the path it was reached by (for messages). */
interface OpenDir {
  fd: number;
  path: string;
}

/**
 * A failure of a step, as LinkInTheWayError when a link or a special file caused it; any other error names the real
 * path it was about instead of the /proc/self/fd path the step went through.
 */
function explain(e: unknown, path: string): unknown {
  const explained = explainOpenFailure(e, path);
  if (explained === e && e instanceof Error) {
    e.message = e.message.replace(/\/proc\/self\/fd\/\d+(\/[^'"\s]*)?/g, path);
    (e as NodeJS.ErrnoException).path = path;
  }
  return explained;
}

function entryPath(dir: OpenDir, name: string): string {
  return viaProc ? `/proc/self/fd/${dir.fd}/${name}` : join(dir.path, name);
}

function openRoot(root: string): OpenDir {
  try {
    return { fd: openSync(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW), path: root };
  } catch (e) {
    throw explain(e, root);
  }
}

function openChild(dir: OpenDir, name: string, create: boolean, dirMode = PRIVATE_DIR_MODE): OpenDir {
  const path = join(dir.path, name);
  if (create) {
    try {
      mkdirSync(entryPath(dir, name), { mode: dirMode });
    } catch (e) {
      // EEXIST: a folder (or a link, refused just below) is there already.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw explain(e, path);
    }
  }
  if (!viaProc && lstatSync(path).isSymbolicLink()) throw new LinkInTheWayError(path, 'a symbolic link');
  try {
    return { fd: openSync(entryPath(dir, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW), path };
  } catch (e) {
    throw explain(e, path);
  }
}

/** Opens the folder `steps` below `root` (each step without following a link); the caller closes it. */
function openDirBelow(root: string, steps: readonly string[], create: boolean, dirMode?: number): OpenDir {
  let dir = openRoot(root);
  try {
    for (const step of steps) {
      const next = openChild(dir, step, create, dirMode);
      closeSync(dir.fd);
      dir = next;
    }
    return dir;
  } catch (e) {
    closeSync(dir.fd);
    throw e;
  }
}

function withParent<T>(root: string, rel: string, opts: OpenBelowOptions, use: (dir: OpenDir, name: string) => T): T {
  const steps = stepsOf(rel);
  const dir = openDirBelow(root, steps.slice(0, -1), !!opts.makeDirs, opts.dirMode);
  try {
    return use(dir, steps[steps.length - 1]);
  } finally {
    closeSync(dir.fd);
  }
}

/** Opens a regular file in an open folder; a link or a special file there is refused. */
function openFileIn(dir: OpenDir, name: string, flags: number): number {
  const path = join(dir.path, name);
  if (!viaProc) {
    const seen = lstatSync(path, { throwIfNoEntry: false });
    if (seen?.isSymbolicLink()) throw new LinkInTheWayError(path, 'a symbolic link');
  }
  let fd: number;
  try {
    fd = openSync(entryPath(dir, name), flags | O_NOFOLLOW | O_NONBLOCK, PRIVATE_FILE_MODE);
  } catch (e) {
    throw explain(e, path);
  }
  const info = fstatSync(fd);
  if (!info.isFile()) {
    closeSync(fd);
    throw new LinkInTheWayError(path, info.isDirectory() ? 'a folder' : 'a special file (a pipe, socket or device)');
  }
  return fd;
}

export interface OpenBelowOptions {
  /** Create missing folders on the way (0700, or `dirMode`). */
  makeDirs?: boolean;
  /** Mode of the folders made on the way (the umask applies); 0700 when absent. */
  dirMode?: number;
}

/**
 * Opens `rel` below `root` with `flags` (O_* constants; O_NOFOLLOW is always added) and returns the descriptor; the
 * caller closes it. Throws LinkInTheWayError when a link or a special file is met on the way.
 */
export function openBelow(root: string, rel: string, flags: number, opts: OpenBelowOptions = {}): number {
  return withParent(root, rel, opts, (dir, name) => openFileIn(dir, name, flags));
}

/** Creates the folder `rel` below `root` (and those on the way, 0700); an existing folder is kept. */
export function mkdirBelow(root: string, rel: string): void {
  const dir = openDirBelow(root, stepsOf(rel), true);
  closeSync(dir.fd);
}

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/**
 * Writes a whole file below `root` and returns what was written (its fstat). `exclusive`: a new file only (fails with
 * EEXIST when one is there); otherwise the bytes go to a fresh temporary name in the same folder and are renamed over
 * the file, so a reader never sees half of it and a link at the file's name is replaced, not followed. `mode`:
 * permission bits set on the new file before it takes its name.
 */
export function writeFileBelow(
  root: string,
  rel: string,
  data: string | Uint8Array,
  opts: OpenBelowOptions & { exclusive?: boolean; mode?: number } = {},
): Stats {
  return withParent(root, rel, opts, (dir, name) => {
    const target = opts.exclusive ? name : `.${name}.${randomBytes(6).toString('hex')}.tmp`;
    const fd = openFileIn(dir, target, O_WRONLY | O_CREAT | O_EXCL);
    let written: Stats;
    try {
      writeAll(fd, data);
      if (opts.mode !== undefined) fchmodSync(fd, opts.mode);
      written = fstatSync(fd);
    } finally {
      closeSync(fd);
    }
    if (opts.exclusive) return written;
    try {
      renameSync(entryPath(dir, target), entryPath(dir, name));
    } catch (e) {
      unlinkSync(entryPath(dir, target));
      throw explain(e, join(dir.path, name));
    }
    return written;
  });
}

/** Appends to a file below `root`, creating it (0600) when missing. */
export function appendFileBelow(
  root: string,
  rel: string,
  data: string | Uint8Array,
  opts: OpenBelowOptions = {},
): void {
  const fd = openBelow(root, rel, O_WRONLY | O_CREAT | O_APPEND, opts);
  try {
    writeAll(fd, data);
  } finally {
    closeSync(fd);
  }
}

/** Reads a whole file below `root`. */
export function readFileBelow(root: string, rel: string): Buffer {
  const fd = openBelow(root, rel, O_RDONLY);
  try {
    const size = fstatSync(fd).size;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.max(64 * 1024, size - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** Removes the file (or link) `rel` below `root` without following it; a missing file is not an error. */
export function removeBelow(root: string, rel: string): void {
  try {
    withParent(root, rel, {}, (dir, name) => {
      try {
        unlinkSync(entryPath(dir, name));
      } catch (e) {
        throw explain(e, join(dir.path, name));
      }
    });
  } catch (e) {
    // Gone already, or a folder on the way is missing: nothing to remove.
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** The flags a caller of openBelow combines. */
export const OPEN = { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_TRUNC, O_APPEND } as const;
