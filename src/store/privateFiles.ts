// Files and folders under the data root hold whole transcripts, including secrets a command printed,
// so they are created private to the user: folders 0700, files 0600, whatever the umask says
// (docs/sessions.md "What is kept on disk"). Every writer under $JARVIS_CODE_HOME goes through these.
import { appendFileSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` and any missing parents as 0700; a folder that already exists keeps its mode. */
export function mkdirPrivateSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

export async function mkdirPrivate(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Writes (replacing) a file; a new file is created 0600. */
export function writePrivateFileSync(path: string, data: string | Uint8Array, flag = 'w'): void {
  writeFileSync(path, data, { mode: PRIVATE_FILE_MODE, flag });
}

export async function writePrivateFile(path: string, data: string | Uint8Array, flag = 'w'): Promise<void> {
  await writeFile(path, data, { mode: PRIVATE_FILE_MODE, flag });
}

/** Appends to a file; a new file is created 0600. */
export function appendPrivateFileSync(path: string, data: string | Uint8Array): void {
  appendFileSync(path, data, { mode: PRIVATE_FILE_MODE });
}

/** Opens a file descriptor (`a`, `w`, `wx`…); a new file is created 0600. */
export function openPrivateSync(path: string, flags: string): number {
  return openSync(path, flags, PRIVATE_FILE_MODE);
}

/** What an error of a file operation means, in words a user can act on. */
export function fsReason(e: unknown): string {
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
