// What the user sees of subagents (docs/ui.md "Subagents"): the foreground Agent calls of one model
// response become one group in the transcript, each member running / waiting / completed / failed
// with its elapsed time; an AgentSwarm call feeds the live swarm panel above the input box. Fed by
// the main agent's tool calls and results, the `subagent` started/stopped events (grouped by the
// call that started them) and the subagents' own events (what each is doing, approvals it waits on).
import type { EngineEvent, EngineEventBody } from '../../engine/loop/events';
import type { ToolCall } from '../../llm/types';
import type { ViewState } from '../transcript/block';
import { describeCall } from '../transcript/toolCard';
import type { Transcript } from '../transcript/transcript';
import { SubagentGroupBlock, type SubagentMember } from './subagentGroup';

type SubagentEvent = Extract<EngineEventBody, { type: 'subagent' }>;

/** One AgentSwarm call while it runs: members by start order (the swarm starts them in item order). */
export interface SwarmProgress {
  callId: string;
  total: number;
  startedAt: number;
  members: SubagentMember[];
}

function parseArgs(call: ToolCall): Record<string, unknown> {
  try {
    const parsed = JSON.parse(call.arguments || '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const lengthOf = (value: unknown) => (Array.isArray(value) ? value.length : 0);

export class SubagentView {
  /** The group of the current model response's foreground Agent calls (one per response). */
  private group: SubagentGroupBlock | undefined;
  private readonly memberByCall = new Map<string, { group: SubagentGroupBlock; member: SubagentMember }>();
  private readonly memberByAgent = new Map<string, { member: SubagentMember; changed(): void }>();
  private readonly swarms = new Map<string, SwarmProgress>();

  constructor(
    private readonly view: ViewState,
    private readonly transcript: Transcript,
  ) {}

  /** The swarm whose panel is shown (the newest running one). */
  get activeSwarm(): SwarmProgress | undefined {
    return [...this.swarms.values()].at(-1);
  }

  /** A model response ended: the next Agent calls form a new group. */
  newStep(): void {
    this.group = undefined;
  }

  /**
   * A tool call of the main agent. Foreground Agent calls join the response's group and get no tool
   * card of their own (returns true); an AgentSwarm call starts a swarm panel and keeps its card.
   */
  claim(call: ToolCall): boolean {
    const args = parseArgs(call);
    if (call.name === 'AgentSwarm') {
      const total = lengthOf(args.items) + lengthOf(args.resume_agent_ids);
      this.swarms.set(call.id, { callId: call.id, total, startedAt: Date.now(), members: [] });
      return false;
    }
    if (call.name !== 'Agent' || args.run_in_background === true) return false;
    if (!this.group) {
      this.group = new SubagentGroupBlock(this.view);
      this.transcript.add(this.group);
    }
    const type =
      typeof args.resume === 'string'
        ? `resume ${args.resume}`
        : typeof args.subagent_type === 'string'
          ? args.subagent_type
          : 'coder';
    const description = describeCall('Agent', call.arguments, this.view.cwd) || 'subagent';
    const member: SubagentMember = { key: call.id, label: description, type, status: 'waiting', since: Date.now() };
    this.group.add(member);
    this.memberByCall.set(call.id, { group: this.group, member });
    return true;
  }

  /** A `subagent` event of the main agent: a member starts or ends. */
  onSubagent(event: SubagentEvent): void {
    const swarm = this.swarms.get(event.parentCallId);
    const grouped = this.memberByCall.get(event.parentCallId);
    if (event.change === 'started') {
      if (grouped) {
        Object.assign(grouped.member, {
          status: 'running',
          since: Date.now(),
          agentId: event.childId,
          type: event.agentName,
        });
        this.memberByAgent.set(event.childId, { member: grouped.member, changed: () => grouped.group.touch() });
        grouped.group.touch();
      } else if (swarm) {
        const member: SubagentMember = {
          key: event.childId,
          label: event.description,
          type: event.agentName,
          status: 'running',
          since: Date.now(),
          agentId: event.childId,
        };
        swarm.members.push(member);
        this.memberByAgent.set(event.childId, { member, changed: () => undefined });
      }
      return;
    }
    const tracked = this.memberByAgent.get(event.childId);
    if (!tracked) return;
    finishMember(
      tracked.member,
      event.status === 'completed',
      event.error ?? event.status.replace('_', ' '),
      event.elapsedMs,
    );
    tracked.changed();
    this.memberByAgent.delete(event.childId);
    if (grouped) this.transcript.flush();
  }

  /** An event of a subagent itself: what it is doing now, and whether it waits for the user. */
  onChildEvent(event: EngineEvent): boolean {
    const tracked = this.memberByAgent.get(event.agentId);
    if (!tracked) return false;
    const { member } = tracked;
    if (event.type === 'tool_call')
      member.activity =
        `${event.call.name} ${describeCall(event.call.name, event.call.arguments, this.view.cwd)}`.trim();
    else if (event.type === 'approval_request') member.status = 'waiting';
    else if (event.type === 'approval_decision' && member.status === 'waiting') member.status = 'running';
    else return false;
    tracked.changed();
    return true;
  }

  /** The main agent's result for a call; true when the call was one of the grouped Agent calls. */
  finishCall(callId: string, isError: boolean, text: string): boolean {
    this.swarms.delete(callId);
    const grouped = this.memberByCall.get(callId);
    if (!grouped) return false;
    this.memberByCall.delete(callId);
    // Refused before a subagent started (unknown type, denied): the result says why.
    if (grouped.member.status === 'waiting' || grouped.member.status === 'running') {
      finishMember(grouped.member, !isError, text.split('\n')[0], Date.now() - grouped.member.since);
    }
    grouped.group.touch();
    this.transcript.flush();
    return true;
  }

  /** The turn ended: whatever did not finish was interrupted. */
  endTurn(): void {
    for (const { group, member } of this.memberByCall.values()) {
      if (member.status === 'waiting' || member.status === 'running')
        finishMember(member, false, 'interrupted', Date.now() - member.since);
      group.touch();
    }
    this.memberByCall.clear();
    this.memberByAgent.clear();
    this.swarms.clear();
    this.group = undefined;
  }
}

function finishMember(member: SubagentMember, ok: boolean, error: string, elapsedMs: number): void {
  member.status = ok ? 'completed' : 'failed';
  member.elapsedMs = elapsedMs;
  member.activity = undefined;
  if (!ok) member.error = error;
}
