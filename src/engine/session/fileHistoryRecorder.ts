// Takes the copies the file history needs (fileHistory.ts): before a write, the file's bytes go into
// the session's content-addressed store; after it, the new version is noted; after a command, the
// files the session knows are checked for changes the command made. One recorder per runtime: every
// agent's tool calls (subagents' too) are recorded in the main session's journal, because a rewind
// puts back the files of the whole session.
import { readFile, stat } from 'node:fs/promises';
import { FileBlobStore, sha256Of } from '../../store/fileBlobs';
import type { ToolAccess } from '../../tools/defineTool';
import type { FileSnapshot } from './fileGuard';
import { sameVersion, type CommandRun, type FileChange, type FileVersion } from './fileHistory';
import type { Session } from './session';

/** `[rewind] max_file_bytes` default: bigger files are not copied, and a rewind says it cannot restore them. */
export const DEFAULT_REWIND_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** How many known files a command run is checked against (a stat each; hashed only when size or time moved). */
const COMMAND_CHECK_LIMIT = 5_000;

export interface FileHistorySettings {
  /** Files up to this size are copied before a write; 0 keeps no copies (changes are still recorded). */
  maxFileBytes: number;
}

/** A write about to happen: the version it starts from. */
export interface PendingWrite {
  path: string;
  before: FileVersion;
}

/**
 * The version of `path` on disk; undefined when it is not a regular file (a folder: nothing to keep).
 * Bytes up to `hashLimit` are hashed (and kept when `keep` is given).
 */
export async function readVersion(
  path: string,
  hashLimit: number,
  keep?: FileBlobStore,
): Promise<FileVersion | undefined> {
  let info;
  try {
    info = await stat(path);
  } catch (e) {
    // ENOTDIR: a parent is a file, so this path cannot exist (the write will fail and say why).
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent' };
    throw e;
  }
  if (!info.isFile()) return undefined;
  const version: FileVersion = {
    kind: 'file',
    size: info.size,
    mode: info.mode & 0o7777,
    mtimeMs: info.mtimeMs,
    kept: false,
  };
  if (info.size > hashLimit) return version;
  const bytes = await readFile(path);
  version.size = bytes.byteLength;
  version.hash = keep ? await keep.put(bytes) : sha256Of(bytes);
  version.kept = !!keep;
  return version;
}

function reasonOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class FileHistoryRecorder {
  readonly blobs: FileBlobStore;
  /** Size and time last seen per known file, so a command run reports a file once per change. */
  private readonly seen = new Map<string, { size: number; mtimeMs: number }>();

  constructor(
    /** The main session: its journal records every agent's changes. */
    readonly session: Session,
    readonly settings: FileHistorySettings,
  ) {
    this.blobs = new FileBlobStore(session.dir);
  }

  /**
   * Before a call with write accesses runs: keeps each target's current bytes. Returns the message for
   * the model when a copy cannot be kept — the call must not run then, or its change could not be undone.
   */
  async beforeWrite(accesses: readonly ToolAccess[]): Promise<{ pending: PendingWrite[] } | { error: string }> {
    const pending: PendingWrite[] = [];
    const paths = new Set(accesses.filter((a) => a.kind === 'write').map((a) => a.path));
    for (const path of paths) {
      try {
        const before = await readVersion(path, this.settings.maxFileBytes, this.blobs);
        if (before) pending.push({ path, before });
      } catch (e) {
        return {
          error: `Could not keep a copy of ${path} before changing it, so it was not changed: ${reasonOf(e)}. Free some disk space (or check the session folder's permissions) and retry.`,
        };
      }
    }
    return { pending };
  }

  /** After the call (whatever its result): what each target became; unchanged files are left out. */
  async afterWrite(pending: readonly PendingWrite[], captured: readonly FileSnapshot[]): Promise<FileChange[]> {
    const changes: FileChange[] = [];
    for (const { path, before } of pending) {
      // The stale-file guard has just hashed what the write left (files up to its own limit): reuse it.
      const snap = captured.find((s) => s.path === path);
      let after: FileVersion | undefined;
      if (snap?.hash && snap.size <= this.settings.maxFileBytes)
        after = { kind: 'file', size: snap.size, hash: snap.hash, mtimeMs: snap.mtimeMs, kept: false };
      else after = await readVersion(path, this.settings.maxFileBytes).catch(() => undefined);
      if (!after || sameVersion(before, after)) continue;
      this.seen.delete(path);
      changes.push({ path, before, after });
    }
    return changes;
  }

  /**
   * After a command ran (it runs alone: a command conflicts with every other call): the files the
   * session knows — that the agent changed or read — whose size or time moved since last seen,
   * confirmed by content where it was hashed.
   */
  async afterCommand(subject: string, known: readonly FileSnapshot[]): Promise<CommandRun> {
    const versions = new Map<string, FileVersion>();
    for (const [path, version] of Object.entries(this.session.state.fileHistory.known)) versions.set(path, version);
    for (const snap of known)
      if (!versions.has(snap.path))
        versions.set(snap.path, { kind: 'file', size: snap.size, hash: snap.hash, mtimeMs: snap.mtimeMs, kept: false });
    const changed: string[] = [];
    for (const [path, version] of [...versions].slice(0, COMMAND_CHECK_LIMIT)) {
      const info = await stat(path).catch(() => undefined);
      const now = info?.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : undefined;
      const last =
        this.seen.get(path) ??
        (version.kind === 'file' ? { size: version.size, mtimeMs: version.mtimeMs ?? -1 } : undefined);
      if (now?.size === last?.size && now?.mtimeMs === last?.mtimeMs) continue;
      if (now) this.seen.set(path, now);
      else this.seen.delete(path);
      if (now && version.kind === 'file' && version.hash && now.size === version.size) {
        const current = await readVersion(path, this.settings.maxFileBytes).catch(() => undefined);
        if (current && sameVersion(current, version)) continue; // touched, same bytes
      }
      changed.push(path);
    }
    return { subject, changed };
  }

  /** One journal record per tool batch that changed files or ran commands. */
  record(changes: readonly FileChange[], commands: readonly CommandRun[]): void {
    if (!changes.length && !commands.length) return;
    this.session.commit({
      type: 'file_changes',
      changes: [...changes],
      ...(commands.length ? { commands: [...commands] } : {}),
    });
  }
}
