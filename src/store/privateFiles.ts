// Files and folders under the data root hold whole transcripts, including secrets a command printed,
// so they are created private to the user: folders 0700, files 0600, whatever the umask says
// (docs/sessions.md "What is kept on disk"). Every writer under $JARVIS_CODE_HOME goes through these.
// None of them writes through a symbolic link standing where the file should be, and none blocks on a
// special file (a FIFO) there: that is an error naming the path (docs/sessions.md, "Links are never
// followed"). Below a folder Jarvis owns, ownedFiles.ts also refuses links in the folders on the way.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const { O_WRONLY, O_RDONLY, O_RDWR, O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_NOFOLLOW, O_NONBLOCK } = constants;

/** A link (or a file of the wrong kind) stands where Jarvis keeps one of its own files or folders. */
export class LinkInTheWayError extends Error {
  constructor(
    readonly path: string,
    what: string,
  ) {
    super(
      `${path} is ${what}; Jarvis never writes or reads its own files through a link or a special file, and it did ` +
        'not make this one: look at what made it, remove it, and retry.',
    );
    this.name = 'LinkInTheWayError';
  }
}

/** What stands at `path`, in words for LinkInTheWayError. */
export function describeEntry(path: string): string {
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (!info || info.isSymbolicLink()) return 'a symbolic link';
  if (info.isDirectory()) return 'a folder';
  if (info.isFile()) return 'a file';
  return 'a special file (a pipe, socket or device)';
}

/**
 * An open that met a link (ELOOP, or ENOTDIR where a link stands for a folder) or a FIFO (ENXIO), as
 * LinkInTheWayError; any other failure (a plain file where a folder belongs, a full disk) as it is.
 */
export function explainOpenFailure(e: unknown, path: string): unknown {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'ELOOP' && code !== 'ENOTDIR' && code !== 'ENXIO') return e;
  const what = describeEntry(path);
  return code === 'ENOTDIR' && what !== 'a symbolic link' ? e : new LinkInTheWayError(path, what);
}

const FLAGS: Record<string, number> = {
  r: O_RDONLY,
  w: O_WRONLY | O_CREAT | O_TRUNC,
  wx: O_WRONLY | O_CREAT | O_EXCL,
  a: O_WRONLY | O_CREAT | O_APPEND,
  ax: O_WRONLY | O_CREAT | O_APPEND | O_EXCL,
  'r+': O_RDWR,
};

/** Creates `dir` and any missing parents as 0700; a folder that already exists keeps its mode. */
export function mkdirPrivateSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

export async function mkdirPrivate(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Opens a file descriptor (`r`, `a`, `w`, `wx`…); a new file is created 0600. A link at `path` is never followed and
 * anything but a regular file there is refused (LinkInTheWayError).
 */
export function openPrivateSync(path: string, flags: string): number {
  const mode = FLAGS[flags];
  if (mode === undefined) throw new Error(`unsupported open flags "${flags}"`);
  let fd: number;
  try {
    fd = openSync(path, mode | O_NOFOLLOW | O_NONBLOCK, PRIVATE_FILE_MODE);
  } catch (e) {
    throw explainOpenFailure(e, path);
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new LinkInTheWayError(path, 'a special file (a pipe, socket or device)');
  }
  return fd;
}

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** Writes (replacing) a file; a new file is created 0600. */
export function writePrivateFileSync(path: string, data: string | Uint8Array, flag = 'w'): void {
  const fd = openPrivateSync(path, flag);
  try {
    writeAll(fd, data);
  } finally {
    closeSync(fd);
  }
}

export async function writePrivateFile(path: string, data: string | Uint8Array, flag = 'w'): Promise<void> {
  writePrivateFileSync(path, data, flag);
}

/** Appends to a file; a new file is created 0600. */
export function appendPrivateFileSync(path: string, data: string | Uint8Array): void {
  const fd = openPrivateSync(path, 'a');
  try {
    writeAll(fd, data);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces a file atomically: the bytes go to a fresh temporary name beside it (created exclusively, 0600) and are
 * renamed over it, so a reader never sees half a file and a link at `path` is replaced, not followed.
 */
export function replacePrivateFileSync(path: string, data: string | Uint8Array): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  writePrivateFileSync(tmp, data, 'wx');
  try {
    renameSync(tmp, path);
  } catch (e) {
    unlinkSync(tmp);
    throw e;
  }
}

/** What an error of a file operation means, in words a user can act on. */
export function fsReason(e: unknown): string {
  if (e instanceof LinkInTheWayError) return e.message;
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC') return 'the disk is full';
  if (code === 'EDQUOT') return 'the disk quota is used up';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'the file system is read-only';
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'something other than a folder is in its place';
  if (code === 'EISDIR') return 'a folder is in its place';
  if (code === 'ENOENT') return 'it does not exist';
  return e instanceof Error ? e.message : String(e);
}
