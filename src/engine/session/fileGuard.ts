// The read-before-write and stale-file guard, shared by every tool that declares file accesses.
// A tool that writes an existing file must have read it (a `tracked` read access) in this session,
// and the file must not have changed on disk since. Snapshots are journalled, so the guard survives
// resume: replaying the journal restores them.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { ToolAccess } from '../../tools/defineTool';

export interface FileSnapshot {
  path: string;
  mtimeMs: number;
  size: number;
  /** sha256 of the content for files up to HASH_LIMIT bytes; catches edits within one mtime tick. */
  hash?: string;
}

const HASH_LIMIT = 4 * 1024 * 1024;

async function snapshotOf(path: string): Promise<FileSnapshot | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    const snap: FileSnapshot = { path, mtimeMs: info.mtimeMs, size: info.size };
    if (info.size <= HASH_LIMIT)
      snap.hash = createHash('sha256')
        .update(await readFile(path))
        .digest('hex');
    return snap;
  } catch {
    return undefined;
  }
}

function sameFile(a: FileSnapshot, b: FileSnapshot): boolean {
  if (a.size !== b.size) return false;
  if (a.hash && b.hash) return a.hash === b.hash;
  return a.mtimeMs === b.mtimeMs;
}

export class FileStateGuard {
  private readonly snapshots = new Map<string, FileSnapshot>();

  /** Returns an error message when a write must not proceed, undefined when it may. */
  async check(accesses: readonly ToolAccess[]): Promise<string | undefined> {
    for (const access of accesses) {
      if (access.kind !== 'write') continue;
      const current = await snapshotOf(access.path);
      if (!current) continue; // creating a new file needs no prior read
      const known = this.snapshots.get(access.path);
      if (!known) {
        return `${access.path} already exists and has not been read in this session. Read it first, then retry the change.`;
      }
      if (!sameFile(known, current)) {
        return `${access.path} has changed on disk since it was last read (by the user or another process). Read it again to see its current content, then retry the change.`;
      }
    }
    return undefined;
  }

  /** After a successful call: remember what tracked reads saw and what writes left behind. */
  async capture(accesses: readonly ToolAccess[]): Promise<FileSnapshot[]> {
    const taken: FileSnapshot[] = [];
    for (const access of accesses) {
      const tracked = access.kind === 'write' || (access.kind === 'read' && 'tracked' in access && access.tracked);
      if (!tracked) continue;
      const snap = await snapshotOf(access.path);
      if (!snap) continue;
      this.apply(snap);
      taken.push(snap);
    }
    return taken;
  }

  apply(snapshot: FileSnapshot): void {
    this.snapshots.set(snapshot.path, snapshot);
  }

  has(path: string): boolean {
    return this.snapshots.has(path);
  }

  entries(): FileSnapshot[] {
    return [...this.snapshots.values()];
  }
}
