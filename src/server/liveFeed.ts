// The live view of one session for the server's watchers (docs/server.md "Live events"): the engine's events turned
// into server events. Text and thinking tokens become volatile `message.delta` events (not kept, not replayed: a
// client that reconnects reads the whole message from the kept `message` event), each naming the message it belongs
// to, so a browser can stream the answer and then swap in the finished message. The to-do list, the goal and the
// subagents (Agent and AgentSwarm members) become kept events, and their state is in the snapshot.
import { MAIN_AGENT_ID, type EngineEvent } from '../engine/loop/events';
import type { Goal } from '../tools/goal/goalService';
import type { EventJournal } from './eventJournal';

/** Finished subagents kept for the snapshot (running ones are always in it). */
const KEPT_FINISHED = 50;
/** A finished subagent's answer in its event and the snapshot is cut to this many characters. */
const RESPONSE_CHARS = 4000;

export interface SubagentView {
  subagent_id: string;
  /** The agent whose Agent/AgentSwarm call started it (`main`, or another subagent). */
  parent_agent_id: string;
  parent_call_id: string;
  /** `Agent` or `AgentSwarm` (members of one swarm share `parent_call_id`). */
  via: string;
  agent_name: string;
  description: string;
  /** `running`, then `completed`, `failed`, `cancelled` or `timed_out`. */
  status: string;
  started_at: string;
  /** Its latest tool call (`Bash npm test`) while it runs. */
  activity: string | null;
  elapsed_ms: number | null;
  error: string | null;
  response: string | null;
}

/** The goal as a browser shows it (docs/plan-goals-context.md). */
export function goalPayload(goal: Goal | null | undefined) {
  if (!goal) return null;
  return {
    goal_id: goal.id,
    objective: goal.objective,
    completion_criterion: goal.completionCriterion ?? null,
    status: goal.status,
    budget: {
      turns: goal.budget.turns ?? null,
      tokens: goal.budget.tokens ?? null,
      time_ms: goal.budget.timeMs ?? null,
    },
    used: { turns: goal.used.turns, tokens: goal.used.tokens, time_ms: goal.used.timeMs },
    reason: goal.reason ?? null,
  };
}

export class LiveFeed {
  /** The main agent's message in progress: one per model step (`msg_<turn>_<step>`). */
  private messageId: string | null = null;
  private readonly subagents = new Map<string, SubagentView>();
  /** Tool name of each Agent/AgentSwarm call, so a subagent says what started it. */
  private readonly callTools = new Map<string, string>();

  constructor(
    private readonly journal: EventJournal,
    /** The prompt whose turn runs now (null for a turn a finished background task started). */
    private readonly promptId: () => string | null,
  ) {}

  /** The id of the main agent's message in progress, for the `message` (or `retry`) event that ends its stream. */
  get currentMessageId(): string | null {
    return this.messageId;
  }

  /** The subagents running now and the latest finished ones, oldest first. */
  subagentList(): SubagentView[] {
    return [...this.subagents.values()];
  }

  observe(event: EngineEvent): void {
    if (event.type === 'subagent') return this.onSubagent(event);
    if (event.type === 'tool_call' && (event.call.name === 'Agent' || event.call.name === 'AgentSwarm'))
      this.remember(event.call.id, event.call.name);
    if (event.agentId !== MAIN_AGENT_ID) return this.onChild(event);
    switch (event.type) {
      case 'step_start':
        this.messageId = `msg_${event.turnId}_${event.step}`;
        return;
      case 'text_delta':
      case 'thinking_delta':
        this.journal.emitVolatile('message.delta', {
          prompt_id: this.promptId(),
          message_id: this.messageId,
          kind: event.type === 'text_delta' ? 'text' : 'thinking',
          delta: event.delta,
        });
        return;
      case 'todos':
        this.journal.emit('session.todos_changed', { todos: event.todos });
        return;
      case 'goal':
        this.journal.emit('session.goal_changed', { change: event.change, goal: goalPayload(event.goal) });
        return;
      default:
        return;
    }
  }

  /** What a subagent does now: its tool calls, as `subagent.progress`. */
  private onChild(event: EngineEvent): void {
    const view = this.subagents.get(event.agentId);
    if (!view || event.type !== 'tool_call') return;
    view.activity = `${event.call.name} ${event.subject}`.trim();
    this.journal.emit('subagent.progress', {
      subagent_id: view.subagent_id,
      parent_call_id: view.parent_call_id,
      activity: view.activity,
    });
  }

  private onSubagent(event: Extract<EngineEvent, { type: 'subagent' }>): void {
    if (event.change === 'started') {
      const view: SubagentView = {
        subagent_id: event.childId,
        parent_agent_id: event.agentId,
        parent_call_id: event.parentCallId,
        via: this.callTools.get(event.parentCallId) ?? 'Agent',
        agent_name: event.agentName,
        description: event.description,
        status: 'running',
        started_at: new Date().toISOString(),
        activity: null,
        elapsed_ms: null,
        error: null,
        response: null,
      };
      this.subagents.delete(view.subagent_id);
      this.subagents.set(view.subagent_id, view);
      this.forgetFinished();
      this.journal.emit('subagent.started', { ...view, prompt: event.prompt });
      return;
    }
    const view = this.subagents.get(event.childId);
    if (!view) return;
    view.status = event.status;
    view.activity = null;
    view.elapsed_ms = event.elapsedMs;
    view.error = event.error ?? null;
    view.response =
      event.response.length > RESPONSE_CHARS ? `${event.response.slice(0, RESPONSE_CHARS)}…` : event.response;
    this.journal.emit('subagent.finished', {
      subagent_id: view.subagent_id,
      parent_call_id: view.parent_call_id,
      status: view.status,
      elapsed_ms: view.elapsed_ms,
      error: view.error,
      response: view.response,
    });
  }

  private remember(callId: string, tool: string): void {
    this.callTools.set(callId, tool);
    if (this.callTools.size > KEPT_FINISHED * 4) this.callTools.delete(this.callTools.keys().next().value!);
  }

  private forgetFinished(): void {
    const finished = [...this.subagents.values()].filter((s) => s.status !== 'running');
    for (const s of finished.slice(0, Math.max(0, finished.length - KEPT_FINISHED)))
      this.subagents.delete(s.subagent_id);
  }
}
