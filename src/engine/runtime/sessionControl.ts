// Session control shared by every front end (the terminal UI, print mode, ACP): opens the runtime when
// the first message is sent (a new session is created only then), resumes, starts a new session,
// forks, switches models. Mode changes made before the session exists are applied when it is created,
// and so is plan mode (/plan, Shift-Tab, --plan). Switching the model never closes the runtime: the
// live agent gets the new client, so background tasks and subagents keep running.
import type { ApprovalPort } from '../policy/approvals';
import { contextTokens, contextWindow, type RequestFrame } from '../context/context';
import type { EngineEvent } from '../loop/events';
import { forkSession, type ForkResult } from '../session/fork';
import type { InteractionPort } from '../delegation/interactions';
import type { PermissionMode } from '../session/records';
import { openRuntime, type Runtime, type RuntimeOptions } from './runtime';
import type { ResolvedModel } from '../../llm/types';
import type { JarvisConfig } from '../../store/config';
import { listModelChoices, type ModelChoice } from '../../store/modelChoices';
import { resolveModel } from '../../store/modelResolution';
import type { SessionLocation } from '../../store/sessionStore';
import type { TokenCountingStrategy } from '../../store/settings';
import { toolSchemaForModel } from '../../tools/defineTool';

export type BaseRuntimeOptions = Omit<
  RuntimeOptions,
  'onEvent' | 'notificationDelivery' | 'approvalPort' | 'interactionPort' | 'nonInteractive'
>;

export interface SessionControlDeps {
  base: BaseRuntimeOptions;
  /** Where `/model <alias>` looks aliases up; absent where the model cannot be switched. */
  models?: { config: JarvisConfig; configPath: string; env: NodeJS.ProcessEnv };
  /** No human answers (print mode): questions and approvals report that no one can answer. */
  nonInteractive: boolean;
  /** 'agent': task completions start turns by themselves (UI, ACP); 'collect': the front end decides (print). */
  notificationDelivery: 'agent' | 'collect';
  approvalPort?: ApprovalPort;
  interactionPort?: InteractionPort;
  onEvent(event: EngineEvent): void;
}

/** A refusal a front end shows as it is (e.g. switching the model during a turn). */
export class SessionControlError extends Error {}

export class SessionControl {
  runtime: Runtime | undefined;
  model: ResolvedModel;
  private pendingMode: PermissionMode;
  private modeExplicit: boolean;
  /** Plan mode to apply when the runtime opens (--plan, or /plan before the first message). */
  private pendingPlan: boolean;
  private swarm = false;
  /** The request frame (system prompt + tool schemas) of the current runtime, built once. */
  private frameCache: { runtime: Runtime; tools: readonly unknown[]; frame: RequestFrame } | undefined;

  constructor(private readonly deps: SessionControlDeps) {
    this.model = deps.base.model;
    this.pendingMode = deps.base.mode;
    this.modeExplicit = !!deps.base.modeOverride;
    this.pendingPlan = !!deps.base.planMode;
  }

  /** Swarm mode (`/swarm`): kept by the front end across /new and /sessions; applied to each runtime it opens. */
  get swarmMode(): boolean {
    return this.swarm;
  }

  set swarmMode(on: boolean) {
    this.swarm = on;
    if (this.runtime) this.runtime.swarmMode = on;
  }

  get planMode(): boolean {
    return this.runtime ? this.runtime.plan.active : this.pendingPlan;
  }

  set planMode(on: boolean) {
    if (this.runtime) this.runtime.plan.setPlanMode(on);
    else this.pendingPlan = on;
  }

  /** What the next request carries: the system prompt and the tool schemas. */
  frame(): RequestFrame | undefined {
    const rt = this.runtime;
    if (!rt) return undefined;
    // The offered list stays the same array until the tools or the loaded set change: the cache key.
    const tools = rt.offered.list();
    if (this.frameCache?.runtime !== rt || this.frameCache.tools !== tools) {
      this.frameCache = {
        runtime: rt,
        tools,
        frame: { system: rt.session.state.systemPrompt ?? '', tools: tools.map(toolSchemaForModel) },
      };
    }
    return this.frameCache.frame;
  }

  /** The context size of the next request (docs/configuration.md token counting), 0 before the session exists. */
  contextTokens(strategy?: TokenCountingStrategy): number {
    const frame = this.frame();
    return frame && this.runtime ? contextTokens(this.runtime.session.state, frame, strategy) : 0;
  }

  get contextWindow(): number {
    return contextWindow(this.model);
  }

  get mode(): PermissionMode {
    return this.runtime ? this.runtime.session.state.mode : this.pendingMode;
  }

  set mode(mode: PermissionMode) {
    if (this.runtime) {
      if (this.runtime.session.state.mode !== mode) this.runtime.session.commit({ type: 'mode', mode });
    } else {
      this.pendingMode = mode;
      this.modeExplicit = true;
    }
  }

  get modelAliases(): string[] {
    return Object.keys(this.deps.models?.config.models ?? {});
  }

  /** The models the session can switch to, the current one marked (a web client's list, docs/server.md). */
  modelChoices(): ModelChoice[] {
    return listModelChoices(this.deps.models, this.model);
  }

  private open(resume?: SessionLocation): Runtime {
    this.runtime = openRuntime({
      ...this.deps.base,
      model: this.model,
      mode: this.pendingMode,
      modeOverride: resume ? this.modeExplicit : true,
      resume,
      nonInteractive: this.deps.nonInteractive,
      planMode: this.pendingPlan,
      swarmMode: this.swarm,
      notificationDelivery: this.deps.notificationDelivery,
      approvalPort: this.deps.approvalPort,
      interactionPort: this.deps.interactionPort,
      onEvent: this.deps.onEvent,
    });
    this.modeExplicit = false;
    this.pendingPlan = false;
    return this.runtime;
  }

  /** The runtime, created on first use (the first message of a new session). */
  ensure(): Runtime {
    return this.runtime ?? this.open(this.deps.base.resume);
  }

  /** Opens the session given with --continue / --session, if any. */
  openInitial(): Runtime | undefined {
    return this.deps.base.resume ? this.open(this.deps.base.resume) : undefined;
  }

  async close(force = false): Promise<void> {
    const rt = this.runtime;
    if (!rt) return;
    this.pendingMode = rt.session.state.mode;
    // A new session continues in plan mode when this one was in it (a resume sets its own state).
    this.pendingPlan = rt.plan.active;
    this.runtime = undefined;
    this.frameCache = undefined;
    rt.agent.cancel(true);
    await rt.agent.idle();
    await rt.close({ force });
  }

  async newSession(): Promise<void> {
    await this.close();
    this.deps.base.resume = undefined;
  }

  async resume(location: SessionLocation): Promise<Runtime> {
    await this.close();
    this.modeExplicit = false;
    this.pendingPlan = false;
    return this.open(location);
  }

  /**
   * `/reload`: the options of later runtimes (config.toml, plugins, skills, agents, hooks and MCP read
   * again). The caller closes the runtime first and resumes its session afterwards. A model chosen with
   * /model stays when the new configuration still defines its alias; otherwise the configured one applies.
   */
  reconfigure(base: BaseRuntimeOptions, models?: SessionControlDeps['models']): void {
    if (this.runtime) throw new SessionControlError('Close the session before reloading its configuration.');
    const alias = this.model.alias;
    this.deps.base = base;
    this.deps.models = models;
    this.model = base.model;
    if (models && alias && alias !== base.model.alias && models.config.models[alias]) {
      try {
        this.model = resolveModel({
          config: models.config,
          env: models.env,
          cliModel: alias,
          configPath: models.configPath,
        }) as ResolvedModel;
      } catch {
        // the alias no longer resolves (e.g. its provider was removed): the configured model applies
      }
    }
  }

  /** Copies the current session to a new one (the caller stays in this one). Throws ForkError. */
  fork(): ForkResult {
    const rt = this.runtime;
    if (!rt) throw new SessionControlError('Nothing to fork yet: the session starts with the first message.');
    return forkSession(rt, { home: this.deps.base.home });
  }

  /**
   * Resolves `alias` and makes it the model of the current session from its next request on (journalled),
   * or of the session still to be created. Refused while a turn runs; never closes the runtime, so
   * background tasks and subagents keep running. Throws with a user-facing message.
   */
  switchModel(alias: string): void {
    const models = this.deps.models;
    if (!models) throw new SessionControlError('This front end cannot switch models.');
    if (this.runtime?.agent.busy)
      throw new SessionControlError(
        'Cannot switch the model while a turn is running: wait for it to end, or press Esc to stop it first.',
      );
    const model = resolveModel({
      config: models.config,
      env: models.env,
      cliModel: alias,
      configPath: models.configPath,
    }) as ResolvedModel;
    this.runtime?.setModel(model);
    this.model = model;
  }
}
