// One writer per session (docs/sessions.md "One process per session"). A session folder holds
// `session.lock` — the owner's pid, start time and host — created atomically, so two processes
// racing for the same session cannot both win; the file is written aside and hard-linked into place, so
// a reader never sees it half-written. A lock whose process is gone (crash, kill -9) is stale
// and is taken over — atomically, so two processes taking over the same stale lock never both hold it
// (takeOverIfStale); a live owner makes the second process stop with a message naming it.
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { writePrivateFileSync } from './privateFiles';

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

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.startedAt === 'string') {
      return { pid: value.pid, startedAt: value.startedAt, host: value.host ?? '' };
    }
  } catch {
    // Garbled: treated as no owner, so the lock counts as stale.
  }
  return undefined;
}

function readOwner(path: string): LockOwner | undefined {
  try {
    return parseOwner(readFileSync(path, 'utf8'));
  } catch {
    // Missing: no owner.
    return undefined;
  }
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

/** How long one acquisition keeps retrying while another process is mid-takeover (1 ms apart). */
const MAX_ATTEMPTS = 500;
/** A takeover claim this old was left by a process that died while taking over (it takes microseconds). */
const CLAIM_STALE_MS = 5_000;
const pause = new Int32Array(new SharedArrayBuffer(4));

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
  const draft = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writePrivateFileSync(draft, JSON.stringify(me), 'wx');
  try {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (tryLink(draft, path) || takeOverIfStale(path, draft, me)) {
        held.set(sessionDir, { count: 1, path });
        installExitHook();
        return releaser(sessionDir);
      }
      // Another process is taking a stale lock over right now: its result decides the next attempt.
      Atomics.wait(pause, 0, 0, 1);
    }
  } finally {
    removeQuietly(draft);
  }
  const owner = readOwner(path);
  throw new SessionLockedError(sessionDir, owner ?? { pid: 0, startedAt: 'unknown', host: '' });
}

/** The lock file as one consistent look: its inode and its owner, read through one descriptor. */
function inspect(path: string): { ino: number; owner?: LockOwner } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const ino = fstatSync(fd).ino;
    return { ino, owner: parseOwner(readFileSync(fd, 'utf8')) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The lock exists. A live owner stops us (SessionLockedError). A stale one (a dead owner, a garbled
 * file, a leftover of this very pid) is taken over atomically: the taker first claims that very file
 * by hard-linking it to a name made of its inode, which only one process can create; only the
 * claimer replaces the lock (a rename over it, so the lock never goes missing meanwhile). Returns
 * whether we now hold the lock; false means "look again".
 */
function takeOverIfStale(path: string, draft: string, me: LockOwner): boolean {
  const seen = inspect(path);
  if (!seen) return false;
  const owner = seen.owner;
  // Another host (a shared home on a network drive) cannot be probed: its lock is respected.
  const live = owner && owner.pid !== process.pid && (owner.host !== me.host || isProcessAlive(owner.pid));
  if (owner && live) throw new SessionLockedError(dirname(path), owner);
  const claim = `${path}.takeover.${seen.ino}`;
  try {
    linkSync(path, claim);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code !== 'EEXIST') throw e;
    clearAbandonedClaim(claim, seen.ino);
    return false;
  }
  try {
    // The lock may have changed between the look and the claim: then this claim names another file.
    if (statSync(claim).ino !== seen.ino) return false;
    renameSync(draft, path);
    return true;
  } finally {
    removeQuietly(claim);
  }
}

/** A claim of a file that is no longer the lock, or one its claimer abandoned by dying, is removed. */
function clearAbandonedClaim(claim: string, ino: number): void {
  let info;
  try {
    info = statSync(claim);
  } catch {
    return;
  }
  if (info.ino === ino && Date.now() - info.ctimeMs < CLAIM_STALE_MS) return;
  removeQuietly(claim);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    // Gone already (a rename consumed the draft, or another process removed a claim).
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
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
