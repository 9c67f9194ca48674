// What the agent did to files, turn by turn, so a rewind can put them back (docs/sessions.md "Rewind").
// Before a tool that declares a write access runs, the file's bytes (or its absence) are kept in the
// session's content-addressed store; afterwards a `file_changes` record says which version each file
// went from and to. Command runs are recorded too: their changes cannot be restored, and a rewind says
// so. This history is session state, not conversation state: it survives compaction and undo (a
// withdrawn turn's changes stay on disk, so they stay in the history and an earlier rewind still
// reverts them).
import type { TurnOrigin } from './records';

/** One state of a file: absent, or its bytes by hash (kept in the store when `kept`). */
export type FileVersion =
  | { kind: 'absent' }
  | {
      kind: 'file';
      size: number;
      /** Set when the content was hashed (files up to the cap); else only size and time compare. */
      hash?: string;
      /** Permission bits, restored with the bytes. */
      mode?: number;
      mtimeMs?: number;
      /** The bytes are in the session's store (within the cap when they were taken). */
      kept: boolean;
    };

export interface FileChange {
  path: string;
  before: FileVersion;
  after: FileVersion;
}

/** A command the agent ran (its approval subject, e.g. `Bash(npm test)`). */
export interface CommandRun {
  subject: string;
  /** Files the session knew (read or wrote) that changed on disk while it ran. */
  changed: string[];
}

export interface FileHistoryTurn {
  turnId: string;
  origin: TurnOrigin;
  /** The first line of a user prompt (what a rewind picker shows). */
  label?: string;
  changes: FileChange[];
  commands: CommandRun[];
  /** Undone: its conversation is gone; its file changes are still on disk until a rewind reverts them. */
  withdrawn?: boolean;
}

export interface FileHistoryState {
  /** Every turn since the session began, oldest first (compaction does not drop them). */
  turns: FileHistoryTurn[];
  /** What the agent last left in each file it changed (or a rewind restored): the basis of "changed outside". */
  known: Record<string, FileVersion>;
}

export interface RestoredFile {
  path: string;
  /** What the file is now. */
  version: FileVersion;
  /** What was there before the rewind replaced it (its bytes kept when within the cap). */
  replaced: FileVersion;
}

export interface SkippedFile {
  path: string;
  reason: string;
}

export const LABEL_CHARS = 200;

export function emptyFileHistory(): FileHistoryState {
  return { turns: [], known: {} };
}

export function sameVersion(a: FileVersion, b: FileVersion): boolean {
  if (a.kind === 'absent' || b.kind === 'absent') return a.kind === b.kind;
  if (a.size !== b.size) return false;
  if (a.hash && b.hash) return a.hash === b.hash;
  return a.mtimeMs !== undefined && a.mtimeMs === b.mtimeMs;
}

export function historyTurnStarted(
  history: FileHistoryState,
  turnId: string,
  origin: TurnOrigin,
  prompt: string,
): void {
  const turn: FileHistoryTurn = { turnId, origin, changes: [], commands: [] };
  if (origin === 'user')
    turn.label = (prompt.split('\n').find((line) => line.trim() !== '') ?? '').slice(0, LABEL_CHARS);
  history.turns.push(turn);
}

/** A turn the engine started (notification, continuation) that touched nothing is not worth keeping. */
export function historyTurnEnded(history: FileHistoryState, turnId: string): void {
  const last = history.turns.at(-1);
  if (last && last.turnId === turnId && last.origin !== 'user' && !last.changes.length && !last.commands.length)
    history.turns.pop();
}

/** Changes belong to the turn in progress (or the latest one: a background subagent may write after it ended). */
export function historyChanges(
  history: FileHistoryState,
  changes: readonly FileChange[],
  commands: readonly CommandRun[],
): void {
  let turn = history.turns.at(-1);
  if (!turn) {
    turn = { turnId: '', origin: 'system', changes: [], commands: [] };
    history.turns.push(turn);
  }
  for (const change of changes) {
    turn.changes.push(structuredClone(change));
    history.known[change.path] = structuredClone(change.after);
  }
  for (const run of commands) turn.commands.push({ subject: run.subject, changed: [...run.changed] });
}

/** Undo (or a rewind of the conversation) withdrew `turnId` and every later turn. */
export function historyWithdrawn(history: FileHistoryState, turnId: string): void {
  const index = history.turns.findIndex((t) => t.turnId === turnId);
  if (index < 0) return;
  for (const turn of history.turns.slice(index)) turn.withdrawn = true;
}

/**
 * A files rewind to before `turnId`: the restored files' changes from there on are reverted, so they
 * leave the history; what a rewind skipped stays (a later rewind may still revert it).
 */
export function historyRewound(history: FileHistoryState, turnId: string, restored: readonly RestoredFile[]): void {
  const index = history.turns.findIndex((t) => t.turnId === turnId);
  const paths = new Set(restored.map((r) => r.path));
  if (index >= 0) {
    for (const turn of history.turns.slice(index)) {
      turn.changes = turn.changes.filter((c) => !paths.has(c.path));
      turn.commands = turn.commands.map((run) => ({
        subject: run.subject,
        changed: run.changed.filter((p) => !paths.has(p)),
      }));
    }
  }
  for (const r of restored) history.known[r.path] = structuredClone(r.version);
}
