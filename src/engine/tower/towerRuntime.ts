// Tower mode in a runtime (docs/tower.md), present only with the experimental flag: the per-caller
// TowerService each agent's Tower tools use (the coordinator's roles checked here), the write guard
// that keeps every other tool out of `.tower/`, and the observer that shrinks the concurrency budget
// when a provider rate-limits a Tower agent.
import { sep } from 'node:path';
import { TOWER_SHARED_TOOLS, TowerError, type TowerService } from '../../tools/tower/towerService';
import type { TaskService } from '../../tools/task/taskService';
import { towerWorkerProfile } from '../../ext/agents/towerWorker';
import type { AgentProfile } from '../../ext/agents/agentFile';
import type { AgentDirectory } from '../delegation/agents';
import type { EngineEventBody } from '../loop/events';
import type { GateHandler } from '../extensions/extensionGate';
import { COORDINATOR, TowerCore } from './towerCore';
import { TowerSpawner, type TowerCaller } from './towerSpawner';
import { COMMS_DIR, TOWER_DIR, WORKTREES_DIR } from './towerStore';

export interface TowerRuntimeDeps {
  cwd: string;
  /** The session's environment, which Tower's git calls run with (default process.env). */
  env?: Readonly<NodeJS.ProcessEnv>;
  agents(): AgentDirectory;
  tasks: TaskService;
  /** Names of every tool the runtime offers now. */
  toolNames(): string[];
  /** The system prompt of a new agent of `profile` working in `cwd`, offered `tools`. */
  systemPromptFor(profile: AgentProfile, tools: string[], cwd: string): string;
  onSubagent(event: Extract<EngineEventBody, { type: 'subagent' }>): void;
}

const RATE_LIMIT = /\b429\b|rate[ _-]?limit/i;
const TOWER_SEGMENT = `${sep}${TOWER_DIR}`;

/**
 * Why a write to `path` is refused: anything under a `.tower/` folder except its mission worktrees
 * (`.tower/worktrees/<name>` and below, where workers do their work) is written only by the Tower tools.
 */
export function towerGuardedWrite(path: string): string | undefined {
  const at = path.indexOf(`${TOWER_SEGMENT}${sep}`);
  const whole = path.endsWith(TOWER_SEGMENT) ? path.length - TOWER_SEGMENT.length : -1;
  const start = at >= 0 ? at : whole;
  if (start < 0) return undefined;
  const rest = path
    .slice(start + TOWER_SEGMENT.length + 1)
    .split(sep)
    .filter(Boolean);
  if (rest[0] === WORKTREES_DIR && rest.length >= 2) return undefined;
  return `${path} is Tower state (${TOWER_DIR}/${COMMS_DIR} and the worktree folders); only the Tower tools write there — use TowerMission, TowerSend, TowerFinding or TowerReview instead`;
}

export class TowerRuntime {
  readonly core: TowerCore;
  readonly spawner: TowerSpawner;
  private readonly agentTools: (name: string) => boolean;

  constructor(private readonly deps: TowerRuntimeDeps) {
    this.core = new TowerCore(deps.cwd, deps.env);
    const profile = towerWorkerProfile(TOWER_SHARED_TOOLS);
    const allowed = new Set(profile.tools === '*' ? [] : profile.tools);
    this.agentTools = (name) => allowed.has(name);
    this.spawner = new TowerSpawner(this.core, {
      agents: deps.agents,
      tasks: deps.tasks,
      includeTool: this.agentTools,
      systemPromptFor: (cwd) => deps.systemPromptFor(profile, deps.toolNames().filter(this.agentTools), cwd),
      serviceFor: (caller) => this.serviceFor(caller),
      onSubagent: deps.onSubagent,
    });
  }

  /** The coordinator's (main agent's) service. */
  coordinator(): TowerService {
    return this.serviceFor({ role: 'tower', agentId: COORDINATOR });
  }

  serviceFor(caller: TowerCaller): TowerService {
    const core = this.core;
    const coordinatorOnly = (tool: string) => {
      if (caller.role !== 'tower')
        throw new TowerError(
          `${tool} is for the Tower coordinator; you are ${caller.role} ${caller.agentId}. Ask the coordinator with TowerSend.`,
        );
    };
    return {
      role: caller.role,
      agentId: caller.agentId,
      init: async (objective) => (coordinatorOnly('TowerInit'), core.init(objective)),
      plan: async (missions, objective) => (coordinatorOnly('TowerPlan'), core.plan(missions, objective)),
      spawn: async (target, callId) => (coordinatorOnly('TowerSpawn'), this.spawner.spawn(target, callId)),
      merge: async (mission) => (coordinatorOnly('TowerMerge'), core.merge(mission)),
      teardown: async (force) => (coordinatorOnly('TowerTeardown'), core.teardown(force)),
      send: (to, text) => core.send(caller.agentId, to, text),
      inbox: (limit) => core.inbox(caller.agentId, limit),
      finding: (f) => core.finding(caller.agentId, caller.mission, f),
      review: async (mission, verdict, summary) => {
        if (caller.role !== 'reviewer')
          throw new TowerError(
            `Only the reviewer assigned to mission "${mission}" may submit its review; you are ${caller.role === 'tower' ? 'the coordinator' : `the worker ${caller.agentId}`}. TowerSpawn a reviewer for it.`,
          );
        return core.review(caller.agentId, mission, verdict, summary);
      },
      mission: (patch) =>
        core.mission(
          {
            id: caller.agentId,
            owns: caller.role === 'worker' ? caller.mission : undefined,
            coordinator: caller.role === 'tower',
          },
          patch,
        ),
      status: () => core.status(),
    };
  }

  /** Sees provider rate limits of Tower agents (the concurrency budget shrinks). */
  gateHandler(): GateHandler {
    return {
      name: 'tower',
      observe: (event) => {
        if (!this.spawner.isLive(event.agentId)) return;
        const error = event.type === 'retry' ? event.error : event.type === 'turn_end' ? event.error : undefined;
        if (error && RATE_LIMIT.test(error)) this.spawner.rateLimited(event.agentId);
      },
    };
  }
}
