// `/fork`: copy the session — journals (main agent and subagents), plan files, media, task records and
// their output — into a new session id, and stay in the original. The copy's journal ends with a
// `session_meta` naming its new id and where it came from, so replaying it gives the original's state
// under the new identity. Not copied: state.json (rewritten), the goal queue (a fork does not inherit
// the goal), scheduled tasks (they belong to the session that made them: two sessions would fire each
// prompt twice; docs/scheduled-tasks.md), the session's diagnostic logs and its lock.
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSessionDir } from '../../store/sessionStore';
import { SESSION_LOCK_FILE } from '../../store/sessionLock';
import type { Agent } from '../loop/loop';
import { Session } from './session';

const NOT_COPIED = new Set(['state.json', 'upcoming-goals.json', 'cron', 'logs', SESSION_LOCK_FILE]);

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
    writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
  }
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
  // References to the original's files (plans, task output) point into the copy from now on.
  const from = jsonEscaped(session.dir);
  const to = jsonEscaped(target.sessionDir);
  for (const file of journalFiles(join(target.sessionDir, 'agents'))) {
    const text = readFileSync(file, 'utf8');
    if (text.includes(from)) writeFileSync(file, text.split(from).join(to));
  }
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
