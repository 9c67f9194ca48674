// Everything a front end shows, as one typed union. Durable facts also go to the journal; events
// are the live view (deltas, progress, retries) and are never needed to rebuild state.
import type { ToolCall, Usage } from '../llm/types';
import type { ToolDisplay, ToolProgress } from '../tools/defineTool';
import type { PermissionMode, TurnEndReason, TurnOrigin } from './records';

export type EngineEvent =
  | { type: 'turn_start'; turnId: string; origin: TurnOrigin; prompt: string }
  | { type: 'step_start'; turnId: string; step: number }
  | { type: 'text_delta'; delta: string }
  | { type: 'thinking_delta'; delta: string }
  | { type: 'tool_call_start'; id: string; name: string }
  /** The model finished a response; `text` is its full text for this step. */
  | { type: 'assistant_message'; text: string; toolCalls: ToolCall[] }
  | { type: 'tool_call'; call: ToolCall; subject: string }
  | { type: 'tool_progress'; callId: string; progress: ToolProgress }
  | { type: 'tool_result'; callId: string; toolName: string; text: string; isError: boolean; summary?: string; display?: ToolDisplay }
  | { type: 'approval_decision'; callId: string; subject: string; decision: 'allow' | 'deny'; by: string }
  /** A transient provider failure; the step is retried after `delayMs`. Partial output of the failed attempt is discarded. */
  | { type: 'retry'; attempt: number; maxAttempts: number; delayMs: number; error: string }
  | { type: 'usage'; usage: Usage; contextTokens: number; contextLimit: number }
  | { type: 'mode'; mode: PermissionMode }
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; text: string }
  | { type: 'turn_end'; turnId: string; reason: TurnEndReason; error?: string };

export type EventListener = (event: EngineEvent) => void;
