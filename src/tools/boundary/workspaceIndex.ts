// What the trust boundary knows about the files of the session's workspace (docs/trust-boundary.md "Secrets"): the
// secret files to hide from commands, the git entries (`.git` folders and files) whose code runs later, and the
// folders it could not search, which are hidden whole (fail closed). Built once per session by one walk, then kept
// current by re-reading only the folders whose own stat changed since they were read — the per-command cost is one
// stat per folder, not a walk (bench/boundary.bench.mjs).
import { readdirSync, statSync, type BigIntStats, type Dirent } from 'node:fs';
import { basename, join } from 'node:path';
import { classifyEntry, type EntryKind } from './indexEntries';
import { SecretLinks } from './secretLinks';

/** How many entries the first walk reads before it stops; the folders it did not reach are hidden whole. */
export const INDEX_MAX_ENTRIES = 1_000_000;
/**
 * A folder changed this recently (by its mtime) is read again at the next refresh: two changes within one tick of the
 * file system's clock leave the same mtime, so "unchanged" is only trusted for folders older than this.
 */
const RACY_MS = 2_000;
/** Folders the first walk reads before it lets the event loop run. */
const WALK_SLICE = 64;

interface FolderState {
  dev: bigint;
  ino: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  readAtMs: number;
  children: Map<string, EntryKind>;
}

/** What a refresh found that was not there before. */
export interface IndexChanges {
  secrets: string[];
  gitEntries: string[];
}

export interface IndexOptions {
  maxEntries?: number;
  /** Secret files outside the roots (the home's credentials) whose hard links inside the roots must be hidden too. */
  outsideSecrets?: readonly string[];
}

export class WorkspaceIndex {
  private readonly folders = new Map<string, FolderState>();
  private readonly secretPaths = new Map<string, 'name' | 'link' | 'hardlink'>();
  private readonly gitPaths = new Set<string>();
  private readonly hiddenFolders = new Map<string, string>();
  private readonly links: SecretLinks;
  private readonly maxEntries: number;
  private entries = 0;
  private scan?: Promise<void>;

  constructor(
    readonly roots: readonly string[],
    opts: IndexOptions = {},
  ) {
    this.maxEntries = opts.maxEntries ?? INDEX_MAX_ENTRIES;
    this.links = new SecretLinks(opts.outsideSecrets ?? []);
  }

  /** The first walk, started on the first call and shared by every caller. */
  ready(): Promise<void> {
    this.scan ??= this.walkAll();
    return this.scan;
  }

  /** Paths to hide: secret files by name, links to them (symbolic or hard). */
  secrets(): string[] {
    return [...this.secretPaths.keys()];
  }

  /** Folders that could not be searched (unreadable, or past the entry budget), hidden whole, with why. */
  hiddenByRule(): ReadonlyMap<string, string> {
    return this.hiddenFolders;
  }

  /** `.git` entries (folders, files, links) found inside the roots. */
  gitEntries(): string[] {
    return [...this.gitPaths];
  }

  /**
   * Brings the index up to date: every known folder is stat'ed, and only those whose identity, mtime or ctime changed
   * (or that changed too recently to trust) are read again. Call after `ready()`.
   */
  refresh(): IndexChanges {
    const changes: IndexChanges = { secrets: [], gitEntries: [] };
    const before = { secrets: new Set(this.secretPaths.keys()), git: new Set(this.gitPaths) };
    const now = Date.now();
    for (const path of [...this.folders.keys()]) {
      const state = this.folders.get(path);
      if (!state) continue; // dropped with a parent earlier in this pass
      const st = statOrUndefined(path);
      if (!st?.isDirectory()) {
        this.drop(path);
        continue;
      }
      if (st.ino !== state.ino || st.dev !== state.dev) {
        this.drop(path);
        this.walkSync(path);
        continue;
      }
      const racy = now - Number(state.mtimeNs / 1_000_000n) < RACY_MS;
      if (racy || st.mtimeNs !== state.mtimeNs || st.ctimeNs !== state.ctimeNs) this.reread(path, st);
    }
    this.links.sweepIfNeeded(this.fileEntries(), (path) => this.secretPaths.set(path, 'hardlink'));
    for (const path of this.secretPaths.keys()) if (!before.secrets.has(path)) changes.secrets.push(path);
    for (const path of this.gitPaths) if (!before.git.has(path)) changes.gitEntries.push(path);
    return changes;
  }

  /**
   * The first walk: synchronous reads (much cheaper than one promise per folder), in slices with a turn of the event
   * loop between them, so start-up and the UI go on while it runs.
   */
  private async walkAll(): Promise<void> {
    const queue = [...this.roots];
    for (let i = 0; i < queue.length; i++) {
      if (i % WALK_SLICE === WALK_SLICE - 1) await new Promise((resolve) => setImmediate(resolve));
      if (this.entries >= this.maxEntries) {
        this.hiddenFolders.set(queue[i], 'not searched: the workspace has more entries than the search reads');
        continue;
      }
      queue.push(...this.record(queue[i], listSync(queue[i]), false));
    }
    this.links.sweepIfNeeded(this.fileEntries(), (path) => this.secretPaths.set(path, 'hardlink'));
  }

  /** A new folder found by a refresh: walked at once, within the same budget. */
  private walkSync(root: string): void {
    const queue = [root];
    for (let i = 0; i < queue.length; i++) {
      if (this.entries >= this.maxEntries) {
        this.hiddenFolders.set(queue[i], 'not searched: the workspace has more entries than the search reads');
        continue;
      }
      queue.push(...this.record(queue[i], listSync(queue[i]), true));
    }
  }

  /**
   * Records one folder's listing; returns the subfolders to walk. `newFiles`: its files appeared after the first walk,
   * so each is checked for being a hard link to a known secret (the first walk checks all at once, only when needed).
   */
  private record(dir: string, listed: Listing, newFiles: boolean): string[] {
    if ('error' in listed) {
      if (listed.error !== 'gone') this.hiddenFolders.set(dir, `not searched: ${listed.error}`);
      return [];
    }
    this.hiddenFolders.delete(dir);
    const children = new Map<string, EntryKind>();
    const subdirs: string[] = [];
    this.entries += listed.entries.length;
    for (const entry of listed.entries) {
      const kind = kindOf(entry);
      children.set(entry.name, kind);
      if (this.classify(dir, entry.name, kind, newFiles) === 'descend') subdirs.push(join(dir, entry.name));
    }
    this.folders.set(dir, { ...identity(listed.stat), readAtMs: listed.readAtMs, children });
    this.noteRepositoryShape(dir, children);
    return subdirs;
  }

  private classify(dir: string, name: string, kind: EntryKind, newFile: boolean): 'descend' | 'leaf' {
    const path = join(dir, name);
    const found = classifyEntry(basename(dir), name, kind, path);
    if (found === 'git') this.gitPaths.add(path);
    else if (found === 'secret' || found === 'secret-link') {
      this.secretPaths.set(path, found === 'secret' ? 'name' : 'link');
      if (kind === 'file') this.links.addSecret(path);
    } else if (kind === 'file' && newFile) this.links.checkNewFile(path, (p) => this.secretPaths.set(p, 'hardlink'));
    return found === 'descend' ? 'descend' : 'leaf';
  }

  private reread(dir: string, st: BigIntStats): void {
    const state = this.folders.get(dir)!;
    const listed = listSync(dir);
    if ('error' in listed) {
      this.drop(dir);
      if (listed.error !== 'gone') this.hiddenFolders.set(dir, `not searched: ${listed.error}`);
      return;
    }
    const fresh = new Map<string, EntryKind>();
    for (const entry of listed.entries) fresh.set(entry.name, kindOf(entry));
    for (const [name, kind] of state.children) {
      if (fresh.get(name) !== kind) this.forget(join(dir, name), kind);
    }
    for (const [name, kind] of fresh) {
      if (state.children.get(name) === kind) continue;
      this.entries++;
      if (this.classify(dir, name, kind, true) === 'descend') this.walkSync(join(dir, name));
    }
    this.folders.set(dir, { ...identity(st), readAtMs: listed.readAtMs, children: fresh });
    this.noteRepositoryShape(dir, fresh);
  }

  /** A folder git reads as a repository by its shape (HEAD, objects/, refs/): a bare repository is a git entry too. */
  private noteRepositoryShape(dir: string, children: ReadonlyMap<string, EntryKind>): void {
    const shaped =
      children.get('HEAD') === 'file' && children.get('objects') === 'dir' && children.get('refs') === 'dir';
    if (shaped) this.gitPaths.add(dir);
    else this.gitPaths.delete(dir);
  }

  /** An entry that went away (or changed kind): what was known about it and below it goes. */
  private forget(path: string, kind: EntryKind): void {
    this.secretPaths.delete(path);
    this.gitPaths.delete(path);
    this.links.forget(path);
    if (kind === 'dir') this.drop(path);
  }

  /** A folder that went away: it and everything recorded below it. */
  private drop(dir: string): void {
    const prefix = `${dir}/`;
    for (const map of [this.folders, this.secretPaths, this.hiddenFolders] as Map<string, unknown>[]) {
      for (const key of [...map.keys()]) if (key === dir || key.startsWith(prefix)) map.delete(key);
    }
    for (const key of [...this.gitPaths]) if (key === dir || key.startsWith(prefix)) this.gitPaths.delete(key);
    this.links.forgetBelow(dir);
  }

  private *fileEntries(): Generator<string> {
    for (const [dir, state] of this.folders)
      for (const [name, kind] of state.children) if (kind === 'file') yield join(dir, name);
  }
}

type Listing = { entries: Dirent[]; stat: BigIntStats; readAtMs: number } | { error: string };

function kindOf(entry: Dirent): EntryKind {
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  if (entry.isSymbolicLink()) return 'link';
  return 'other';
}

function identity(st: BigIntStats): Omit<FolderState, 'readAtMs' | 'children'> {
  return { dev: st.dev, ino: st.ino, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs };
}

function statOrUndefined(path: string): BigIntStats | undefined {
  try {
    return statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined; // unreadable on the way: the parent's listing says what is there
  }
}

/** The folder's stat is taken before its listing, so a change during the read leaves a newer mtime than recorded. */
function listSync(dir: string): Listing {
  try {
    const stat = statSync(dir, { bigint: true });
    const readAtMs = Date.now();
    return { entries: readdirSync(dir, { withFileTypes: true }), stat, readAtMs };
  } catch (e) {
    return { error: listingError(e) };
  }
}

function listingError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'gone';
  return `${code ?? 'error'}: ${(e as Error).message}`;
}
