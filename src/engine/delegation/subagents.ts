// Subagents for one calling agent (SPEC §6.7, §9.2): the DelegationService behind Agent and AgentSwarm.
// A subagent is created through the runtime's agents (engine/delegation/agents.ts) with its own journal
// (`agents/<id>/wire.jsonl`), the profile's system prompt and exactly the profile's tools; it runs on the model
// its call or its agent file names (else the caller's) and inherits the caller's mode and session approvals. Foreground runs are awaited (with the subagent
// timeout); background runs are background tasks (engine/background/backgroundTasks.ts), so their end reaches the
// main agent as a task notification; swarms ramp their starts and time members out one by one.
import { existsSync } from 'node:fs';
import type { AgentCatalog } from '../../ext/agents/agentCatalog';
import { selectTools } from '../../ext/agents/agentCatalog';
import type { AgentProfile } from '../../ext/agents/agentFile';
import { DEFAULT_SUBAGENT, DELEGATION_TOOLS, MAIN_AGENT_ONLY_TOOLS } from '../../ext/agents/builtinAgents';
import { journalPathOf } from '../../store/sessionStore';
import type { AgentModelResolver } from '../../store/agentModels';
import { PRIMARY_MODEL, type SubagentModelPool } from '../../store/subagentModelPool';
import type { ResolvedModel } from '../../types/models';
import {
  DelegationError,
  DELEGATION_SERVICE,
  formatElapsed,
  formatSubagentOutcome,
  SWARM_INITIAL_MEMBERS,
  SWARM_ITEM_PLACEHOLDER,
  SWARM_RAMP_STEP_MS,
  type DelegationService,
  type SubagentCall,
  type SubagentOutcome,
  type SwarmCall,
  type SwarmMember,
} from '../../tools/agent/delegationService';
import type { ServiceKey } from '../../tools/defineTool';
import { TOWER_TOOL_NAMES } from '../../tools/tower/towerService';
import type { TaskService } from '../../tools/task/taskService';
import type { EngineEventBody } from '../loop/events';
import type { AgentDirectory } from './agents';
import type { Agent, TurnExtension } from '../loop/loop';
import { Session } from '../session/session';

export interface DelegationSettings {
  /** `[subagent] timeout_ms`; 0 = none. */
  subagentTimeoutMs: number;
  /** `[swarm] timeout_ms` per member; 0 = none. */
  swarmTimeoutMs: number;
  /** `JARVIS_CODE_AGENT_SWARM_MAX_CONCURRENCY` as given (undefined = no cap); checked at each swarm call. */
  swarmMaxConcurrency?: string;
  /** Ramp step; tests and benchmarks keep the default. */
  rampStepMs?: number;
}

export interface DelegationDeps {
  /** The runtime's agents (created after the main agent's services, hence a getter). */
  agents(): AgentDirectory;
  catalog: AgentCatalog;
  tasks: TaskService;
  settings: DelegationSettings;
  /** Names of every tool the runtime offers now (a profile's `tools` selects from these). */
  toolNames(): string[];
  /** The system prompt of a new subagent of this profile, offered these tools. */
  systemPromptFor(profile: AgentProfile, tools: string[]): string;
  /** The experimental model pool (SPEC §3.5); absent: subagents run on their caller's model. */
  modelPool?: SubagentModelPool;
  /** Resolves an agent file's `model:` or an Agent call's `model` to a configured model (store/agentModels.ts). */
  agentModels?: AgentModelResolver;
  /** Tells the user something once (a `model:` that names no configured model). */
  notice?(text: string): void;
  /** Services and turn extensions each new agent gets for itself (its own skill nesting count…). */
  ownParts?(): { services: Array<readonly [ServiceKey<unknown>, unknown]>; extensions: TurnExtension[] };
  /** A subagent's run starts or ends; `callerId` is the agent whose tool call started it (engine events for hooks and front ends). */
  onSubagent?(event: Extract<EngineEventBody, { type: 'subagent' }>, callerId: string): void;
}

/** SPEC §6.7: an AgentSwarm call must be the only tool call of its response; otherwise nothing runs. */
export const swarmAloneRule: TurnExtension = {
  checkToolCall(_call, agent) {
    const last = agent.session.state.messages.at(-1);
    const calls = last?.role === 'assistant' ? (last.toolCalls ?? []) : [];
    if (calls.length > 1 && calls.some((c) => c.name === 'AgentSwarm')) {
      return 'AgentSwarm must be the only tool call in its response, so nothing in this response was run. Call AgentSwarm alone and the other tools after its report (or fold the work into one swarm).';
    }
    return undefined;
  },
};

/** The positive-integer cap of the swarm ramp, or an error for anything else. */
export function parseSwarmConcurrency(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return Infinity;
  const text = raw.trim();
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw new DelegationError(
      `JARVIS_CODE_AGENT_SWARM_MAX_CONCURRENCY must be a positive integer, got "${raw}". Fix or unset it; no subagent was started.`,
    );
  }
  return Number(text);
}

/** When member `index` may start, in ms after the swarm began: SWARM_INITIAL_MEMBERS at once, then one per step. */
export function rampStartMs(index: number, stepMs = SWARM_RAMP_STEP_MS): number {
  return index < SWARM_INITIAL_MEMBERS ? 0 : (index - SWARM_INITIAL_MEMBERS + 1) * stepMs;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export class Delegation implements DelegationService {
  constructor(
    private readonly deps: DelegationDeps,
    private readonly caller: () => Agent,
    private readonly callerProfile: AgentProfile,
    private readonly isMain: boolean,
  ) {}

  /**
   * The model a new subagent runs on (docs/skills-and-agents.md, "A model per agent"): with `force`, the pool's
   * default; else the call's `model` (a pool alias when there is a pool); else the agent file's `model:`; else
   * the pool's default. Undefined = the caller's own model (`primary`, `inherit`, no pool, or a file's `model:`
   * that names no configured model — said once).
   */
  private modelFor(requested: string | undefined, profile: AgentProfile): ResolvedModel | undefined {
    const pool = this.deps.modelPool;
    if (pool?.force) return this.poolModel(pool.defaultAlias);
    if (requested !== undefined) return pool ? this.poolModel(requested) : this.chosenModel(requested);
    if (profile.model) {
      const choice = this.deps.agentModels?.(profile.model) ?? {
        kind: 'unresolved' as const,
        reason: 'no model configuration was given to this session',
      };
      if (choice.kind === 'model') return choice.model;
      if (choice.kind === 'unresolved')
        this.deps.notice?.(
          `agent ${profile.name}${profile.path ? ` (${profile.path})` : ''}: model "${profile.model}" is not used: ${choice.reason}. It runs on the model of the agent that delegates to it.`,
        );
      return undefined;
    }
    return pool ? this.poolModel(pool.defaultAlias) : undefined;
  }

  /** A pool alias (or `primary`): its model; an alias outside the pool is an error that lists the choices. */
  private poolModel(alias: string): ResolvedModel | undefined {
    const pool = this.deps.modelPool!;
    if (alias === PRIMARY_MODEL) return undefined;
    const entry = pool.models.find((m) => m.alias === alias);
    if (!entry) {
      const choices = [...new Set([...pool.models.map((m) => m.alias), PRIMARY_MODEL])];
      throw new DelegationError(
        `There is no subagent model "${alias}"; no subagent was started. Choose one of: ${choices.join(', ')} (or leave model out for ${pool.defaultAlias}).`,
      );
    }
    return entry.model;
  }

  /** An Agent call's `model` without a pool: any configured model; one that names none is an error. */
  private chosenModel(value: string): ResolvedModel | undefined {
    const choice = this.deps.agentModels?.(value);
    if (choice?.kind === 'model') return choice.model;
    if (choice?.kind === 'inherit') return undefined;
    const why = choice?.reason ?? 'this session has no configured models to choose from';
    throw new DelegationError(
      `Cannot run the subagent on "${value}": ${why}. No subagent was started; leave model out for the agent's own model.`,
    );
  }

  /** A resumed subagent keeps the model it was created on (by the alias its journal records). */
  private resumedModel(modelAlias: string | undefined): ResolvedModel | undefined {
    if (!modelAlias) return undefined;
    const pooled = this.deps.modelPool?.models.find((m) => m.alias === modelAlias);
    if (pooled) return pooled.model;
    const choice = this.deps.agentModels?.(modelAlias);
    return choice?.kind === 'model' && choice.model.alias === modelAlias ? choice.model : undefined;
  }

  /** The profile a call asks for, checked against the caller's allowlist (resuming is exempt). */
  private resolve(call: SubagentCall): { profile: AgentProfile; resumeId?: string; model?: ResolvedModel } {
    const { catalog } = this.deps;
    const agents = this.deps.agents();
    if (call.resume) {
      const id = call.resume;
      const caller = this.caller();
      if (agents.get(id))
        throw new DelegationError(`Subagent ${id} is still running; wait for its result before resuming it.`);
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(id) || !existsSync(journalPathOf(caller.session.dir, id))) {
        throw new DelegationError(
          `There is no subagent "${id}" in this session to resume. Use an agent_id from an earlier Agent result.`,
        );
      }
      const { state } = Session.open(caller.session.location, id);
      const name = state.agent?.name ?? DEFAULT_SUBAGENT;
      return {
        profile: catalog.get(name) ?? catalog.get(DEFAULT_SUBAGENT)!,
        resumeId: id,
        model: this.resumedModel(state.modelAlias),
      };
    }
    const type = call.subagentType ?? DEFAULT_SUBAGENT;
    const allowed = catalog.delegatesOf(this.callerProfile, this.isMain);
    const profile = catalog.get(type);
    if (!profile || !allowed.includes(profile.name)) {
      const why = profile
        ? `${this.callerProfile.name} may not delegate to "${type}"`
        : `there is no subagent type "${type}"`;
      throw new DelegationError(
        `Cannot start the subagent: ${why}. ${allowed.length ? `Types you can use: ${allowed.join(', ')}.` : 'This agent cannot delegate.'}`,
      );
    }
    return { profile, model: this.modelFor(call.model, profile) };
  }

  /** Which tools a subagent of this profile gets: its `tools`, minus `disallowedTools`, delegation only with an allowlist, never Tower tools (only TowerSpawn makes Tower agents). */
  private toolFilter(profile: AgentProfile): (name: string) => boolean {
    const delegates = this.deps.catalog.delegatesOf(profile, false);
    const picked = profile.tools === '*' ? undefined : new Set(selectTools(profile, this.deps.toolNames()).names);
    const without = new Set(profile.disallowedTools.map((n) => n.toLowerCase()));
    return (name) =>
      (!picked || picked.has(name)) &&
      !without.has(name.toLowerCase()) &&
      (delegates.length > 0 || !DELEGATION_TOOLS.includes(name)) &&
      !MAIN_AGENT_ONLY_TOOLS.includes(name) &&
      !TOWER_TOOL_NAMES.includes(name);
  }

  /** Creates (or resumes) the subagent on `model` (default: the caller's); it inherits the caller's mode and session approvals. */
  private spawn(profile: AgentProfile, resumeId?: string, systemPrompt?: string, model?: ResolvedModel): Agent {
    const include = this.toolFilter(profile);
    const own = this.deps.ownParts?.() ?? { services: [], extensions: [] };
    const child: Agent = this.deps.agents().spawn({
      agentId: resumeId,
      name: profile.name,
      systemPrompt: systemPrompt ?? this.deps.systemPromptFor(profile, this.deps.toolNames().filter(include)),
      tools: (tool) => include(tool.name),
      parent: this.caller(),
      model,
      services: [[DELEGATION_SERVICE, new Delegation(this.deps, () => child, profile, false)], ...own.services],
      extensions: [swarmAloneRule, ...own.extensions],
    });
    return child;
  }

  private spawnChecked(
    profile: AgentProfile,
    resumeId: string | undefined,
    systemPrompt?: string,
    model?: ResolvedModel,
  ): Agent {
    try {
      return this.spawn(profile, resumeId, systemPrompt, model);
    } catch (e) {
      throw new DelegationError(`Cannot start the subagent: ${(e as Error).message}`);
    }
  }

  /**
   * Runs one prompt on a spawned subagent to the end of its turn, with a timeout; releases it after.
   * `origin` is the tool call that started it, as the started/stopped events report it.
   */
  private async runChild(
    child: Agent,
    profile: AgentProfile,
    prompt: string,
    signal: AbortSignal,
    timeoutMs: number,
    origin: { callId: string; description: string },
  ): Promise<SubagentOutcome> {
    const started = Date.now();
    const run = new AbortController();
    let timedOut = false;
    const onAbort = () => run.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = timeoutMs > 0 ? setTimeout(() => ((timedOut = true), run.abort()), timeoutMs) : undefined;
    let result: SubagentOutcome | undefined;
    const callerId = this.caller().id;
    const ids = { childId: child.id, agentName: profile.name, parentCallId: origin.callId };
    this.deps.onSubagent?.(
      { type: 'subagent', change: 'started', ...ids, prompt, description: origin.description },
      callerId,
    );
    try {
      if (signal.aborted) run.abort();
      const outcome = await child.run(prompt, { signal: run.signal });
      const status = timedOut
        ? 'timed_out'
        : outcome.reason === 'completed'
          ? 'completed'
          : run.signal.aborted || outcome.reason === 'cancelled'
            ? 'cancelled'
            : 'failed';
      const error = timedOut
        ? `timed out after ${formatElapsed(timeoutMs)}`
        : status === 'completed'
          ? undefined
          : (outcome.error ?? `its turn ended: ${outcome.reason}`);
      result = {
        agentId: child.id,
        type: profile.name,
        status,
        text: outcome.text,
        error,
        elapsedMs: Date.now() - started,
      };
      return result;
    } finally {
      const stopped = {
        status: result?.status ?? 'failed',
        response: result?.text ?? '',
        elapsedMs: Date.now() - started,
        ...(result?.error ? { error: result.error } : {}),
      };
      this.deps.onSubagent?.({ type: 'subagent', change: 'stopped', ...ids, ...stopped }, callerId);
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      await this.deps.agents().release(child.id);
    }
  }

  async run(call: SubagentCall, signal: AbortSignal, progress: (line: string) => void): Promise<SubagentOutcome> {
    const { profile, resumeId, model } = this.resolve(call);
    const child = this.spawnChecked(profile, resumeId, undefined, model);
    progress(`${profile.name} ${child.id}: ${call.description}`);
    return this.runChild(child, profile, call.prompt, signal, this.deps.settings.subagentTimeoutMs, call);
  }

  startInBackground(call: SubagentCall): { taskId: string; agentId: string } {
    const { profile, resumeId, model } = this.resolve(call);
    const child = this.spawnChecked(profile, resumeId, undefined, model);
    try {
      const task = this.deps.tasks.startInProcess({
        kind: 'subagent',
        description: call.description,
        timeoutMs: this.deps.settings.subagentTimeoutMs > 0 ? this.deps.settings.subagentTimeoutMs : null,
        run: async (signal, write) => {
          const outcome = await this.runChild(child, profile, call.prompt, signal, 0, call);
          write(formatSubagentOutcome(outcome));
          return outcome.status === 'completed' ? undefined : (outcome.error ?? outcome.status.replace('_', ' '));
        },
      });
      return { taskId: task.id, agentId: child.id };
    } catch (e) {
      void this.deps.agents().release(child.id);
      throw new DelegationError(`Cannot start the subagent in the background: ${(e as Error).message}`);
    }
  }

  async swarm(call: SwarmCall, signal: AbortSignal, progress: (line: string) => void): Promise<SwarmMember[]> {
    const cap = parseSwarmConcurrency(this.deps.settings.swarmMaxConcurrency);
    const { profile, model } = this.resolve({
      prompt: '',
      description: '',
      subagentType: call.subagentType,
      callId: call.callId,
      model: call.model,
    });
    const members = [
      ...call.resumeAgentIds.map((id) => ({
        resume: this.resolve({ prompt: '', description: '', resume: id, callId: call.callId }),
      })),
      ...call.items.map((item) => ({ item })),
    ];
    const stepMs = this.deps.settings.rampStepMs ?? SWARM_RAMP_STEP_MS;
    // Every new member gets the same system prompt: built once, not once per member.
    const memberPrompt = this.deps.systemPromptFor(profile, this.deps.toolNames().filter(this.toolFilter(profile)));
    const began = Date.now();
    const results: Array<Promise<SwarmMember>> = [];
    let running = 0;
    let finished = 0;
    let slotFreed: (() => void) | undefined;
    for (const [index, member] of members.entries()) {
      // Members whose slot has come start in the same tick ("5 at once"); their turns begin right after.
      const wait = began + rampStartMs(index, stepMs) - Date.now();
      if (wait > 0) await abortableSleep(wait, signal);
      while (running >= cap && !signal.aborted) await new Promise<void>((r) => (slotFreed = r));
      if (signal.aborted) break;
      running++;
      const startedAfterMs = Date.now() - began;
      const prompt =
        'item' in member
          ? call.promptTemplate.split(SWARM_ITEM_PLACEHOLDER).join(member.item)
          : call.promptTemplate.split(SWARM_ITEM_PLACEHOLDER).join('').trim();
      const target = 'item' in member ? { profile, resumeId: undefined, model } : member.resume;
      let outcome: Promise<SubagentOutcome>;
      try {
        const child = this.spawnChecked(
          target.profile,
          target.resumeId,
          target.resumeId ? undefined : memberPrompt,
          target.model,
        );
        const description = 'item' in member ? member.item : `resume ${child.id}`;
        outcome = Promise.resolve().then(() =>
          this.runChild(child, target.profile, prompt, signal, this.deps.settings.swarmTimeoutMs, {
            callId: call.callId,
            description,
          }),
        );
      } catch (e) {
        outcome = Promise.resolve({
          agentId: target.resumeId ?? '-',
          type: target.profile.name,
          status: 'failed',
          text: '',
          error: (e as Error).message,
          elapsedMs: 0,
        });
      }
      results.push(
        outcome.then((o): SwarmMember => {
          running--;
          finished++;
          progress(`${finished} of ${members.length} finished`);
          slotFreed?.();
          slotFreed = undefined;
          return { ...o, ...('item' in member ? { item: member.item } : {}), startedAfterMs };
        }),
      );
    }
    return Promise.all(results);
  }
}
