// The agents of one runtime. A session owns several agents: the main one and any number of
// subagents, each with its own journal (`agents/<id>/wire.jsonl`), context, compaction, plan mode,
// todo list and tool set, and its own model client. What they share is the runtime's: the tool
// registry (a subagent sees a live subset of it), background tasks, the extension gate, the
// reinjectors, the approval port and the permission rules. Every event they emit carries their id.
import { randomBytes } from 'node:crypto';
import { createModelClient, type ModelClientOptions } from '../../llm/createModelClient';
import type { ModelClient, ResolvedModel } from '../../llm/types';
import { toolSchemaForModel, type ServiceKey, type Tool, type ToolServices } from '../../tools/defineTool';
import { MODEL_MEDIA_INPUT } from '../../tools/file';
import type { ApprovalPort, PermissionRule } from '../policy/approvals';
import { Compactor, type Reinjections } from '../context/compaction';
import type { CompactionThresholds } from '../context/context';
import { MAIN_AGENT_ID, type EngineEvent, type EngineEventBody } from '../loop/events';
import type { ExtensionGate } from '../extensions/extensionGate';
import type { GoalSettings } from '../background/goalDriver';
import { openAgentFeatures, type InteractionPort, type AgentFeatures } from './interactions';
import { Agent, type LoopSettings, type ThinkingSettings, type TurnExtension } from '../loop/loop';
import { Session } from '../session/session';
import type { ToolRegistry, ToolSet, ToolSource } from '../loop/toolRegistry';
import { DeferredTools, type DeferralConfig } from '../loop/deferredTools';
import { TOOL_LOADER } from '../../tools/toolSearch';
import type { FileHistoryRecorder } from '../session/fileHistoryRecorder';
import { workspaceOf, type Workspace } from '../policy/workspace';
import { BOUNDARY_SERVICE, type CommandBoundary } from '../../tools/boundary/commandBoundary';
import type { PermissionMode } from '../session/records';

/** What every agent of a runtime shares. */
export interface AgentSetup {
  cwd: string;
  rules: readonly PermissionRule[];
  /** Canonical folders the session works in (workspace.ts), shared by every agent. */
  workspace: Workspace;
  isSensitivePath(path: string): boolean;
  approvalPort?: ApprovalPort;
  interactionPort?: InteractionPort;
  nonInteractive: boolean;
  loop: LoopSettings;
  thinking?: ThinkingSettings;
  retryDelay?: (attempt: number) => number;
  compaction: CompactionThresholds;
  gate: ExtensionGate;
  reinjections: Reinjections;
  tools: ToolRegistry;
  /** `[tools] deferred` / `pinned` (docs/tools.md, "Deferred tools"). */
  deferral?: DeferralConfig;
  /** Services every agent's tools may use (background tasks, image limits…), by ServiceKey name. */
  services: ReadonlyMap<string, unknown>;
  /** Turn extensions every agent runs (given to openRuntime). */
  extensions: readonly TurnExtension[];
  /** The session's file history: every agent's writes are recorded in the main journal (absent: off). */
  fileHistory?: FileHistoryRecorder;
  /** `[goal]` settings for each agent's goal driver. */
  goal?: GoalSettings;
  emit(event: EngineEvent): void;
}

/** One agent with everything built around it. */
export interface AgentParts {
  agent: Agent;
  session: Session;
  compaction: Compactor;
  features: AgentFeatures;
  services: ToolServices;
  /** What its model is offered: core tools, ToolSearch and the deferred tools it loaded (journalled). */
  offered: DeferredTools;
}

/** A model and the (lazily created) client that talks to it. */
export interface ModelBinding {
  model: ResolvedModel;
  getClient(): Promise<ModelClient>;
}

export function bindModel(model: ResolvedModel, client?: ModelClient, options?: ModelClientOptions): ModelBinding {
  let pending: Promise<ModelClient> | undefined = client ? Promise.resolve(client) : undefined;
  return { model, getClient: () => (pending ??= createModelClient(model, options)) };
}

export interface AssembleOptions {
  session: Session;
  binding: ModelBinding;
  tools: ToolSet;
  resumed: boolean;
  planMode?: boolean;
  approvalPort?: ApprovalPort;
  permissions?: ConstructorParameters<typeof Agent>[0]['permissions'];
  loop?: LoopSettings;
  extensions?: readonly TurnExtension[];
  services?: ReadonlyArray<readonly [string, unknown]>;
  ready?: Promise<void>;
}

/** Builds an agent on its journal: compaction, plan mode, todos, questions, goals, services. */
export function assembleAgent(env: AgentSetup, opts: AssembleOptions): AgentParts {
  const { session } = opts;
  const agentId = session.agentId;
  const emit = (event: EngineEventBody) => env.emit({ ...event, agentId } as EngineEvent);
  const features = openAgentFeatures({
    session,
    interactionPort: env.interactionPort,
    nonInteractive: env.nonInteractive,
    emit,
    resumed: opts.resumed,
    planMode: opts.planMode,
    goal: env.goal,
  });
  const registry = new Map<string, unknown>(env.services);
  // What the current model can see follows /model (the agent's model is read at call time).
  registry.set(MODEL_MEDIA_INPUT.name, {
    get image() {
      return agent.model.capabilities.includes('image_in');
    },
    get video() {
      return agent.model.capabilities.includes('video_in');
    },
  });
  for (const [name, service] of features.services) registry.set(name, service);
  for (const [name, service] of opts.services ?? []) registry.set(name, service);
  // Each agent loads deferred tools into its own journal, so a subagent's loads are its own.
  const offered = new DeferredTools(opts.tools, session, env.deferral);
  registry.set(TOOL_LOADER.name, offered.loader());
  const services: ToolServices = {
    scratchDir: session.scratchDir,
    nonInteractive: env.nonInteractive,
    mainAgent: agentId === MAIN_AGENT_ID,
    agentId,
    get<T>(key: ServiceKey<T>): T {
      if (!registry.has(key.name)) throw new Error(`the ${key.name} service is not available in this session`);
      return registry.get(key.name) as T;
    },
    find<T>(key: ServiceKey<T>): T | undefined {
      return registry.get(key.name) as T | undefined;
    },
  };
  const compaction: Compactor = new Compactor({
    session,
    // A getter: the compactor follows the agent's model when /model switches it.
    get model() {
      return agent.model;
    },
    getClient: () => agent.client(),
    frame: () => ({ system: session.state.systemPrompt ?? '', tools: offered.list().map(toolSchemaForModel) }),
    thresholds: env.compaction,
    onEvent: emit,
    isBusy: () => agent.busy,
    maxAttempts: (opts.loop ?? env.loop).maxAttemptsPerStep,
    retryDelay: env.retryDelay,
    reinjections: env.reinjections,
    gate: env.gate,
    agentId,
  });
  const agent: Agent = new Agent({
    agentId,
    session,
    model: opts.binding.model,
    getClient: opts.binding.getClient,
    tools: offered,
    systemPrompt: session.state.systemPrompt!,
    settings: opts.loop ?? env.loop,
    rules: [...env.rules],
    approvalPort: opts.approvalPort,
    permissions: opts.permissions,
    workspace: env.workspace,
    isSensitivePath: env.isSensitivePath,
    services,
    cwd: env.cwd,
    onEvent: env.emit,
    retryDelay: env.retryDelay,
    thinking: env.thinking,
    ready: opts.ready,
    extensions: [
      env.gate,
      ...env.extensions,
      ...(opts.extensions ?? []),
      compaction.extension,
      offered.extension(),
      ...features.extensions,
    ],
    fileHistory: env.fileHistory,
  });
  features.bind(agent);
  return { agent, session, compaction, features, services, offered };
}

/** How to create (or resume) a subagent; see `AgentDirectory.spawn`. */
export interface SubagentOptions {
  /** Reuse an id to resume that subagent from its journal; default a new `a<hex>` id. */
  agentId?: string;
  /** Its kind or profile (`coder`, `explore`…), recorded in its journal. */
  name?: string;
  /** Its system prompt (a resumed subagent keeps the one it was created with). */
  systemPrompt: string;
  /** Which of the runtime's tools it gets (a live subset: later registry changes apply). Default: all. */
  tools?: (tool: Tool, source: ToolSource) => boolean;
  /** Default: the parent's current model. */
  model?: ResolvedModel;
  /** Default: created on first use for `model` (the parent's own client when the model is the same). */
  client?: ModelClient;
  /** Default: the main agent. Mode and "approve for this session" approvals are inherited from it. */
  parent?: Agent;
  /** Default: the runtime's loop settings. */
  loop?: LoopSettings;
  /** Extra turn extensions (budgets, swarm rules…) for this subagent only. */
  extensions?: TurnExtension[];
  /** Extra tool services for this subagent, by ServiceKey; they override the shared ones. */
  services?: Array<readonly [ServiceKey<unknown>, unknown]>;
  /** Default: the runtime's approval port; `null`: no one can be asked (calls that need asking fail). */
  approvalPort?: ApprovalPort | null;
  /**
   * Its own working folder (a Tower worker's git worktree): tools resolve paths and run commands
   * there, and its workspace is that folder and the session's; default the runtime's.
   */
  cwd?: string;
  /** A permission mode pinned for it whatever the parent's (Tower agents run in auto); default: follow the parent. */
  mode?: PermissionMode;
}

/** The agents of one runtime: the main agent and its subagents, by id. */
export class AgentDirectory {
  private readonly byId = new Map<string, AgentParts>();

  constructor(
    private readonly env: AgentSetup,
    readonly main: AgentParts,
  ) {
    this.byId.set(main.agent.id, main);
  }

  get(agentId: string): Agent | undefined {
    return this.byId.get(agentId)?.agent;
  }

  /** Everything assembled around an agent (its journal, compactor, plan mode, todos). */
  parts(agentId: string): AgentParts | undefined {
    return this.byId.get(agentId);
  }

  list(): Agent[] {
    return [...this.byId.values()].map((a) => a.agent);
  }

  /**
   * Creates a subagent, or resumes it when `agentId` names one whose journal exists (its state is
   * rebuilt by replay). Run a prompt to completion with `agent.run(prompt, {signal})`; `agent.cancel()`
   * stops it. Throws when the id is taken by a live agent or cannot name a folder.
   */
  spawn(opts: SubagentOptions): Agent {
    const agentId = opts.agentId ?? `a${randomBytes(5).toString('hex')}`;
    assertAgentId(agentId);
    if (this.byId.has(agentId)) throw new Error(`an agent with id "${agentId}" is already running in this session`);
    const parent = opts.parent ?? this.main.agent;
    const model = opts.model ?? parent.model;
    const { session, resumed } = Session.forAgent(this.main.session, {
      id: agentId,
      parent: parent.id,
      name: opts.name,
      modelAlias: model.alias,
      mode: opts.mode ?? parent.permissionState().mode,
      systemPrompt: opts.systemPrompt,
    });
    const binding =
      opts.client || model !== parent.model
        ? bindModel(model, opts.client)
        : { model, getClient: () => parent.client() };
    const include = opts.tools;
    const tools = include ? this.env.tools.view(include) : this.env.tools;
    const env: AgentSetup = opts.cwd
      ? {
          ...this.env,
          cwd: opts.cwd,
          workspace: workspaceOf({
            cwd: opts.cwd,
            scratchDir: this.main.session.scratchDir,
            guardedWrite: this.env.workspace.guardedWrite,
          }),
          services: servicesFor(this.env.services, opts.cwd),
        }
      : this.env;
    const assembled = assembleAgent(env, {
      session,
      binding,
      tools,
      resumed,
      approvalPort: opts.approvalPort === null ? undefined : (opts.approvalPort ?? this.env.approvalPort),
      // Switches of the parent's mode reach the subagent at once; its approvals add to the parent's.
      permissions: () => {
        const inherited = parent.permissionState();
        return {
          mode: opts.mode ?? inherited.mode,
          sessionApprovals: [...inherited.sessionApprovals, ...session.state.sessionApprovals],
          swarmMode: inherited.swarmMode,
        };
      },
      loop: opts.loop,
      extensions: opts.extensions,
      services: opts.services?.map(([key, value]) => [key.name, value] as const),
    });
    this.byId.set(agentId, assembled);
    return assembled.agent;
  }

  /**
   * Forgets a finished subagent (its journal stays, so it can be resumed later by id). A running one
   * is cancelled first.
   */
  async release(agentId: string): Promise<void> {
    const entry = this.byId.get(agentId);
    if (!entry || entry === this.main) return;
    entry.agent.cancel(true);
    await entry.agent.idle();
    entry.features.close();
    this.byId.delete(agentId);
  }

  /** Session close: stops every subagent, then the main agent's features. */
  async close(): Promise<void> {
    for (const id of [...this.byId.keys()].reverse()) if (id !== this.main.agent.id) await this.release(id);
    this.main.features.close();
  }
}

/** A subagent id names a folder in the session: plain characters only, and never the main agent's. */
export function assertAgentId(agentId: string): void {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(agentId) || agentId === MAIN_AGENT_ID) {
    throw new Error(
      `"${agentId}" cannot name a subagent: use 1-64 letters, digits, "_" or "-" (and not "${MAIN_AGENT_ID}")`,
    );
  }
}

/** The shared services of an agent working in its own folder: the trust boundary is that folder's (a worktree's). */
function servicesFor(shared: ReadonlyMap<string, unknown>, cwd: string): ReadonlyMap<string, unknown> {
  const boundary = shared.get(BOUNDARY_SERVICE.name) as CommandBoundary | undefined;
  if (!boundary) return shared;
  return new Map([...shared, [BOUNDARY_SERVICE.name, boundary.forWorkspace(cwd)]]);
}
