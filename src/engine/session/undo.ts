// Undo: withdraw the last n user prompts. Every user turn start leaves a small checkpoint in state —
// the message count (messages only grow between compactions) and a copy of the conversation-scoped
// fields (todos, plan state, last prompt…). An `undo` record restores one, so live undo and replay go
// through the same reducer and a resume never re-reads the journal from the start. Session-scoped
// fields (identity, permission mode, approvals, cost totals, file knowledge) are kept: undo rolls back
// the conversation, not what was spent or what is on disk. A compaction drops the checkpoints, so undo
// never crosses one.
import type { Agent } from '../loop/loop';
import type { SessionState } from './records';
import type { Session } from './session';

export interface Checkpoint {
  turnId: string;
  prompt: string;
  messageCount: number;
  /** Deep copies of the rolled-back fields as they were before the turn started. */
  saved: Record<string, unknown>;
}

/**
 * Fields that survive an undo. Everything else in SessionState is conversation state and rolls back,
 * so a field added later (todos, plan state…) is undone without being listed here.
 */
const KEPT_ACROSS_UNDO: ReadonlySet<string> = new Set([
  'sessionId',
  'workDir',
  'createdAt',
  'forkedFrom',
  'modelAlias',
  'systemPrompt',
  'title',
  'mode',
  'sessionApprovals',
  'fileSnapshots',
  'usage',
  'compactions',
  'checkpoints',
  'messages',
  // A goal and its budget are not conversation state (docs/plan-goals-context.md lists what undo rolls back).
  'goal',
  // What the agent did to files stays on disk after an undo, so its history stays too (rewind.ts).
  'fileHistory',
]);

export function takeCheckpoint(state: SessionState, turnId: string, prompt: string): Checkpoint {
  const saved: Record<string, unknown> = {};
  const objects: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(state)) {
    if (KEPT_ACROSS_UNDO.has(key) || value === undefined) continue;
    if (typeof value === 'object' && value !== null) objects[key] = value;
    else saved[key] = value;
  }
  // One deep copy for all object fields: resume takes a checkpoint per user turn, so this is hot.
  return { turnId, prompt, messageCount: state.messages.length, saved: Object.assign(saved, structuredClone(objects)) };
}

/** Rolls `state` back to just before user turn `turnId`; unknown ids change nothing. */
export function restoreCheckpoint(state: SessionState, turnId: string): void {
  const index = state.checkpoints.findIndex((c) => c.turnId === turnId);
  if (index < 0) return;
  const checkpoint = state.checkpoints[index];
  const fields = state as unknown as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!KEPT_ACROSS_UNDO.has(key) && !(key in checkpoint.saved)) delete fields[key];
  }
  // The checkpoint is dropped below, so its copies can become the live values without another copy.
  Object.assign(fields, checkpoint.saved);
  state.messages = state.messages.slice(0, checkpoint.messageCount);
  state.checkpoints = state.checkpoints.slice(0, index);
}

export interface UndoTarget {
  turnId: string;
  prompt: string;
  /** `undo(count)` withdraws this prompt and every later one. */
  count: number;
}

/** The prompts that can be withdrawn, newest first (for the Esc-Esc selector). */
export function listUndoTargets(state: SessionState, limit = 50): UndoTarget[] {
  const out: UndoTarget[] = [];
  for (let i = state.checkpoints.length - 1; i >= 0 && out.length < limit; i--) {
    const c = state.checkpoints[i];
    out.push({ turnId: c.turnId, prompt: c.prompt, count: state.checkpoints.length - i });
  }
  return out;
}

export class UndoError extends Error {}

export interface UndoResult {
  /** The withdrawn prompts, oldest first; a front end puts the first back into the input box. */
  withdrawn: string[];
}

/** Withdraws the last `count` user prompts with everything they caused in the conversation. */
export function undo(target: { session: Session; agent?: Pick<Agent, 'busy'> }, count = 1): UndoResult {
  const { session, agent } = target;
  if (agent?.busy) throw new UndoError('Cannot undo while a turn is running; press Esc to stop it first.');
  if (!Number.isInteger(count) || count < 1)
    throw new UndoError(`Undo needs a whole number of prompts (1 or more), got ${count}.`);
  const { checkpoints, compactions } = session.state;
  if (count > checkpoints.length) {
    const available = checkpoints.length === 1 ? '1 prompt' : `${checkpoints.length} prompts`;
    if (compactions.length) {
      throw new UndoError(`Cannot undo past the last compaction: only ${available} since it can be withdrawn.`);
    }
    throw new UndoError(
      checkpoints.length ? `Only ${available} can be withdrawn.` : 'There is no prompt to withdraw yet.',
    );
  }
  const first = checkpoints[checkpoints.length - count];
  const withdrawn = checkpoints.slice(-count).map((c) => c.prompt);
  session.commit({ type: 'undo', turnId: first.turnId, count });
  session.saveSummary();
  return { withdrawn };
}
