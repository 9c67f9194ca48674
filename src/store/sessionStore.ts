// Where sessions live on disk and how they are found again: one folder per session under
// sessions/<workDirKey>/<id>/, a state.json summary, and a global session_index.jsonl.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sessionIndexPath, sessionsRoot, workDirKey } from './paths';
import { appendPrivateFileSync, mkdirPrivateSync, replacePrivateFileSync } from './privateFiles';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID: 48-bit millisecond time + 80 random bits, Crockford base32, sortable by creation. */
export function newSessionId(now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = '';
  for (let i = 0; i < 16; i++) rand += CROCKFORD[bytes[i] % 32];
  return time + rand;
}

export interface SessionSummary {
  sessionId: string;
  workDir: string;
  title?: string;
  lastPrompt?: string;
  createdAt: string;
  updatedAt: string;
  forkedFrom?: string;
}

export interface SessionLocation {
  sessionId: string;
  sessionDir: string;
  workDir: string;
  /**
   * The data root the session belongs to: its key authenticates the session's permission records (store/recordKey.ts).
   * Without it nothing of the kind is trusted on a resume.
   */
  home?: string;
}

export function sessionDirFor(home: string, workDir: string, sessionId: string): string {
  return join(sessionsRoot(home), workDirKey(workDir), sessionId);
}

export function journalPathOf(sessionDir: string, agent = 'main'): string {
  return join(sessionDir, 'agents', agent, 'wire.jsonl');
}

export function createSessionDir(home: string, workDir: string, sessionId = newSessionId()): SessionLocation {
  const sessionDir = sessionDirFor(home, workDir, sessionId);
  mkdirPrivateSync(home);
  mkdirPrivateSync(join(sessionDir, 'agents', 'main'));
  appendPrivateFileSync(sessionIndexPath(home), `${JSON.stringify({ sessionId, sessionDir, workDir })}\n`);
  return { sessionId, sessionDir, workDir, home };
}

/** state.json is a convenience summary (the journal is the truth); written atomically. */
export function writeSessionSummary(sessionDir: string, summary: SessionSummary): void {
  replacePrivateFileSync(join(sessionDir, 'state.json'), `${JSON.stringify(summary, null, 2)}\n`);
}

export function readSessionSummary(sessionDir: string): SessionSummary | undefined {
  try {
    return JSON.parse(readFileSync(join(sessionDir, 'state.json'), 'utf8')) as SessionSummary;
  } catch {
    return undefined;
  }
}

/** Sessions of one work dir, newest first (by last journal write). */
export function listSessions(
  home: string,
  workDir: string,
): Array<SessionLocation & { updatedMs: number; summary?: SessionSummary }> {
  const dir = join(sessionsRoot(home), workDirKey(workDir));
  if (!existsSync(dir)) return [];
  const out: Array<SessionLocation & { updatedMs: number; summary?: SessionSummary }> = [];
  for (const sessionId of readdirSync(dir)) {
    const sessionDir = join(dir, sessionId);
    const journal = journalPathOf(sessionDir);
    if (!existsSync(journal)) continue;
    out.push({
      sessionId,
      sessionDir,
      workDir,
      home,
      updatedMs: statSync(journal).mtimeMs,
      summary: readSessionSummary(sessionDir),
    });
  }
  return out.sort((a, b) => b.updatedMs - a.updatedMs || (a.sessionId < b.sessionId ? 1 : -1));
}

export function findLatestSession(home: string, workDir: string): SessionLocation | undefined {
  return listSessions(home, workDir)[0];
}

/** Finds a session by id (or unique id prefix) in the index, falling back to this work dir's folder. */
export function findSessionById(home: string, id: string, workDir: string): SessionLocation | undefined {
  const local = listSessions(home, workDir).filter((s) => s.sessionId.startsWith(id));
  if (local.length === 1) return local[0];
  const indexPath = sessionIndexPath(home);
  if (!existsSync(indexPath)) return undefined;
  const matches = new Map<string, SessionLocation>();
  for (const line of readFileSync(indexPath, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as SessionLocation;
      if (entry.sessionId?.startsWith(id) && existsSync(journalPathOf(entry.sessionDir)))
        matches.set(entry.sessionId, { ...entry, home });
    } catch {
      // a torn index line loses only that entry; the folder scan above still finds local sessions
    }
  }
  return matches.size === 1 ? [...matches.values()][0] : undefined;
}
