// The UI's hold on the engine: opens the runtime when the first message is sent (a new session is
// created only then), resumes, starts a new session, switches models. Mode changes made before the
// session exists are applied when it is created.
import type { ApprovalPort } from '../engine/approvals';
import type { EngineEvent } from '../engine/events';
import type { PermissionMode } from '../engine/records';
import { openRuntime, type Runtime, type RuntimeOptions } from '../engine/runtime';
import type { ResolvedModel } from '../llm/types';
import type { JarvisConfig } from '../store/config';
import { resolveModel } from '../store/modelResolution';
import type { SessionLocation } from '../store/sessionStore';

export type BaseRuntimeOptions = Omit<RuntimeOptions, 'onEvent' | 'notificationDelivery' | 'approvalPort'>;

export interface SessionControllerDeps {
  base: BaseRuntimeOptions;
  config: JarvisConfig;
  configPath: string;
  env: NodeJS.ProcessEnv;
  approvalPort: ApprovalPort;
  onEvent(event: EngineEvent): void;
}

export class SessionController {
  runtime: Runtime | undefined;
  model: ResolvedModel;
  private pendingMode: PermissionMode;
  private modeExplicit: boolean;

  constructor(private readonly deps: SessionControllerDeps) {
    this.model = deps.base.model;
    this.pendingMode = deps.base.mode;
    this.modeExplicit = !!deps.base.modeOverride;
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
    return Object.keys(this.deps.config.models ?? {});
  }

  private open(resume?: SessionLocation): Runtime {
    this.runtime = openRuntime({
      ...this.deps.base,
      model: this.model,
      mode: this.pendingMode,
      modeOverride: resume ? this.modeExplicit : true,
      resume,
      nonInteractive: false,
      notificationDelivery: 'agent',
      approvalPort: this.deps.approvalPort,
      onEvent: this.deps.onEvent,
    });
    this.modeExplicit = false;
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
    this.runtime = undefined;
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
    return this.open(location);
  }

  /** Resolves `alias` and reopens the current session (if any) with that model. Throws with a user-facing message. */
  async switchModel(alias: string): Promise<void> {
    const model = resolveModel({ config: this.deps.config, env: this.deps.env, cliModel: alias, configPath: this.deps.configPath });
    this.model = model as ResolvedModel;
    const current = this.runtime?.session.location;
    if (!current) return;
    await this.close();
    const rt = this.open(current);
    rt.session.commit({ type: 'model', modelAlias: model.alias });
  }
}
