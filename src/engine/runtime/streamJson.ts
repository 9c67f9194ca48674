// The stream-json events, format version 1 (docs/print-mode.md "stream-json events"): what `jarvis -p
// --output-format stream-json` writes one per line, and exactly the messages the SDK yields (docs/sdk.md). A headless
// run starts with `init` and ends with `result` (runResult.ts); between them, each engine event of the main agent
// becomes at most one message here. Thinking is never one.
import type { EngineEventBody } from '../loop/events';

/** Bumped when a field of a stream-json event changes meaning or goes away (adding a field does not bump it). */
export const STREAM_JSON_VERSION = 1;

export interface InitMessage {
  type: 'init';
  version: number;
  session_id: string;
  model: string;
  cwd: string;
}

/** The model finished a response; `tool_calls` only when it called tools. */
export interface AssistantMessage {
  role: 'assistant';
  content: string;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
}

/** A tool call ended; `is_error` only on a failure. */
export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  name: string;
  content: string;
  is_error?: true;
}

/** A transient provider failure; the step is retried. */
export interface RetryMessage {
  type: 'retry';
  attempt: number;
  max_attempts: number;
  delay_ms: number;
  error: string;
}

/** Any error: a provider failure, bad config, a prompt too large, a blocked turn, a callback that threw. */
export interface ErrorMessage {
  type: 'error';
  message: string;
}

/** Every event of a run but the last (`result`, runResult.ts). */
export type StreamJsonMessage = InitMessage | AssistantMessage | ToolMessage | RetryMessage | ErrorMessage;

/** The first event: which session and model the run uses, and the format's version. */
export function initEvent(sessionId: string, model: string, cwd: string): InitMessage {
  return { type: 'init', version: STREAM_JSON_VERSION, session_id: sessionId, model, cwd };
}

/** The message one of the main agent's engine events is, if it is one. */
export function streamJsonMessage(event: EngineEventBody): StreamJsonMessage | undefined {
  switch (event.type) {
    case 'assistant_message': {
      const message: AssistantMessage = { role: 'assistant', content: event.text };
      if (event.toolCalls.length) {
        message.tool_calls = event.toolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        }));
      }
      return message;
    }
    case 'tool_result':
      return {
        role: 'tool',
        tool_call_id: event.callId,
        name: event.toolName,
        content: event.text,
        ...(event.isError ? { is_error: true as const } : {}),
      };
    case 'retry':
      return {
        type: 'retry',
        attempt: event.attempt,
        max_attempts: event.maxAttempts,
        delay_ms: event.delayMs,
        error: event.error,
      };
    case 'notice':
      return event.level === 'error' ? { type: 'error', message: event.text } : undefined;
    case 'turn_end':
      return event.reason === 'blocked' && event.error ? { type: 'error', message: event.error } : undefined;
    default:
      return undefined;
  }
}
