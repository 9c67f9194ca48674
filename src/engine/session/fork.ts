// `/fork`: copy the session — journals (main agent and subagents), plan files, media, task records and
// their output — into a new session id, and stay in the original. The copy's journal ends with a
// `session_meta` naming its new id and where it came from, so replaying it gives the original's state
// under the new identity. Not copied: state.json (rewritten), the goal queue (a fork does not inherit
// the goal), scheduled tasks (they belong to the session that made them: two sessions would fire each
// prompt twice; docs/scheduled-tasks.md), the session's diagnostic logs and its lock. Of the scratch folder, which
// commands may write, only folders and regular files are copied (a link or a pipe a command left there is not).
// Permission records that were authentic in the original are authenticated again for the copy's paths (recordAuth.ts).
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createSessionDir } from '../../store/sessionStore';
import { SESSION_LOCK_FILE } from '../../store/sessionLock';
import { LinkInTheWayError, PRIVATE_DIR_MODE, replacePrivateFileSync } from '../../store/privateFiles';
import { readFileBelow, writeFileBelow } from '../../store/ownedFiles';
import { recordSigner, type RecordSigner } from '../../store/recordKey';
import { sessionScratchDir } from '../../store/paths';
import type { Agent } from '../loop/loop';
import { authenticate, isAuthentic, isPermissionRecord } from './recordAuth';
import type { RecordBody } from './records';
import { Session } from './session';

const NOT_COPIED = new Set(['state.json', 'upcoming-goals.json', 'cron', 'logs', SESSION_LOCK_FILE, 'scratch']);

export class ForkError extends Error {}

export interface ForkResult {
  sessionId: string;
  sessionDir: string;
  /** What to run to continue in the copy. */
  resumeCommand: string;
}

function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Every `*.jsonl` under `dir`: the main journal and any subagent journals. */
function journalFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...journalFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.jsonl')) out.push(path);
  }
  return out;
}

/**
 * Task records of the copy: paths point into the copy, and a task still running belongs to the
 * original session — the copy records it as ended, so resuming the copy never adopts (or stops) it.
 */
function detachTasks(tasksDir: string, fromDir: string, toDir: string, originalId: string): void {
  if (!existsSync(tasksDir)) return;
  for (const name of readdirSync(tasksDir)) {
    if (!name.endsWith('.json')) continue;
    const path = join(tasksDir, name);
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    } catch {
      continue; // a record cut short by a crash is copied as it is, like the original keeps it
    }
    if (typeof record.outputPath === 'string' && record.outputPath.startsWith(fromDir))
      record.outputPath = toDir + record.outputPath.slice(fromDir.length);
    if (record.status === 'running') {
      Object.assign(record, {
        status: 'failed',
        endReason: 'lost',
        statusMessage: `still running in session ${originalId}, which this one was forked from`,
        endedAt: new Date().toISOString(),
        notified: true,
        reported: true,
      });
    }
    replacePrivateFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
  }
}

/**
 * Copies folders and regular files only, each read without following a link (store/ownedFiles.ts): links and special
 * files a command left in the scratch folder — or swapped in while the copy runs — stay behind.
 */
function copyPlainTree(fromRoot: string, toRoot: string, rel = ''): void {
  mkdirSync(join(toRoot, rel), { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const name of readdirSync(join(fromRoot, rel))) {
    const path = join(rel, name);
    const info = lstatSync(join(fromRoot, path));
    if (info.isDirectory()) copyPlainTree(fromRoot, toRoot, path);
    if (!info.isFile()) continue;
    let bytes: Buffer;
    try {
      bytes = readFileBelow(fromRoot, path);
    } catch (e) {
      if (e instanceof LinkInTheWayError || (e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    writeFileBelow(toRoot, path, bytes, { exclusive: true });
  }
}

/**
 * One copied journal, its references to the original's folder pointing into the copy. A permission record that was
 * authentic in the original is authenticated again with its new text; any other keeps its tag, which then fails.
 */
function rewriteJournal(file: string, from: string, to: string, signer: RecordSigner | undefined): void {
  const agentId = basename(dirname(file));
  let sessionId = '';
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => {
      const moved = line.split(from).join(to);
      let record: RecordBody;
      try {
        record = JSON.parse(line) as RecordBody;
      } catch {
        return moved; // a torn line stays torn
      }
      if (record.type === 'session_meta' && typeof record.sessionId === 'string') sessionId = record.sessionId;
      if (!signer || !isPermissionRecord(record) || !isAuthentic(record, signer, sessionId, agentId)) return moved;
      const next = JSON.parse(moved) as typeof record;
      return JSON.stringify(authenticate(next, signer, sessionId, agentId));
    });
  replacePrivateFileSync(file, lines.join('\n'));
}

export function forkSession(
  source: { session: Session; agent?: Pick<Agent, 'busy'> },
  opts: { home: string },
): ForkResult {
  const { session, agent } = source;
  if (agent?.busy) throw new ForkError('Cannot fork while a turn is running; wait for it or press Esc first.');
  const workDir = session.state.workDir || session.location.workDir;
  const target = createSessionDir(opts.home, workDir);
  for (const name of readdirSync(session.dir)) {
    if (NOT_COPIED.has(name)) continue;
    cpSync(join(session.dir, name), join(target.sessionDir, name), { recursive: true, verbatimSymlinks: true });
  }
  if (existsSync(session.scratchDir)) copyPlainTree(session.scratchDir, sessionScratchDir(target.sessionDir));
  else mkdirSync(sessionScratchDir(target.sessionDir), { mode: PRIVATE_DIR_MODE });
  // References to the original's files (plans, task output) point into the copy from now on.
  const from = jsonEscaped(session.dir);
  const to = jsonEscaped(target.sessionDir);
  const key = recordSigner(opts.home);
  const signer = 'signer' in key ? key.signer : undefined;
  for (const file of journalFiles(join(target.sessionDir, 'agents'))) rewriteJournal(file, from, to, signer);
  detachTasks(join(target.sessionDir, 'tasks'), session.dir, target.sessionDir, session.id);

  const fork = Session.open(target);
  fork.commit({
    type: 'session_meta',
    sessionId: target.sessionId,
    workDir,
    modelAlias: session.state.modelAlias,
    createdAt: new Date().toISOString(),
    forkedFrom: session.id,
  });
  fork.saveSummary();
  return {
    sessionId: target.sessionId,
    sessionDir: target.sessionDir,
    resumeCommand: `jarvis --session ${target.sessionId}`,
  };
}
