// Append-only JSONL journal. Each record is one line written with a single synchronous append, so a
// process killed mid-write leaves at most one torn last line; reading skips it with a warning and
// keeps everything before it. Appending after a torn line first ends that line, so it never merges
// with the next record.
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { appendPrivateFileSync, mkdirPrivateSync } from './privateFiles';
import { dirname } from 'node:path';

export interface JournalReadResult<T> {
  records: T[];
  warnings: string[];
}

/** A record could not be written: the disk is full, the folder went away, permissions changed… */
export class JournalWriteError extends Error {
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const why =
      code === 'ENOSPC'
        ? 'the disk is full'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'ENOENT'
            ? 'its folder no longer exists'
            : code === 'EISDIR'
              ? 'a folder is in its place'
              : cause instanceof Error
                ? cause.message
                : String(cause);
    super(`Could not write the session journal ${path} (${why}).`, { cause });
    this.name = 'JournalWriteError';
  }
}

export class JournalWriter<T extends object> {
  private checkedTail = false;
  constructor(readonly path: string) {}

  /** Appends one record; throws JournalWriteError naming the file when the write fails. */
  append(record: T): void {
    try {
      if (!this.checkedTail) this.prepare();
      appendPrivateFileSync(this.path, `${JSON.stringify(record)}\n`);
    } catch (e) {
      throw new JournalWriteError(this.path, e);
    }
  }

  private prepare(): void {
    this.checkedTail = true;
    mkdirPrivateSync(dirname(this.path));
    if (!existsSync(this.path)) return;
    const size = statSync(this.path).size;
    if (size === 0) return;
    const fd = openSync(this.path, 'r');
    try {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) appendPrivateFileSync(this.path, '\n');
    } finally {
      closeSync(fd);
    }
  }
}

export function readJournal<T>(path: string, isRecord: (value: unknown) => value is T): JournalReadResult<T> {
  if (!existsSync(path)) return { records: [], warnings: [] };
  return parseJournalText(path, readFileSync(path, 'utf8'), isRecord);
}

/** readJournal on text already read (from a checked descriptor); `path` names the file in warnings. */
export function parseJournalText<T>(
  path: string,
  text: string,
  isRecord: (value: unknown) => value is T,
): JournalReadResult<T> {
  const records: T[] = [];
  const warnings: string[] = [];
  const lines = text.split('\n');
  const endsClean = text.endsWith('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const lineNo = index + 1;
    const isLast = index === lines.length - 1 || (index === lines.length - 2 && endsClean);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      warnings.push(
        isLast && !endsClean
          ? `${path}:${lineNo}: the last record was cut off (the process probably stopped mid-write); it was skipped, everything before it is intact`
          : `${path}:${lineNo}: unreadable record skipped`,
      );
      return;
    }
    if (!isRecord(value)) {
      warnings.push(`${path}:${lineNo}: record of an unknown type or version skipped`);
      return;
    }
    records.push(value);
  });
  return { records, warnings };
}
