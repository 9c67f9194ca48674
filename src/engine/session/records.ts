// The typed, versioned records of a session journal, and the one reducer that turns them into state.
// The live engine applies every record through `applyRecord` as it appends it, and resume replays the
// file through the same function — so a resumed session has exactly the state the live one had.
import type { Message, Usage } from '../../llm/types';
import type { FileSnapshot } from './fileGuard';
import {
  emptyFileHistory,
  historyChanges,
  historyRewound,
  historyTurnEnded,
  historyTurnStarted,
  historyWithdrawn,
  type CommandRun,
  type FileChange,
  type FileHistoryState,
  type RestoredFile,
  type SkippedFile,
} from './fileHistory';
import { restoreCheckpoint, takeCheckpoint, type Checkpoint } from './undo';
import type { Goal, GoalChange } from '../../tools/goal/goalService';
import type { TodoItem } from '../../tools/todo/todoService';

export const RECORD_VERSION = 1;

export type PermissionMode = 'manual' | 'yolo' | 'auto';
/** `cron`: a scheduled task fired (docs/scheduled-tasks.md). */
export type TurnOrigin = 'user' | 'notification' | 'system' | 'cron';
/**
 * `blocked`: an extension refused the prompt; the model was not called. `max_turns`, `budget_exceeded`, `timeout`:
 * a cap of the run stopped it (--max-turns, --max-budget-usd, --timeout; docs/print-mode.md "Caps").
 */
export type TurnEndReason =
  | 'completed'
  | 'cancelled'
  | 'failed'
  | 'max_steps'
  | 'interrupted'
  | 'blocked'
  | 'max_turns'
  | 'budget_exceeded'
  | 'timeout';
export type CompactionTrigger = 'manual' | 'auto';

/** What a compaction left in state: the hand-off note stays viewable after the messages it replaced. */
export interface CompactionInfo {
  trigger: CompactionTrigger;
  summary: string;
  instruction?: string;
  tokensBefore: number;
  tokensAfter: number;
  /** Messages replaced by the summary (they stay in the journal). */
  summarised: number;
}

/** Who a subagent's journal belongs to (absent in the main agent's journal). */
export interface AgentIdentity {
  id: string;
  /** The agent that created it. */
  parent: string;
  /** Its kind or profile (`coder`, `explore`…), for front ends. */
  name?: string;
}

export type RecordBody =
  | {
      type: 'session_meta';
      sessionId: string;
      workDir: string;
      modelAlias: string;
      /** The provider's id of the model (absent in journals written before it was kept): names a JARVIS_MODEL_* model. */
      modelId?: string;
      createdAt: string;
      forkedFrom?: string;
      agent?: AgentIdentity;
    }
  /**
   * `agent`: the profile the session was created with; `tools`: exactly the tools it offers (absent =
   * all); `disallowedTools`: tools it never offers.
   */
  | { type: 'system_prompt'; text: string; agent?: string; tools?: string[]; disallowedTools?: string[] }
  /** The browser tools of the session (`--agent browser` = `agent`, `--browser` = `page-tools`); a resume restores them. */
  | { type: 'browser'; profile: 'agent' | 'page-tools' }
  | {
      type: 'request_trace';
      tools: string[];
      toolSchemaBytes: number;
      systemBytes: number;
      params: Record<string, unknown>;
    }
  | { type: 'turn_start'; turnId: string; origin: TurnOrigin; prompt: string }
  | { type: 'message'; message: Message; partial?: boolean }
  | { type: 'turn_end'; turnId: string; reason: TurnEndReason; error?: string }
  /** One request's usage; `model`: the model id it was sent to (absent in journals written before it was kept). */
  | { type: 'usage'; usage: Usage; model?: string }
  /** `auth`: the record's authentication tag (recordAuth.ts); a resume applies only authenticated permission records. */
  | { type: 'mode'; mode: PermissionMode; auth?: string }
  | { type: 'session_approval'; pattern: string; auth?: string }
  | { type: 'file_snapshot'; snapshot: FileSnapshot }
  | { type: 'title'; title: string }
  | { type: 'model'; modelAlias: string; modelId?: string }
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; text: string }
  /**
   * Replaces the context with `messages` (summary + re-injected state) followed by the last `keep`
   * messages. `usage` is what the summarisation request cost (added to the totals only).
   */
  | ({ type: 'compaction'; messages: Message[]; keep: number; usage?: Usage; model?: string } & CompactionInfo)
  /** Withdraws the user turn `turnId` and everything after it (`count` prompts); see undo.ts. */
  | { type: 'undo'; turnId: string; count: number }
  /** Plan mode on/off; `planPath` is the plan file it uses (kept while off, for the next time). */
  | { type: 'plan_mode'; active: boolean; planPath: string }
  | { type: 'todos'; todos: TodoItem[] }
  /** The session's goal after `change` (null: none); see goals.ts. */
  | { type: 'goal'; change: GoalChange; goal: Goal | null }
  /** Deferred tools whose full schemas the model loaded (ToolSearch): offered for the rest of the session. */
  | { type: 'tools_loaded'; names: string[] }
  /** Files the agent's tools changed (with the versions before and after) and commands it ran; see fileHistory.ts. */
  | { type: 'file_changes'; changes: FileChange[]; commands?: CommandRun[] }
  /**
   * Files put back to their state before user turn `turnId` (`both`: the conversation is withdrawn
   * too, as `undo` does); what could not be restored is in `skipped`. See rewind.ts.
   */
  | { type: 'rewind'; turnId: string; scope: 'files' | 'both'; restored: RestoredFile[]; skipped: SkippedFile[] };

export type JournalRecord = RecordBody & { v: number; ts: number };

const KNOWN_TYPES = new Set<string>([
  'session_meta',
  'system_prompt',
  'request_trace',
  'turn_start',
  'message',
  'turn_end',
  'usage',
  'mode',
  'session_approval',
  'file_snapshot',
  'title',
  'model',
  'notice',
  'compaction',
  'undo',
  'plan_mode',
  'todos',
  'goal',
  'tools_loaded',
  'browser',
  'file_changes',
  'rewind',
]);

export function isJournalRecord(value: unknown): value is JournalRecord {
  if (!value || typeof value !== 'object') return false;
  const r = value as { v?: unknown; type?: unknown };
  return typeof r.v === 'number' && r.v <= RECORD_VERSION && typeof r.type === 'string' && KNOWN_TYPES.has(r.type);
}

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Input tokens of the latest request: how full the context is. */
  lastInputTokens: number;
  /** Requests whose usage was recorded, and how many of them reported a cost (docs/print-mode.md "Cost"). */
  requests?: number;
  costReports?: number;
  /** The sum of the reported costs in USD; set only once a request reported one (never estimated). */
  costUsd?: number;
  /** Requests priced by a price table (no reported cost), and the sum of those prices (src/llm/pricing.ts). */
  pricedReports?: number;
  pricedUsd?: number;
  /** The same figures by the model id the requests went to ('' for requests whose model was not recorded). */
  byModel?: Record<string, ModelUsage>;
}

/** One model's share of the usage (docs/ui.md `/usage`, docs/print-mode.md `usage_by_model`). */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  requests: number;
  /** Set once a request to it reported a cost. */
  costUsd?: number;
  /** Set once a request to it was priced by a price table. */
  pricedUsd?: number;
}

/** Adds one request's usage to its model's share. */
export function addModelUsage(byModel: Record<string, ModelUsage>, model: string | undefined, usage: Usage): void {
  const key = model ?? '';
  const m = (byModel[key] ??= {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    requests: 0,
  });
  m.inputTokens += usage.inputTokens;
  m.outputTokens += usage.outputTokens;
  m.cacheReadTokens += usage.cacheReadTokens ?? 0;
  m.cacheWriteTokens += usage.cacheWriteTokens ?? 0;
  m.requests++;
  if (usage.costUsd !== undefined) m.costUsd = (m.costUsd ?? 0) + usage.costUsd;
  else if (usage.pricedUsd !== undefined) m.pricedUsd = (m.pricedUsd ?? 0) + usage.pricedUsd;
}

/** Adds one request's usage report (a model step's, or a compaction's) to the session totals. */
function addRequestCost(u: UsageTotals, usage: Usage): void {
  u.requests = (u.requests ?? 0) + 1;
  if (usage.costUsd !== undefined) {
    u.costReports = (u.costReports ?? 0) + 1;
    u.costUsd = (u.costUsd ?? 0) + usage.costUsd;
  } else if (usage.pricedUsd !== undefined) {
    u.pricedReports = (u.pricedReports ?? 0) + 1;
    u.pricedUsd = (u.pricedUsd ?? 0) + usage.pricedUsd;
  }
}

export interface SessionState {
  sessionId: string;
  workDir: string;
  createdAt: string;
  forkedFrom?: string;
  /** Set in a subagent's journal. */
  agent?: AgentIdentity;
  modelAlias: string;
  /** The provider's id of the model, when the journal recorded it. */
  modelId?: string;
  systemPrompt?: string;
  /** The agent profile (`--agent`) and its offered tools, as recorded at creation. */
  agentName?: string;
  agentTools?: string[];
  agentDisallowedTools?: string[];
  /** The browser tools this session was given (docs/browser.md); undefined = none. */
  browser?: 'agent' | 'page-tools';
  title?: string;
  lastPrompt?: string;
  mode: PermissionMode;
  messages: Message[];
  openTurn?: { turnId: string; origin: TurnOrigin };
  turns: number;
  sessionApprovals: string[];
  fileSnapshots: Record<string, FileSnapshot>;
  usage: UsageTotals;
  /** The last request's reported input size and how many messages it carried; see context.ts. */
  contextAnchor?: { inputTokens: number; messageCount: number };
  compactions: CompactionInfo[];
  /** One per user turn since the last compaction: what `undo` rolls back to. */
  checkpoints: Checkpoint[];
  planMode: { active: boolean; planPath?: string };
  todos: TodoItem[];
  goal: Goal | null;
  /** Deferred tools loaded so far, in load order (appended to the model's tool list in this order). */
  loadedTools: string[];
  /** The agent's file changes and command runs per turn, for rewind (session state: undo keeps it). */
  fileHistory: FileHistoryState;
}

export function emptyState(): SessionState {
  return {
    sessionId: '',
    workDir: '',
    createdAt: '',
    modelAlias: '',
    mode: 'manual',
    messages: [],
    turns: 0,
    sessionApprovals: [],
    fileSnapshots: {},
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, lastInputTokens: 0 },
    compactions: [],
    checkpoints: [],
    planMode: { active: false },
    todos: [],
    goal: null,
    loadedTools: [],
    fileHistory: emptyFileHistory(),
  };
}

/** Applies one record to the state (mutating it). Pure with respect to anything but `state`. */
export function applyRecord(state: SessionState, record: RecordBody): void {
  switch (record.type) {
    case 'session_meta':
      state.sessionId = record.sessionId;
      state.workDir = record.workDir;
      state.modelAlias = record.modelAlias;
      if (record.modelId) state.modelId = record.modelId;
      state.createdAt = record.createdAt;
      if (record.forkedFrom) state.forkedFrom = record.forkedFrom;
      if (record.agent) state.agent = { ...record.agent };
      return;
    case 'system_prompt':
      state.systemPrompt = record.text;
      if (record.agent) state.agentName = record.agent;
      if (record.tools) state.agentTools = [...record.tools];
      if (record.disallowedTools) state.agentDisallowedTools = [...record.disallowedTools];
      return;
    case 'turn_start':
      if (record.origin === 'user') state.checkpoints.push(takeCheckpoint(state, record.turnId, record.prompt));
      state.openTurn = { turnId: record.turnId, origin: record.origin };
      state.turns += 1;
      if (record.origin === 'user') state.lastPrompt = record.prompt;
      historyTurnStarted(state.fileHistory, record.turnId, record.origin, record.prompt);
      return;
    case 'message':
      state.messages.push(record.message);
      return;
    case 'turn_end':
      state.openTurn = undefined;
      historyTurnEnded(state.fileHistory, record.turnId);
      return;
    case 'usage': {
      const u = state.usage;
      u.inputTokens += record.usage.inputTokens;
      u.outputTokens += record.usage.outputTokens;
      u.cacheReadTokens += record.usage.cacheReadTokens ?? 0;
      u.cacheWriteTokens += record.usage.cacheWriteTokens ?? 0;
      addRequestCost(u, record.usage);
      addModelUsage((u.byModel ??= {}), record.model, record.usage);
      // Every adapter reports inputTokens as the whole prompt, cached parts included.
      u.lastInputTokens = record.usage.inputTokens;
      state.contextAnchor =
        u.lastInputTokens > 0 ? { inputTokens: u.lastInputTokens, messageCount: state.messages.length } : undefined;
      return;
    }
    case 'compaction': {
      const { messages, keep, usage, model, type: _type, ...info } = record;
      state.messages = [...messages, ...state.messages.slice(state.messages.length - keep)];
      state.compactions.push(info);
      if (usage) {
        state.usage.inputTokens += usage.inputTokens;
        state.usage.outputTokens += usage.outputTokens;
        addRequestCost(state.usage, usage);
        addModelUsage((state.usage.byModel ??= {}), model, { ...usage, cacheReadTokens: 0, cacheWriteTokens: 0 });
      }
      // What the compaction said is left is where the next count starts (engine/context/context.ts).
      state.contextAnchor =
        info.tokensAfter > 0 ? { inputTokens: info.tokensAfter, messageCount: state.messages.length } : undefined;
      state.checkpoints = [];
      return;
    }
    case 'undo':
      withdrawTurns(state, record.turnId);
      return;
    case 'file_changes':
      historyChanges(state.fileHistory, record.changes, record.commands ?? []);
      return;
    case 'rewind':
      if (record.scope === 'both') withdrawTurns(state, record.turnId);
      historyRewound(state.fileHistory, record.turnId, record.restored);
      return;
    case 'mode':
      state.mode = record.mode;
      return;
    case 'session_approval':
      if (!state.sessionApprovals.includes(record.pattern)) state.sessionApprovals.push(record.pattern);
      return;
    case 'file_snapshot':
      state.fileSnapshots[record.snapshot.path] = record.snapshot;
      return;
    case 'title':
      state.title = record.title;
      return;
    case 'model':
      state.modelAlias = record.modelAlias;
      if (record.modelId) state.modelId = record.modelId;
      else delete state.modelId;
      return;
    case 'plan_mode':
      state.planMode = { active: record.active, planPath: record.planPath };
      return;
    case 'todos':
      state.todos = structuredClone(record.todos);
      return;
    case 'goal':
      state.goal = structuredClone(record.goal);
      return;
    case 'browser':
      state.browser = record.profile;
      return;
    case 'tools_loaded':
      for (const name of record.names) if (!state.loadedTools.includes(name)) state.loadedTools.push(name);
      return;
    case 'request_trace':
    case 'notice':
      return;
  }
}

/** The conversation from user turn `turnId` on leaves; the file history marks those turns withdrawn. */
function withdrawTurns(state: SessionState, turnId: string): void {
  if (!state.checkpoints.some((c) => c.turnId === turnId)) return;
  restoreCheckpoint(state, turnId);
  historyWithdrawn(state.fileHistory, turnId);
}

export function replay(records: readonly RecordBody[]): SessionState {
  const state = emptyState();
  for (const r of records) applyRecord(state, r);
  return state;
}
