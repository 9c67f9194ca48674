// Engine events and stored history as ACP `session/update`s: streamed message and thought chunks,
// tool calls with their updates, the to-do list as the plan, the context size. The same mapping
// replays an earlier session's messages for `session/load`.
import type { PlanEntry, SessionUpdate } from '@agentclientprotocol/sdk';
import { MAIN_AGENT_ID, type EngineEvent } from '../engine/loop/events';
import type { Message } from '../llm/types';
import type { TodoItem } from '../tools/todo/todoService';
import {
  agentTitle,
  editorCallId,
  parseToolArgs,
  resultContent,
  toolKind,
  toolLocations,
  toolTitle,
} from './toolCalls';

/** Said before a retried answer that differs from the partial one the editor already shows. */
export const RETRY_REPLACES_NOTE =
  '\n\n[The answer above was cut off by a provider error; the retried answer replaces it:]\n\n';

/** Notifications the engine delivers as user messages are not something the user typed. */
const NOTIFICATION_PREFIX = '<system-notification>';

export function planUpdate(todos: readonly TodoItem[]): SessionUpdate {
  const entries: PlanEntry[] = todos.map((t) => ({
    content: t.title,
    priority: 'medium',
    status: t.status === 'done' ? 'completed' : t.status,
  }));
  return { sessionUpdate: 'plan', entries };
}

function toolCallUpdate(
  call: { id: string; name: string; arguments: string },
  cwd: string,
  agentId?: string,
): SessionUpdate {
  const args = parseToolArgs(call.arguments);
  return {
    sessionUpdate: 'tool_call',
    toolCallId: editorCallId(agentId, call.id),
    title: agentTitle(agentId, toolTitle(call.name, args, cwd)),
    kind: toolKind(call.name),
    status: 'pending',
    rawInput: args,
    locations: toolLocations(args, cwd),
  };
}

/** What a subagent shows in the editor: its tool calls (its text is the Agent call's result). */
const SUBAGENT_EVENTS = new Set<EngineEvent['type']>([
  'tool_call',
  'approval_decision',
  'tool_progress',
  'tool_result',
]);

/**
 * Maps live events to updates: everything of the main agent an editor has a place for (not steps,
 * retries or info notices), and the tool calls of subagents, named by their agent.
 */
export class EventMapper {
  /** Calls that already reported they run, so `in_progress` is sent once. */
  private readonly running = new Set<string>();
  /** The main agent's text sent for the current step, and, after a retry, the new attempt's text so far. */
  private shown = '';
  private retried: string | undefined;

  constructor(private readonly cwd: string) {}

  map(event: EngineEvent): SessionUpdate[] {
    if (event.agentId !== MAIN_AGENT_ID && !SUBAGENT_EVENTS.has(event.type)) return [];
    const id = (callId: string) => editorCallId(event.agentId, callId);
    switch (event.type) {
      case 'text_delta':
        return this.text(event.delta);
      case 'retry':
        // Sent text cannot be taken back: the retry's text is matched against it (see `text`).
        if (this.shown) this.retried = '';
        return [];
      case 'assistant_message':
      case 'turn_end':
        return this.endStep();
      case 'thinking_delta':
        return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.delta } }];
      case 'tool_call':
        return [toolCallUpdate(event.call, this.cwd, event.agentId)];
      case 'approval_decision':
        return event.decision === 'allow' ? this.started(id(event.callId)) : [];
      case 'tool_progress':
        return this.started(id(event.callId));
      case 'tool_result':
        this.running.delete(id(event.callId));
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: id(event.callId),
            status: event.isError ? 'failed' : 'completed',
            content: resultContent(event.text, event.display),
            rawOutput: { text: event.text, ...(event.summary ? { summary: event.summary } : {}) },
          },
        ];
      case 'todos':
        return [planUpdate(event.todos)];
      case 'usage':
        return [{ sessionUpdate: 'usage_update', used: event.contextTokens, size: event.contextLimit }];
      case 'notice':
        // Warnings and errors are part of what the user must see; info notices are not.
        return event.level === 'info'
          ? []
          : [
              {
                sessionUpdate: 'agent_message_chunk',
                content: {
                  type: 'text',
                  text: `\n\n${event.level === 'error' ? 'Error' : 'Warning'}: ${event.text}\n\n`,
                },
              },
            ];
      default:
        return [];
    }
  }

  /**
   * ACP has no way to retract a chunk. After a retry, the new attempt's text is held while it repeats
   * what the editor already shows, and only what goes beyond it is sent; an attempt that says
   * something else is sent whole after a note saying it replaces the cut-off one (docs/acp.md).
   */
  private text(delta: string): SessionUpdate[] {
    if (this.retried === undefined) {
      this.shown += delta;
      return [chunk(delta)];
    }
    this.retried += delta;
    if (this.shown.startsWith(this.retried)) return [];
    if (this.retried.startsWith(this.shown)) {
      const rest = this.retried.slice(this.shown.length);
      this.shown = this.retried;
      this.retried = undefined;
      return [chunk(rest)];
    }
    return this.replace();
  }

  /** The step's response is final: a retried attempt shorter than what was shown replaces it too. */
  private endStep(): SessionUpdate[] {
    const out = this.retried !== undefined && this.retried !== this.shown ? this.replace() : [];
    this.shown = '';
    this.retried = undefined;
    return out;
  }

  private replace(): SessionUpdate[] {
    const text = this.retried ?? '';
    this.shown = text;
    this.retried = undefined;
    return [chunk(RETRY_REPLACES_NOTE), ...(text ? [chunk(text)] : [])];
  }

  private started(callId: string): SessionUpdate[] {
    if (this.running.has(callId)) return [];
    this.running.add(callId);
    return [{ sessionUpdate: 'tool_call_update', toolCallId: callId, status: 'in_progress' }];
  }
}

function chunk(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
}

/** An earlier session's conversation as the updates that would have shown it (`session/load`). */
export function historyUpdates(messages: readonly Message[], todos: readonly TodoItem[], cwd: string): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      for (const part of message.content) {
        if (part.type === 'image')
          updates.push({
            sessionUpdate: 'user_message_chunk',
            content: { type: 'image', mimeType: part.mediaType, data: part.data },
          });
        else if (!part.text.startsWith(NOTIFICATION_PREFIX))
          updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: part.text } });
      }
    } else if (message.role === 'assistant') {
      for (const block of message.thinking ?? [])
        if (block.text)
          updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: block.text } });
      if (message.text)
        updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: message.text } });
      for (const call of message.toolCalls ?? []) updates.push(toolCallUpdate(call, cwd));
    } else {
      const text = message.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('\n');
      updates.push({
        sessionUpdate: 'tool_call_update',
        toolCallId: message.toolCallId,
        status: message.isError ? 'failed' : 'completed',
        content: resultContent(text, undefined),
      });
    }
  }
  if (todos.length) updates.push(planUpdate(todos));
  return updates;
}
