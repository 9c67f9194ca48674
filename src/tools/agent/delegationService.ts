// What the Agent and AgentSwarm tools need from their session: run subagents. The engine implements it
// (engine/delegation/subagents.ts) for each agent, because who may delegate to whom depends on the caller.
import { serviceKey } from '../defineTool';

export interface SubagentCall {
  prompt: string;
  description: string;
  /** Default `coder`; ignored when resuming. */
  subagentType?: string;
  /** An earlier subagent's id: it continues with its own history. */
  resume?: string;
  /** The Agent call's id (front ends group subagents by the call that started them). */
  callId: string;
  /** A model pool alias or `primary` (SPEC §3.5), or without a pool any configured model; ignored when resuming. */
  model?: string;
}

export type SubagentStatus = 'completed' | 'failed' | 'timed_out' | 'cancelled';

export interface SubagentOutcome {
  agentId: string;
  type: string;
  status: SubagentStatus;
  /** The subagent's final answer (possibly partial when it did not complete). */
  text: string;
  /** Why it did not complete. */
  error?: string;
  elapsedMs: number;
}

export interface SwarmCall {
  promptTemplate: string;
  items: string[];
  resumeAgentIds: string[];
  subagentType?: string;
  /** The AgentSwarm call's id. */
  callId: string;
  /** A model pool alias or `primary` for the item members (resumed ones keep theirs). */
  model?: string;
}

/** One choice of the subagent model pool, as the tools describe it. */
export interface ModelChoice {
  alias: string;
  hint: string;
  isDefault: boolean;
}

/** The `model` argument's text: the pool's aliases with their hints, the default marked. */
export function describeModelChoices(choices: readonly ModelChoice[]): string {
  const listed = choices.map((c) => `${c.alias}${c.isDefault ? ' [default]' : ''}${c.hint ? ` (${c.hint})` : ''}`);
  if (!choices.some((c) => c.alias === 'primary'))
    listed.push(`primary (your own model)${choices.length ? '' : ' [default]'}`);
  return listed.join(', ');
}

export interface SwarmMember extends SubagentOutcome {
  /** The item it was started for; absent for resumed members. */
  item?: string;
  /** When it started, in ms after the swarm began. */
  startedAfterMs: number;
}

export interface DelegationService {
  /** Runs a subagent to the end of its turn (foreground). Throws DelegationError for a call that cannot start. */
  run(call: SubagentCall, signal: AbortSignal, progress: (line: string) => void): Promise<SubagentOutcome>;
  /** Starts a subagent as a background task; its result arrives as a task notification. */
  startInBackground(call: SubagentCall): { taskId: string; agentId: string };
  /** Runs a swarm (SPEC §6.7) and waits for every member. Throws DelegationError for a call that cannot start. */
  swarm(call: SwarmCall, signal: AbortSignal, progress: (line: string) => void): Promise<SwarmMember[]>;
}

/** A delegation that cannot start (unknown type, not allowed, bad swarm settings): the message is for the model. */
export class DelegationError extends Error {}

export const DELEGATION_SERVICE = serviceKey<DelegationService>()('delegation');

export const MAX_SWARM_MEMBERS = 128;
/** Members started at once, then one more every SWARM_RAMP_STEP_MS. */
export const SWARM_INITIAL_MEMBERS = 5;
export const SWARM_RAMP_STEP_MS = 700;
export const SWARM_ITEM_PLACEHOLDER = '{{item}}';

export function formatElapsed(ms: number): string {
  return ms < 60_000
    ? `${(ms / 1000).toFixed(1)} s`
    : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** One subagent's result as the calling model reads it: id to resume it, status, then its answer. */
export function formatSubagentOutcome(o: SubagentOutcome): string {
  const head = `agent_id: ${o.agentId} (${o.type}) — ${o.status === 'completed' ? 'completed' : `failed (${o.error ?? o.status.replace('_', ' ')})`} in ${formatElapsed(o.elapsedMs)}`;
  return o.text.trim() ? `${head}\n\n${o.text.trim()}` : `${head}\n(no final message)`;
}
