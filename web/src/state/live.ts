// The live state beside the conversation (docs/server.md "Live events"): the to-do list, the goal and the
// subagents (Agent calls and AgentSwarm members), from the snapshot and then from their events.
import type { ServerEvent } from './types';

export interface Todo {
  title: string;
  status: 'pending' | 'in_progress' | 'done';
}

export interface Goal {
  goal_id: string;
  objective: string;
  completion_criterion: string | null;
  status: 'active' | 'paused' | 'blocked' | 'complete';
  budget: { turns: number | null; tokens: number | null; time_ms: number | null };
  used: { turns: number; tokens: number; time_ms: number };
  reason: string | null;
}

export interface Subagent {
  subagent_id: string;
  parent_call_id: string;
  via: string;
  agent_name: string;
  description: string;
  status: string;
  activity: string | null;
  elapsed_ms: number | null;
  error: string | null;
}

export interface LiveState {
  todos: Todo[];
  goal: Goal | null;
  subagents: Subagent[];
}

export const emptyLive: LiveState = { todos: [], goal: null, subagents: [] };

/** The snapshot's `todos`, `goal` and `subagents` (absent from an older server: nothing to show). */
export function liveFromSnapshot(snap: { todos?: Todo[]; goal?: Goal | null; subagents?: Subagent[] }): LiveState {
  return { todos: snap.todos ?? [], goal: snap.goal ?? null, subagents: snap.subagents ?? [] };
}

/** The live state after `e`, or the same object when `e` is not about it. */
export function applyLive(live: LiveState, e: ServerEvent): LiveState {
  const p = e.payload;
  switch (e.type) {
    case 'session.todos_changed':
      return { ...live, todos: p.todos as Todo[] };
    case 'session.goal_changed':
      return { ...live, goal: p.goal as Goal | null };
    case 'subagent.started':
      return {
        ...live,
        subagents: [...live.subagents.filter((s) => s.subagent_id !== p.subagent_id), p as unknown as Subagent],
      };
    case 'subagent.progress':
    case 'subagent.finished':
      return {
        ...live,
        subagents: live.subagents.map((s) =>
          s.subagent_id === p.subagent_id
            ? { ...s, ...(p as Partial<Subagent>), ...(e.type === 'subagent.finished' ? { activity: null } : {}) }
            : s,
        ),
      };
    default:
      return live;
  }
}
