// A background task's record beside the journal, `tasks/<id>.json` (docs/background-tasks.md): the
// task plus its notification state, so a resumed session neither repeats nor loses a notification.
// Written whole to a temporary name and renamed, 0600; a write that fails is returned as a message
// for the user, never thrown — the task itself goes on and ends normally.
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fsReason, writePrivateFileSync } from '../../store/privateFiles';
import type { TaskInfo } from '../../tools/task/taskService';

export interface TaskRecord extends TaskInfo {
  /** Its notification is in the journal (delivered). */
  notified: boolean;
  /** WaitFor or TaskStop told the model about its end: no notification is due. */
  reported: boolean;
}

export function taskRecordPath(tasksDir: string, id: string): string {
  return join(tasksDir, `${id}.json`);
}

/** Writes the record; returns what went wrong, in words for the user, when it could not. */
export function writeTaskRecord(tasksDir: string, record: TaskRecord): string | undefined {
  const path = taskRecordPath(tasksDir, record.id);
  try {
    writePrivateFileSync(`${path}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
    renameSync(`${path}.tmp`, path);
    return undefined;
  } catch (e) {
    return (
      `Could not save the record of background task ${record.id} (${path}: ${fsReason(e)}). ` +
      'The task goes on; a resumed session may not know how it ended.'
    );
  }
}

/** Every readable record of the session, oldest first, and a message per file that could not be read. */
export function readTaskRecords(tasksDir: string): { records: TaskRecord[]; warnings: string[] } {
  const records: TaskRecord[] = [];
  const warnings: string[] = [];
  if (!existsSync(tasksDir)) return { records, warnings };
  for (const name of readdirSync(tasksDir)) {
    if (!name.endsWith('.json')) continue;
    try {
      const record = JSON.parse(readFileSync(join(tasksDir, name), 'utf8')) as TaskRecord;
      if (typeof record.id === 'string' && typeof record.startedAt === 'string') records.push(record);
      else warnings.push(`${join(tasksDir, name)} is not a task record; it was left as it is.`);
    } catch (e) {
      // A record cut short by a crash: left as it is rather than guessed at.
      warnings.push(`${join(tasksDir, name)} could not be read (${fsReason(e)}); it was left as it is.`);
    }
  }
  records.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  return { records, warnings };
}
