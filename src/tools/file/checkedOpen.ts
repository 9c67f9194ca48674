// Opening the file a call was approved for, and no other (docs/approvals.md "Paths that hold under
// races"). The approval judged a canonical path (no symbolic links in it); between that judgement and
// the open, a folder on the way or the file itself can be swapped for a link to somewhere else. So:
// - reads and writes of an existing file open it without following a final link (O_NOFOLLOW) and then
//   ask the kernel where the opened descriptor really is (/proc/self/fd); anything but the approved
//   path is closed unread and unwritten;
// - a new file is created with O_CREAT|O_EXCL|O_NOFOLLOW inside its parent folder held open by a
//   descriptor whose own place was checked the same way (/proc/self/fd/<dir>/<name> is openat), and
//   missing parent folders are made one at a time the same way;
// - a regular file with more than one hard link counts as outside the workspace (its other names can
//   be anywhere): the call must have been approved knowing that (`linked` on its access), else refused.
// Writes change the file in place (truncate and write through the checked descriptor) rather than
// through a temporary file and rename: the file keeps its inode, mode and owner, as before.
import { constants, lstatSync, readlinkSync, type Stats } from 'node:fs';
import { mkdir, open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ToolAccess, ToolContext } from '../defineTool';
import { PathRejectedError, resolveToolPath } from './pathPolicy';

export type FileAccess = Extract<ToolAccess, { path: string }>;

const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = constants;
export { O_RDONLY, O_RDWR, O_WRONLY };

/** Attempts at creating or opening a file that keeps appearing and disappearing under us. */
const MAX_OPEN_ATTEMPTS = 3;

/** The read or write access a file tool declares for `path`, noting a file with more than one hard link. */
export function fileAccess(kind: 'read' | 'write', path: string, opts: { tracked?: boolean } = {}): FileAccess {
  const linked = hardLinkCount(path) > 1 ? { linked: true as const } : {};
  if (kind === 'write') return { kind, path, ...linked };
  return opts.tracked ? { kind, path, tracked: true, ...linked } : { kind, path, ...linked };
}

/** The hard-link count of the regular file at `path` (not following a final link); 0 for anything else. */
export function hardLinkCount(path: string): number {
  let info: Stats | undefined;
  try {
    info = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    // A path that cannot be looked at (ENOTDIR, EACCES) is no file; the tool's own open reports why.
    return 0;
  }
  return info?.isFile() ? info.nlink : 0;
}

/**
 * The access this call was approved for (fixed when it was judged), else — for a call run directly,
 * without a judgement — the path resolved now, with no approval of a hard-linked file.
 */
export function approvedAccess(ctx: ToolContext, rawPath: string, kind: 'read' | 'write'): FileAccess {
  const approved = ctx.approved?.find((a): a is FileAccess => a.kind === kind);
  if (approved) return approved;
  return { kind, path: resolveToolPath(ctx, rawPath) } as FileAccess;
}

export function hardLinkMessage(path: string, links: number): string {
  return (
    `${path} has ${links} hard links: its other names may be outside the workspace, so the file tools treat it as ` +
    'outside and it was not opened. If it is meant to be used, ask the user to approve this call, or copy the file ' +
    '(cp) and use the copy.'
  );
}

function swappedMessage(path: string, now: string): string {
  return (
    `${path} was replaced while it was being opened (it now leads to ${now}); nothing was read or written. ` +
    'Check the path and call again.'
  );
}

/** Where an open descriptor really is, as the kernel names it; undefined where /proc is not available. */
function descriptorPath(handle: FileHandle): string | undefined {
  if (process.platform !== 'linux') return undefined;
  return readlinkSync(`/proc/self/fd/${handle.fd}`);
}

/** Checks that `handle` is the file or folder at canonical `path`; closes it and throws otherwise. */
async function verifyPlace(handle: FileHandle, path: string): Promise<Stats> {
  const info = await handle.stat();
  const real = descriptorPath(handle);
  if (real !== undefined) {
    if (real !== path) throw new PathRejectedError(swappedMessage(path, real));
    return info;
  }
  // Without /proc: the path must still be canonical and name the very file that was opened.
  const now = await realpath(path).catch(() => path);
  const named = await stat(path).catch(() => undefined);
  const same = named !== undefined && named.ino === info.ino && named.dev === info.dev;
  if (now !== path || !same) throw new PathRejectedError(swappedMessage(path, now));
  return info;
}

function isCode(e: unknown, ...codes: string[]): boolean {
  return codes.includes((e as NodeJS.ErrnoException)?.code ?? '');
}

/** Opens an existing entry, checked as above; `flags` is O_RDONLY, O_WRONLY or O_RDWR (+ O_APPEND). */
export async function openChecked(access: FileAccess, flags: number): Promise<{ handle: FileHandle; info: Stats }> {
  let handle: FileHandle;
  try {
    handle = await open(access.path, flags | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    if (isCode(e, 'ELOOP')) throw new PathRejectedError(swappedMessage(access.path, 'a symbolic link'));
    throw e;
  }
  try {
    const info = await verifyPlace(handle, access.path);
    if (info.isFile() && info.nlink > 1 && !access.linked) {
      throw new PathRejectedError(hardLinkMessage(access.path, info.nlink));
    }
    return { handle, info };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

interface Folder {
  handle: FileHandle;
  path: string;
}

/** The folder `dir` (canonical) held open and checked, made (one checked level at a time) when missing. */
async function checkedFolder(dir: string, hops = 0): Promise<Folder> {
  try {
    const handle = await open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    try {
      await verifyPlace(handle, dir);
      return { handle, path: dir };
    } catch (e) {
      await handle.close();
      throw e;
    }
  } catch (e) {
    if (!isCode(e, 'ENOENT') || dirname(dir) === dir || hops > 64) {
      if (isCode(e, 'ELOOP', 'ENOTDIR')) {
        throw new PathRejectedError(swappedMessage(dir, 'something that is not a folder'));
      }
      throw e;
    }
  }
  const parent = await checkedFolder(dirname(dir), hops + 1);
  try {
    await mkdir(childOf(parent, basename(dir))).catch((e: unknown) => {
      if (!isCode(e, 'EEXIST')) throw e;
    });
  } finally {
    await parent.handle.close();
  }
  return checkedFolder(dir, hops + 1);
}

/** Makes the (canonical) folder `dir` and its missing parents, each level checked as above. */
export async function ensureFolder(dir: string): Promise<void> {
  await (await checkedFolder(dir)).handle.close();
}

/**
 * `name` inside the folder held by `dir`, as a path the kernel resolves through the descriptor (openat);
 * without /proc, the folder's checked path (a narrower window, documented in docs/approvals.md).
 */
function childOf(dir: Folder, name: string): string {
  return process.platform === 'linux' ? `/proc/self/fd/${dir.handle.fd}/${name}` : join(dir.path, name);
}

/**
 * The bytes of the file open on `handle` from `start`, in chunks, read by position (the handle stays
 * open and its position unchanged; a stream over a FileHandle would close it when destroyed).
 */
export async function* chunksOf(handle: FileHandle, start: number, chunkBytes: number): AsyncGenerator<Buffer> {
  for (let position = start; ;) {
    const buffer = Buffer.alloc(chunkBytes);
    const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

async function writeAll(handle: FileHandle, data: Buffer, position: number | null): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const at = position === null ? null : position + done;
    const { bytesWritten } = await handle.write(data, done, data.length - done, at);
    if (bytesWritten === 0) throw new Error(`the disk accepted no more bytes after ${done} of ${data.length}`);
    done += bytesWritten;
  }
}

/** Replaces the whole content of the file open on `handle` (opened for writing). */
export async function replaceContent(handle: FileHandle, data: Buffer): Promise<void> {
  await handle.truncate(0);
  await writeAll(handle, data, 0);
}

/**
 * Writes `data` to the approved path: an existing regular file is overwritten (or appended to) in place
 * through a checked descriptor; a missing one is created in its checked parent folder. Returns whether
 * the file was created.
 */
export async function writeChecked(
  access: FileAccess,
  data: Buffer,
  mode: 'overwrite' | 'append',
): Promise<{ created: boolean }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { handle, info } = await openChecked(access, O_WRONLY | (mode === 'append' ? O_APPEND : 0));
      try {
        if (!info.isFile()) {
          throw new PathRejectedError(`${access.path} is not a regular file; only regular files are written.`);
        }
        if (mode === 'append') await writeAll(handle, data, null);
        else await replaceContent(handle, data);
      } finally {
        await handle.close();
      }
      return { created: false };
    } catch (e) {
      if (!isCode(e, 'ENOENT')) throw e;
    }
    const dir = await checkedFolder(dirname(access.path));
    try {
      const handle = await open(childOf(dir, basename(access.path)), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666);
      try {
        await writeAll(handle, data, 0);
      } finally {
        await handle.close();
      }
      return { created: true };
    } catch (e) {
      // Something appeared at the name between the two opens: try the existing-file way again.
      if (!isCode(e, 'EEXIST') || attempt >= MAX_OPEN_ATTEMPTS) throw e;
    } finally {
      await dir.handle.close();
    }
  }
}
