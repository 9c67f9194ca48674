// One writer per session (docs/sessions.md "One process per session"). A session folder holds
// `session.lock` — the owner's pid, start time and host — created atomically, so two processes
// racing for the same session cannot both win; the file is written aside and hard-linked into place, so
// a reader never sees it half-written. A lock whose process is gone (crash, kill -9) is stale
// and is taken over; a live owner makes the second process stop with a message naming it.
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const SESSION_LOCK_FILE = 'session.lock';

interface LockOwner {
  pid: number;
  startedAt: string;
  host: string;
}

export class SessionLockedError extends Error {
  constructor(
    readonly sessionDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `this session is in use by another jarvis process (pid ${owner.pid}, running since ${owner.startedAt}). ` +
        'Only one process may write a session at a time: wait for that one to finish, stop it, or start a new session (without --continue/--session).',
    );
  }
}

export interface SessionLock {
  release(): void;
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.startedAt === 'string') return { pid: value.pid, startedAt: value.startedAt, host: value.host ?? '' };
  } catch {
    // Missing, half-written or garbled: treated as no owner (below).
  }
  return undefined;
}

/** Whether a process with this pid exists (on this host). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else — still alive.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Locks held by this process, released on exit even when the front end never reaches its close. */
const held = new Map<string, { count: number; path: string }>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const { path } of held.values()) removeIfOurs(path);
    held.clear();
  });
}

function removeIfOurs(path: string): void {
  if (readOwner(path)?.pid !== process.pid) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing to release.
  }
}

/**
 * Takes the session's lock or throws SessionLockedError. Re-entrant within one process (the UI may
 * reopen the session it holds, e.g. to switch models), counted so the last release frees it.
 */
export function acquireSessionLock(sessionDir: string): SessionLock {
  const path = join(sessionDir, SESSION_LOCK_FILE);
  const mine = held.get(sessionDir);
  if (mine) {
    mine.count++;
    return releaser(sessionDir);
  }
  const me: LockOwner = { pid: process.pid, startedAt: new Date().toISOString(), host: hostname() };
  const draft = `${path}.${process.pid}.tmp`;
  writeFileSync(draft, JSON.stringify(me));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (tryLink(draft, path)) {
        held.set(sessionDir, { count: 1, path });
        installExitHook();
        return releaser(sessionDir);
      }
      const owner = readOwner(path);
      // Another host (a shared home on a network drive) cannot be probed: its lock is respected.
      const live = owner && owner.pid !== process.pid && (owner.host !== me.host || isProcessAlive(owner.pid));
      if (owner && live) throw new SessionLockedError(sessionDir, owner);
      // Stale (a dead owner, a garbled file, or a leftover of this very pid): remove it and try again.
      try {
        unlinkSync(path);
      } catch {
        // Someone else removed it first; the next exclusive link decides.
      }
    }
  } finally {
    unlinkSync(draft);
  }
  const owner = readOwner(path);
  throw new SessionLockedError(sessionDir, owner ?? { pid: 0, startedAt: 'unknown', host: '' });
}

function tryLink(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

function releaser(sessionDir: string): SessionLock {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      const entry = held.get(sessionDir);
      if (!entry) return;
      if (--entry.count > 0) return;
      held.delete(sessionDir);
      removeIfOurs(entry.path);
    },
  };
}
