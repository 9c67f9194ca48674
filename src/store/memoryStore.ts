// Persistent memory (docs/memory.md): one append-only JSONL file per scope — user
// (`<home>/memory/user.jsonl`), workspace (`<home>/memory/workspaces/<workDirKey>.jsonl`, this folder
// only, kept outside it) and project (`<project>/.jarvis-code/memory.jsonl`, travels with the
// repository). A record is a `put` (create or replace by name) or a `forget`; the state is the replay.
//
// Concurrency: every change takes `<file>.lock` (an O_EXCL lock file), reads the current state, checks
// the limits and appends one line with a single write. Appends alone would never lose a line, but the
// per-scope record limit and replace-by-name are read-check-write decisions that two processes could
// both make on the same stale view; the lock makes them one at a time. Readers take no lock: they
// see whole lines (a torn last line after a crash is skipped) and compaction swaps the file by rename.
import { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { withFileLock, FileLockTimeoutError } from './fileLock';
import { appendPrivateFileSync, replacePrivateFileSync } from './privateFiles';
import { parseJournalText } from './journal';
import { workDirKey } from './paths';
import {
  isMemoryLine,
  MEMORY_LIMITS,
  MEMORY_SCOPES,
  MemoryError,
  memoryDraftProblem,
  validateDraft,
  type MemoryActor,
  type MemoryDraft,
  type MemoryLine,
  type MemoryRecord,
  type MemoryScope,
} from './memoryRecords';

export {
  MEMORY_LIMITS,
  MEMORY_SCOPES,
  MemoryError,
  memoryDraftProblem,
  type MemoryActor,
  type MemoryDraft,
  type MemoryErrorCode,
  type MemoryOrigin,
  type MemoryRecord,
  type MemoryScope,
} from './memoryRecords';

/** A project memory file larger than this is not read (a repository could ship anything). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

export interface MemoryStoreOptions {
  home: string;
  /** The workspace folder (its trust decides whether project memory exists for this session). */
  cwd: string;
  /** Read at every call: trusting the folder mid-session makes project memory appear at once. */
  trusted(): boolean;
}

export function memoryFilePath(home: string, cwd: string, scope: MemoryScope): string {
  if (scope === 'user') return join(home, 'memory', 'user.jsonl');
  if (scope === 'workspace') return join(home, 'memory', 'workspaces', `${workDirKey(cwd)}.jsonl`);
  return join(cwd, '.jarvis-code', 'memory.jsonl');
}

const keyOf = (name: string) => name.trim().toLowerCase();

export const UNTRUSTED_PROJECT_MESSAGE =
  'Project memory needs a trusted workspace, and this one is not trusted (its project memories are hidden). ' +
  'Use scope "workspace" to keep the memory for this folder outside the repository, or trust the folder when Jarvis asks.';

interface ParsedFile {
  records: MemoryRecord[];
  warnings: string[];
  lines: number;
  text: string;
}

export class MemoryStore {
  /** The last parse of each file, reused while its size, time and inode stay the same (recall reads at every prompt). */
  private readonly parsed = new Map<string, { stamp: string; file: ParsedFile }>();

  constructor(private readonly opts: MemoryStoreOptions) {}

  path(scope: MemoryScope): string {
    return memoryFilePath(this.opts.home, this.opts.cwd, scope);
  }

  get trusted(): boolean {
    return this.opts.trusted();
  }

  /** The scopes this session may see: project only in a trusted workspace. */
  visibleScopes(): MemoryScope[] {
    return this.opts.trusted() ? [...MEMORY_SCOPES] : ['user', 'workspace'];
  }

  /** Visible records of one scope (or all visible scopes), newest change first. */
  list(scope?: MemoryScope): { records: MemoryRecord[]; warnings: string[] } {
    const scopes = scope ? [scope] : this.visibleScopes();
    if (scope === 'project' && !this.opts.trusted()) throw new MemoryError('untrusted', UNTRUSTED_PROJECT_MESSAGE);
    const records: MemoryRecord[] = [];
    const warnings: string[] = [];
    for (const s of scopes) {
      const read = this.readFile(s);
      records.push(...read.records);
      warnings.push(...read.warnings);
    }
    records.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    return { records, warnings };
  }

  /** Creates or replaces (by name, case-insensitively) one memory. */
  async remember(
    draft: MemoryDraft,
    actor: MemoryActor,
    now = new Date(),
  ): Promise<{ record: MemoryRecord; change: 'created' | 'replaced' | 'unchanged' }> {
    this.checkAllowed(draft.scope, actor);
    const clean = validateDraft(draft);
    const path = this.path(draft.scope);
    return this.locked(path, () => {
      const { records, lines, text } = this.readFile(draft.scope);
      const existing = records.find((r) => keyOf(r.name) === keyOf(clean.name));
      if (existing && existing.description === clean.description && existing.body === clean.body)
        return { record: existing, change: 'unchanged' as const };
      if (!existing && records.length >= MEMORY_LIMITS.recordsPerScope) {
        throw new MemoryError(
          'limit',
          `The ${draft.scope} scope already holds ${records.length} memories, its limit is ${MEMORY_LIMITS.recordsPerScope}. Forget one that is outdated, or replace one by remembering under its name.`,
        );
      }
      const at = now.toISOString();
      const line: MemoryLine = {
        v: 1,
        op: 'put',
        name: clean.name,
        description: clean.description,
        body: clean.body,
        at,
        origin: actor.origin,
      };
      this.append(path, text, line, lines, records);
      const record: MemoryRecord = {
        scope: draft.scope,
        name: clean.name,
        description: clean.description,
        body: clean.body,
        createdAt: existing?.createdAt ?? at,
        updatedAt: at,
        origin: actor.origin,
      };
      return { record, change: existing ? ('replaced' as const) : ('created' as const) };
    });
  }

  async forget(scope: MemoryScope, name: string, actor: MemoryActor, now = new Date()): Promise<MemoryRecord> {
    this.checkAllowed(scope, actor);
    const path = this.path(scope);
    return this.locked(path, () => {
      const { records, lines, text } = this.readFile(scope);
      const existing = records.find((r) => keyOf(r.name) === keyOf(name));
      if (!existing) {
        const names = records.map((r) => r.name);
        throw new MemoryError(
          'not_found',
          `There is no ${scope} memory named "${name}".${
            names.length
              ? ` Its memories: ${names
                  .slice(0, 20)
                  .map((n) => `"${n}"`)
                  .join(', ')}${names.length > 20 ? ', …' : ''}.`
              : ` The ${scope} scope is empty.`
          }`,
        );
      }
      this.append(path, text, { v: 1, op: 'forget', name: existing.name, at: now.toISOString() }, lines, records);
      return existing;
    });
  }

  private checkAllowed(scope: MemoryScope, actor: MemoryActor): void {
    if (scope === 'user' && (!actor.mainAgent || actor.origin !== 'tool')) {
      throw new MemoryError(
        'main_only',
        'Only the main agent can change user-scope memory. Use scope "workspace" or "project", or tell the main agent what to remember.',
      );
    }
    if (scope === 'project' && !this.opts.trusted()) throw new MemoryError('untrusted', UNTRUSTED_PROJECT_MESSAGE);
  }

  /**
   * A scope's file, read only when it is a regular file in its own folder (docs/memory.md): a symbolic
   * link — the file or a folder on the way from the home or project folder — is refused with a warning,
   * never followed, so a link in a repository cannot bring another file's records into the prompt. The
   * file is opened without following a link and checked on the descriptor it is read from.
   */
  private readFile(scope: MemoryScope): ParsedFile {
    const path = this.path(scope);
    const refused = (warning: string): ParsedFile => ({ records: [], warnings: [warning], lines: 0, text: '' });
    const link = linkOnTheWay(scope === 'project' ? this.opts.cwd : this.opts.home, path);
    if (link) {
      return refused(
        `${link} is a symbolic link; memory files are read only from their own folder, so ${path} was not read. ` +
          'Replace the link with a real folder.',
      );
    }
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { records: [], warnings: [], lines: 0, text: '' };
      if (code === 'ELOOP') {
        return refused(
          `${path} is a symbolic link; memory is read only from a regular file, so its records were not recalled. ` +
            'Replace it with a regular file.',
        );
      }
      return refused(`${path} could not be read (${describeIoError(e)}); its memories are left out.`);
    }
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) {
        return refused(`${path} is not a regular file; memory is read only from a regular file, so it was not read.`);
      }
      const stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
      const cached = this.parsed.get(path);
      if (cached?.stamp === stamp) return { ...cached.file, records: [...cached.file.records] };
      const file = this.parseFile(scope, path, stat.size, fd);
      this.parsed.set(path, { stamp, file });
      return { ...file, records: [...file.records] };
    } finally {
      closeSync(fd);
    }
  }

  private parseFile(scope: MemoryScope, path: string, size: number, fd: number): ParsedFile {
    if (size > MAX_FILE_BYTES) {
      return {
        records: [],
        warnings: [
          `${path} is ${Math.round(size / 1024 / 1024)} MiB, larger than a memory file can be (${MAX_FILE_BYTES / 1024 / 1024} MiB); it was not read`,
        ],
        lines: 0,
        text: '',
      };
    }
    const text = readFileSync(fd, 'utf8');
    const { records: lines, warnings } = parseJournalText(path, text, isMemoryLine);
    const byKey = new Map<string, MemoryRecord>();
    for (const line of lines) {
      const key = keyOf(line.name);
      if (line.op === 'forget') {
        byKey.delete(key);
        continue;
      }
      const before = byKey.get(key);
      // Replaying re-checks the limits: a hand-edited or foreign file cannot smuggle oversized records in.
      if (memoryDraftProblem(line) !== undefined) {
        warnings.push(
          `${path}: the memory "${line.name.slice(0, 60)}" breaks the memory limits or holds a credential; it was skipped`,
        );
        continue;
      }
      byKey.delete(key);
      byKey.set(key, {
        scope,
        name: line.name,
        description: line.description,
        body: line.body,
        createdAt: line.created ?? before?.createdAt ?? line.at,
        updatedAt: line.at,
        origin: line.origin,
      });
    }
    return { records: [...byKey.values()], warnings, lines: lines.length, text };
  }

  private async locked<T>(path: string, section: () => T): Promise<T> {
    try {
      return await withFileLock(path, () => section());
    } catch (e) {
      if (e instanceof MemoryError) throw e;
      if (e instanceof FileLockTimeoutError) throw new MemoryError('io', `The memory file is busy: ${e.message}`);
      throw new MemoryError('io', `Could not write ${path} (${describeIoError(e)}); nothing was changed.`);
    }
  }

  /**
   * Appends one line, first ending a torn last line so the two never merge. When forgotten and
   * replaced records make up most of the file, the live records are written to a new file that
   * replaces the old one by rename instead (under the same lock).
   */
  private append(path: string, text: string, line: MemoryLine, lineCount: number, live: readonly MemoryRecord[]): void {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (existsSync(path) && lstatSync(path).isSymbolicLink())
      throw new MemoryError(
        'invalid',
        `${path} is a symbolic link; memory is never written through a link. Replace it with a regular file.`,
      );
    if (lineCount + 1 > live.length * 2 + 64) {
      const key = keyOf(line.name);
      const kept: MemoryLine[] = live
        .filter((r) => keyOf(r.name) !== key)
        .map((r) => ({
          v: 1,
          op: 'put',
          name: r.name,
          description: r.description,
          body: r.body,
          at: r.updatedAt,
          origin: r.origin,
          created: r.createdAt,
        }));
      if (line.op === 'put') kept.push(line);
      replacePrivateFileSync(path, kept.map((l) => `${JSON.stringify(l)}\n`).join(''));
      return;
    }
    const prefix = text && !text.endsWith('\n') ? '\n' : '';
    // Never through a link a command left where the file is (docs/sessions.md, "Links are never followed").
    appendPrivateFileSync(path, `${prefix}${JSON.stringify(line)}\n`);
  }
}

/** The first symbolic link among the folders from `anchor` down to `path`'s folder, or undefined. */
function linkOnTheWay(anchor: string, path: string): string | undefined {
  const rel = relative(anchor, dirname(path));
  if (rel.startsWith('..')) return undefined;
  let current = anchor;
  for (const segment of rel.split(sep).filter(Boolean)) {
    current = join(current, segment);
    let info: ReturnType<typeof lstatSync>;
    try {
      info = lstatSync(current, { throwIfNoEntry: false });
    } catch (e) {
      // A file where a folder should be: there is no memory file below it (the open says so too).
      if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
      throw e;
    }
    if (!info) return undefined;
    if (info.isSymbolicLink()) return current;
  }
  return undefined;
}

function describeIoError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC') return 'the disk is full';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'a folder is in its place';
  if (code === 'ENOTDIR') return 'a file is in the place of its folder';
  return e instanceof Error ? e.message : String(e);
}
