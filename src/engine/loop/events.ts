// Everything a front end shows, as one typed union. Durable facts also go to the journal; events
// are the live view (deltas, progress, retries) and are never needed to rebuild state.
import type { ToolCall, Usage } from '../../llm/types';
import type { ToolDisplay, ToolProgress } from '../../tools/defineTool';
import type { CompactionTrigger, PermissionMode, TurnEndReason, TurnOrigin } from '../session/records';
import type { Goal, GoalChange } from '../../tools/goal/goalService';
import type { TodoItem } from '../../tools/todo/todoService';

/** The main agent of every session; other agents (subagents) get generated ids. */
export const MAIN_AGENT_ID = 'main';

/** An event as its producer states it; the agent's id is added on the way out (`EngineEvent`). */
export type EngineEventBody =
  | { type: 'turn_start'; turnId: string; origin: TurnOrigin; prompt: string }
  | { type: 'step_start'; turnId: string; step: number }
  | { type: 'text_delta'; delta: string }
  | { type: 'thinking_delta'; delta: string }
  | { type: 'tool_call_start'; id: string; name: string }
  /** The model finished a response; `text` is its full text for this step. */
  | { type: 'assistant_message'; text: string; toolCalls: ToolCall[] }
  | { type: 'tool_call'; call: ToolCall; subject: string }
  | { type: 'tool_progress'; callId: string; progress: ToolProgress }
  | {
      type: 'tool_result';
      callId: string;
      toolName: string;
      text: string;
      isError: boolean;
      summary?: string;
      display?: ToolDisplay;
      /** The language server's new errors after an edit or a command (docs/lsp.md), for the card's count. */
      diagnostics?: { errors: number; lines?: string[] };
    }
  /** The user is about to be asked to approve a call (the PermissionRequest hook attaches here). */
  | { type: 'approval_request'; callId: string; toolName: string; subject: string; reason: string }
  /** A prompt was queued behind the running turn. */
  | { type: 'prompt_queued'; text: string; queueLength: number }
  /** A background task started or ended (TaskStarted and Notification hooks). */
  | {
      type: 'task_change';
      change: 'started' | 'finished';
      task: { id: string; kind: string; description: string; status: string; statusMessage?: string };
    }
  /**
   * A subagent (Agent, AgentSwarm member) started or finished its run (SubagentStart/SubagentStop hooks).
   * Sent by the agent that called the tool (`agentId`); `parentCallId` is that Agent/AgentSwarm call, so a
   * front end groups the subagents by call. The subagent's own events carry `childId` as their agentId.
   */
  | {
      type: 'subagent';
      change: 'started';
      childId: string;
      agentName: string;
      prompt: string;
      parentCallId: string;
      description: string;
    }
  | {
      type: 'subagent';
      change: 'stopped';
      childId: string;
      agentName: string;
      status: string;
      response: string;
      parentCallId: string;
      elapsedMs: number;
      error?: string;
    }
  | { type: 'approval_decision'; callId: string; subject: string; decision: 'allow' | 'deny'; by: string }
  /** A transient provider failure; the step is retried after `delayMs`. Partial output of the failed attempt is discarded. */
  | { type: 'retry'; attempt: number; maxAttempts: number; delayMs: number; error: string }
  /** `model`: the model id the request went to (subagents may run on another model than the main agent). */
  | { type: 'usage'; usage: Usage; model: string; contextTokens: number; contextLimit: number }
  | { type: 'mode'; mode: PermissionMode }
  /** Plan mode switched (EnterPlanMode/ExitPlanMode, /plan, Shift-Tab, --plan). */
  | { type: 'plan_mode'; active: boolean; planPath: string }
  /** The to-do list changed (TodoList); the whole new list. */
  | { type: 'todos'; todos: TodoItem[] }
  /** The goal changed (created, budget, status, per-turn progress); null when cleared. */
  | { type: 'goal'; change: GoalChange; goal: Goal | null }
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; text: string }
  | { type: 'turn_end'; turnId: string; reason: TurnEndReason; error?: string }
  /** Before a compaction (the PreCompact hook attaches here); `tokenCount` is the context size now. */
  | { type: 'compaction_start'; trigger: CompactionTrigger; tokenCount: number; instruction?: string }
  /** After it (PostCompact): the estimated context size now, or the error that left the context unchanged. */
  | {
      type: 'compaction_end';
      trigger: CompactionTrigger;
      tokensBefore: number;
      estimatedTokenCount: number;
      summary?: string;
      error?: string;
      /** The summary request's usage (priced like any request): in the session's totals and --max-budget-usd. */
      usage?: Usage;
    };

/** What front ends and extensions receive: every event names the agent it comes from. */
export type EngineEvent = EngineEventBody & { agentId: string };

export type EventListener = (event: EngineEvent) => void;
