// A background task's record beside the journal, `tasks/<id>.json` in the session folder (docs/sessions.md): the
// task plus its notification state, so a resumed session neither repeats nor loses a notification, and the
// authenticated identity of its process (taskProcess.ts). Written whole to a temporary name and renamed, 0600, never
// through a link; a write that fails is returned as a message for the user, never thrown — the task itself goes on
// and ends normally. A record read back is untrusted input: its id must be the file's own name, its output path is
// recomputed from the id (in the scratch folder), and its process is checked before any signal.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { appendFileBelow, openBelow, OPEN, readFileBelow, writeFileBelow } from '../../store/ownedFiles';
import { SCRATCH, sessionScratchDir } from '../../store/paths';
import { fsReason, mkdirPrivateSync } from '../../store/privateFiles';
import type { OutputTail, TaskInfo } from '../../tools/task/taskService';
import { readOutputFileTail } from './taskEntry';
import type { TaskProcessRecord } from './taskProcess';

export interface TaskRecord extends TaskInfo {
  /** Its notification is in the journal (delivered). */
  notified: boolean;
  /** WaitFor or TaskStop told the model about its end: no notification is due. */
  reported: boolean;
  /** The process `pid` names, as recorded when it started (taskProcess.ts). */
  process?: TaskProcessRecord;
}

/** What a task id may be: it names files. */
const TASK_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function taskRecordPath(tasksDir: string, id: string): string {
  return join(tasksDir, `${id}.json`);
}

/** A task's output file in the session's scratch folder, relative to it. */
export function taskOutputRel(id: string): string {
  return join(SCRATCH.tasks, id, 'output.log');
}

/** Writes the record into `tasks/` below `sessionDir`; returns what went wrong, in words for the user, when it could not. */
export function writeTaskRecord(sessionDir: string, record: TaskRecord): string | undefined {
  const rel = join('tasks', `${record.id}.json`);
  try {
    writeFileBelow(sessionDir, rel, `${JSON.stringify(record, null, 2)}\n`, { makeDirs: true });
    return undefined;
  } catch (e) {
    return (
      `Could not save the record of background task ${record.id} (${join(sessionDir, rel)}: ${fsReason(e)}). ` +
      'The task goes on; a resumed session may not know how it ended.'
    );
  }
}

/**
 * Every readable record of the session, oldest first, and a message per file that could not be read or is not a
 * task record. Output paths point into `scratchDir`, whatever the record says.
 */
export function readTaskRecords(sessionDir: string, scratchDir: string): { records: TaskRecord[]; warnings: string[] } {
  const records: TaskRecord[] = [];
  const warnings: string[] = [];
  const tasksDir = join(sessionDir, 'tasks');
  let names: string[];
  try {
    names = readdirSync(tasksDir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      warnings.push(
        `${tasksDir} could not be read (${fsReason(e)}); the session's background tasks were not restored.`,
      );
    return { records, warnings };
  }
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const path = join(tasksDir, name);
    try {
      const record = JSON.parse(readFileBelow(sessionDir, join('tasks', name)).toString('utf8')) as TaskRecord;
      const valid =
        typeof record === 'object' &&
        record !== null &&
        typeof record.id === 'string' &&
        TASK_ID.test(record.id) &&
        name === `${record.id}.json` &&
        typeof record.startedAt === 'string';
      if (!valid) {
        warnings.push(`${path} is not a task record; it was left as it is.`);
        continue;
      }
      records.push({ ...record, outputPath: join(scratchDir, taskOutputRel(record.id)) });
    } catch (e) {
      // A record cut short by a crash: left as it is rather than guessed at.
      warnings.push(`${path} could not be read (${fsReason(e)}); it was left as it is.`);
    }
  }
  records.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  return { records, warnings };
}

/** One session's task records (in the session folder) and outputs (in its scratch folder), read and written. */
export class TaskFiles {
  readonly scratchDir: string;

  constructor(readonly sessionDir: string) {
    this.scratchDir = sessionScratchDir(sessionDir);
  }

  /** Makes the session folder and its scratch folder: the roots records and outputs are written below. */
  ensure(): void {
    mkdirPrivateSync(this.scratchDir);
  }

  outputPath(id: string): string {
    return join(this.scratchDir, taskOutputRel(id));
  }

  /** Opens a task's output for appending, following no link a command planted in the scratch folder. */
  openOutput(id: string): number {
    const flags = OPEN.O_WRONLY | OPEN.O_CREAT | OPEN.O_APPEND;
    return openBelow(this.scratchDir, taskOutputRel(id), flags, { makeDirs: true });
  }

  appendOutput(id: string, text: string): void {
    appendFileBelow(this.scratchDir, taskOutputRel(id), text, { makeDirs: true });
  }

  readOutputTail(id: string, maxBytes: number): Promise<OutputTail> {
    return readOutputFileTail(this.scratchDir, taskOutputRel(id), maxBytes);
  }

  hasRecord(id: string): boolean {
    return existsSync(taskRecordPath(join(this.sessionDir, 'tasks'), id));
  }

  write(record: TaskRecord): string | undefined {
    return writeTaskRecord(this.sessionDir, record);
  }

  read(): { records: TaskRecord[]; warnings: string[] } {
    return readTaskRecords(this.sessionDir, this.scratchDir);
  }
}
