// Where a crash note goes when something escaped every handler: the crash.log of the session in use,
// else the global log ($JARVIS_CODE_HOME/logs/jarvis-code.log). Written synchronously: the process is
// about to end.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { jarvisHome, logsDir } from './paths';
import { appendPrivateFileSync, mkdirPrivateSync } from './privateFiles';

export const GLOBAL_LOG_NAME = 'jarvis-code.log';
export const SESSION_CRASH_LOG = 'crash.log';

let activeSessionDir: string | undefined;

/** The session folder a crash note belongs to (the latest opened). */
export function noteActiveSessionDir(dir: string): void {
  activeSessionDir = dir;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/** Appends a crash note; returns the file it went to, or undefined when no file could be written. */
export function writeCrashNote(home: string, kind: string, error: unknown): string | undefined {
  const note = `${new Date().toISOString()} ${kind} (pid ${process.pid}, node ${process.version})\n${describe(error)}\n\n`;
  // A session folder that was deleted is not brought back for this; the global log folder may be made.
  if (activeSessionDir && existsSync(activeSessionDir)) {
    const file = join(activeSessionDir, SESSION_CRASH_LOG);
    try {
      appendPrivateFileSync(file, note);
      return file;
    } catch {
      // fall back to the global log
    }
  }
  try {
    mkdirPrivateSync(logsDir(home));
    const file = join(logsDir(home), GLOBAL_LOG_NAME);
    appendPrivateFileSync(file, note);
    return file;
  } catch {
    return undefined;
  }
}

const reported = new Set<string>();

/**
 * A failure a caller survives on purpose (a front end's event handler that threw, a cosmetic library
 * that did not load) still goes to the log with what failed (docs/testing.md, "no silent catch-all").
 * Each kind and message is written once per process, so a handler failing on every event does not
 * flood the log. Returns the file written, or undefined when it was a repeat or nothing could be written.
 */
export function noteSurvivedFailure(kind: string, error: unknown, home: string = jarvisHome()): string | undefined {
  const key = `${kind}\n${error instanceof Error ? error.message : String(error)}`;
  if (reported.has(key)) return undefined;
  reported.add(key);
  return writeCrashNote(home, `${kind} (survived; the session went on)`, error);
}
