// A short-lived exclusive lock between processes: `<path>.lock`, created with O_EXCL and holding the
// owner's pid. Held only around a read-check-append of a small file (milliseconds), so a waiter polls
// with a short back-off. A lock whose process is gone (crash, kill -9) or that has been held far
// longer than any such section takes is stale and is taken over.
import { openSync, readFileSync, statSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from './sessionLock';
import { mkdirPrivateSync } from './privateFiles';

/** A lock older than this is stale whoever holds it: the sections it guards take milliseconds. */
const STALE_AFTER_MS = 30_000;
const FIRST_WAIT_MS = 2;
const MAX_WAIT_STEP_MS = 50;

export class FileLockTimeoutError extends Error {
  constructor(
    readonly lockPath: string,
    waitedMs: number,
  ) {
    super(
      `${lockPath} stayed locked by another jarvis process for ${Math.round(waitedMs / 1000)} s; try again in a moment (delete the file if no jarvis process is running).`,
    );
  }
}

function tryCreate(lockPath: string): boolean {
  try {
    const fd = openSync(lockPath, 'wx', 0o600);
    try {
      writeSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** The lock's content and age, or undefined when it is gone. */
function lockState(lockPath: string): { owner: string; mtimeMs: number } | undefined {
  try {
    return { owner: readFileSync(lockPath, 'utf8'), mtimeMs: statSync(lockPath).mtimeMs };
  } catch {
    return undefined;
  }
}

function isStale(state: { owner: string; mtimeMs: number }): boolean {
  const pid = Number.parseInt(state.owner, 10);
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isProcessAlive(pid)) return true;
  return Date.now() - state.mtimeMs > STALE_AFTER_MS;
}

/**
 * Removes a stale lock. It is looked at again just before removal, so a waiter that raced ahead and
 * already took a fresh lock (new owner or new time) keeps it.
 */
function removeIfStale(lockPath: string): void {
  const seen = lockState(lockPath);
  if (!seen || !isStale(seen)) return;
  const now = lockState(lockPath);
  if (!now || now.owner !== seen.owner || now.mtimeMs !== seen.mtimeMs) return;
  try {
    unlinkSync(lockPath);
  } catch {
    // Another waiter removed it first.
  }
}

/** Runs `section` while holding `<path>.lock`; waits up to `timeoutMs` for another holder. */
export async function withFileLock<T>(path: string, section: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  const lockPath = `${path}.lock`;
  mkdirPrivateSync(dirname(lockPath));
  const started = Date.now();
  let wait = FIRST_WAIT_MS;
  while (!tryCreate(lockPath)) {
    removeIfStale(lockPath);
    if (Date.now() - started > timeoutMs) throw new FileLockTimeoutError(lockPath, Date.now() - started);
    await sleep(wait);
    wait = Math.min(wait * 2, MAX_WAIT_STEP_MS);
  }
  try {
    return await section();
  } finally {
    try {
      unlinkSync(lockPath);
    } catch {
      // Removed as stale by another process after an extremely long section; nothing to release.
    }
  }
}
