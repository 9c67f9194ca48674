// Append-only JSONL journal. Each record is one line written with a single synchronous append, so a
// process killed mid-write leaves at most one torn last line; reading skips it with a warning and
// keeps everything before it. Appending after a torn line first ends that line, so it never merges
// with the next record.
// The file is never written or read through a link: a journal replaced by a symbolic link is an error naming it
// (docs/sessions.md, "Links are never followed"), never an append to whatever it points at.
import { closeSync, fstatSync, readSync } from 'node:fs';
import { relative } from 'node:path';
import { appendFileBelow, openBelow, OPEN, readFileBelow } from './ownedFiles';
import { LinkInTheWayError } from './privateFiles';

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
              : cause instanceof LinkInTheWayError
                ? cause.message
                : cause instanceof Error
                  ? cause.message
                  : String(cause);
    super(`Could not write the session journal ${path} (${why}).`, { cause });
    this.name = 'JournalWriteError';
  }
}

export class JournalWriter<T extends object> {
  private checkedTail = false;
  private readonly rel: string;
  /** `root`: the folder the journal lives below (the session folder); nothing below it is followed if a link. */
  constructor(
    readonly path: string,
    private readonly root: string,
  ) {
    this.rel = relative(root, path);
  }

  /** Appends one record; throws JournalWriteError naming the file when the write fails. */
  append(record: T): void {
    try {
      if (!this.checkedTail) this.prepare();
      appendFileBelow(this.root, this.rel, `${JSON.stringify(record)}\n`, { makeDirs: true });
    } catch (e) {
      throw new JournalWriteError(this.path, e);
    }
  }

  private prepare(): void {
    this.checkedTail = true;
    let fd: number;
    try {
      fd = openBelow(this.root, this.rel, OPEN.O_RDONLY);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    try {
      const size = fstatSync(fd).size;
      if (size === 0) return;
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) appendFileBelow(this.root, this.rel, '\n');
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * Reads the journal at `path` below `root` without following a link on the way; a missing journal is empty. A link
 * or a special file where the journal should be throws LinkInTheWayError.
 */
export function readJournal<T>(
  path: string,
  root: string,
  isRecord: (value: unknown) => value is T,
): JournalReadResult<T> {
  let text: string;
  try {
    text = readFileBelow(root, relative(root, path)).toString('utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], warnings: [] };
    throw e;
  }
  return parseJournalText(path, text, isRecord);
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
