import type { LiveState } from './live';

// What the UI shows, as plain data the store holds (docs/web.md "Structure"). Items are replaced, never changed in
// place, so a component can tell by identity which ones to draw again.
/** One event of the WebSocket (docs/server.md "Events"); `seq` 0 for volatile ones. */
export interface ServerEvent {
  type: string;
  seq: number;
  epoch?: string;
  session_id?: string;
  volatile?: boolean;
  payload: Record<string, unknown>;
}

export interface SessionRow {
  session_id: string;
  cwd: string;
  title: string | null;
  last_prompt: string | null;
  updated_at: string;
  busy: boolean;
  archived: boolean;
}

export interface Status {
  session_id: string;
  cwd: string;
  busy: boolean;
  running_prompt_id: string | null;
  model: string | null;
  model_id?: string | null;
  permission_mode: string;
  plan_mode: boolean;
  title: string | null;
  last_seq: number;
  epoch: string;
}

/** One model the session can switch to (GET …/models, docs/server.md "Endpoints"). */
export interface ModelChoice {
  alias: string;
  provider: string;
  model: string;
  display_name: string;
  current: boolean;
  context_window: number | null;
  thinking: 'none' | 'optional' | 'always';
  problem: string | null;
}

export type Item =
  | { kind: 'user'; id: string; text: string; queued?: boolean }
  | { kind: 'assistant'; id: string; text: string; streaming?: boolean }
  | { kind: 'thinking'; id: string; text: string }
  | {
      kind: 'tool';
      id: string;
      name: string;
      args: Record<string, unknown>;
      result?: string;
      isError?: boolean;
    }
  | { kind: 'notice'; id: string; text: string; level: 'info' | 'error' };

export interface Approval {
  approval_id: string;
  tool: string;
  subject: string;
  reason: string;
  args: unknown;
  commands?: string[];
  agent_id: string;
}

export interface QuestionOption {
  label: string;
  description: string;
}

export interface Interaction {
  question_id: string;
  kind: 'questions' | 'plan_review';
  questions?: Array<{ question: string; header?: string; options: QuestionOption[]; multiSelect: boolean }>;
  plan?: { path: string; text: string; options: Array<{ label: string; description?: string }> };
}

export interface SessionView {
  id: string;
  status?: Status;
  items: Item[];
  approvals: Approval[];
  questions: Interaction[];
  /** The last event applied, and its epoch: the cursor a reconnect resumes from. */
  lastSeq: number;
  epoch?: string;
  busy: boolean;
  /** The conversation changed under the items (undo, compaction): read the snapshot again. */
  stale?: boolean;
  /** "approved from web:… " and the like: what another client did to a panel this tab showed. */
  resolvedElsewhere?: string;
  /** The to-do list, the goal and the subagents (state/live.ts). */
  live: LiveState;
}

export interface State {
  login: 'checking' | 'in' | 'out';
  loginMessage?: string;
  sessions: SessionRow[];
  sessionsError?: string;
  query: string;
  current?: SessionView;
  connection: 'connecting' | 'open' | 'closed' | 'gave-up';
  connectionDetail?: string;
  /** The last failure of an action the user took, shown until the next one. */
  error?: string;
  sidebarOpen: boolean;
}
