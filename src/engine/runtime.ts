// Puts one working session together: the session (new or resumed), its tools and services, the model
// client (created on first use, so nothing heavy loads before the first request) and the agent.
import { createModelClient } from '../llm/createModelClient';
import type { ModelClient, ResolvedModel } from '../llm/types';
import { builtinTools } from '../tools/registry';
import { toolSchemaForModel, type ServiceKey, type Tool, type ToolServices } from '../tools/defineTool';
import { resolveBashTaskTimeoutS, TASK_SERVICE, type TaskSettings } from '../tools/task/taskService';
import { BackgroundTasks } from './backgroundTasks';
import { Compactor, Reinjections } from './compaction';
import { ExtensionGate, type GateHandler } from './extensionGate';
import { BUILTIN_SOURCE, ToolRegistry } from './toolRegistry';
import { DEFAULT_COMPACTION_TRIGGER_RATIO, type CompactionThresholds } from './context';
import { TaskNotifications } from './taskNotifications';
import { makeToolFilter, type ToolSwitch } from './toolFilter';
import { DEFAULT_WEB_SETTINGS, WEB_SERVICE, type WebSettings } from '../tools/web';
import { IMAGE_LIMITS, isSensitivePath, MODEL_MEDIA_INPUT, type ImageLimits } from '../tools/file';
import type { ApprovalPort, PermissionRule } from './approvals';
import type { EngineEvent } from './events';
import { openSessionFeatures, type InteractionPort } from './interactions';
import type { GoalController } from './goals';
import type { GoalSettings } from './goalDriver';
import type { PlanMode } from './planMode';
import type { TodoStore } from './todos';
import { Agent, type LoopSettings, type ThinkingSettings, type TurnExtension } from './loop';
import type { PermissionMode } from './records';
import { Session } from './session';
import type { SessionLocation } from '../store/sessionStore';
import { buildSystemPrompt } from './systemPrompt';

export interface RuntimeOptions {
  home: string;
  cwd: string;
  model: ResolvedModel;
  /** Mode for a new session; for a resumed one only when `modeOverride` is set. */
  mode: PermissionMode;
  modeOverride?: boolean;
  resume?: SessionLocation;
  loop: LoopSettings;
  rules: PermissionRule[];
  nonInteractive: boolean;
  approvalPort?: ApprovalPort;
  /** Plan reviews and AskUserQuestion; absent (print mode) = no one can answer. */
  interactionPort?: InteractionPort;
  /** Start in plan mode (--plan, default_plan_mode for new sessions). */
  planMode?: boolean;
  additionalDirs?: string[];
  productName?: string;
  onEvent(event: EngineEvent): void;
  /** `[thinking]` enabled / effort. */
  thinking?: ThinkingSettings;
  /** The `[tools]` switch: which tools are offered (and so may run) at all. */
  toolSwitch?: ToolSwitch;
  /** `[web]` policy and the search backend (FetchURL, WebSearch, Brave tools). */
  web?: WebSettings;
  /** `[image]` limits for ReadMediaFile. */
  image?: ImageLimits;
  background: Omit<TaskSettings, 'bashTaskTimeoutS'> & { bashTaskTimeoutS?: number };
  /** 'agent': task completions start turns by themselves (UI); 'collect': the front end decides (print). */
  notificationDelivery: 'agent' | 'collect';
  /** Tests inject a client or a tool list (the built-in source; default: every built-in tool). */
  client?: ModelClient;
  tools?: Tool[];
  /** Hooks and extensions registered before the session starts (they see SessionStart). */
  gateHandlers?: GateHandler[];
  retryDelay?: (attempt: number) => number;
  extensions?: TurnExtension[];
  /** `[goal]`: when a goal without progress pauses. */
  goal?: GoalSettings;
  /** When auto-compaction starts (loop_control); the trigger ratio defaults to 0.85. */
  compaction?: Partial<CompactionThresholds>;
}

export interface Runtime {
  session: Session;
  agent: Agent;
  /** The runtime's tools: built-in, plugin and MCP sources; changes reach the model at its next step. */
  tools: ToolRegistry;
  /** Hooks and extensions around prompts, tool calls, turn ends, compaction, session start and end. */
  gate: ExtensionGate;
  /** What survives a compaction verbatim; extensions add their own state here. */
  reinjections: Reinjections;
  warnings: string[];
  services: ToolServices;
  tasks: BackgroundTasks;
  notifications: TaskNotifications;
  /** Manual `/compact [instruction]` (`compaction.compact`); also compacts automatically. */
  compaction: Compactor;
  /** Plan mode: `setPlanMode(on)` / `togglePlanMode()` (/plan, Shift-Tab), `clearPlan()`. */
  plan: PlanMode;
  /** The `/goal` API: `run(parseGoalCommand(text))`, or status/pause/resume/cancel/replace/next/upcoming. */
  goals: GoalController;
  todos: TodoStore;
  /** Session close: stops background tasks (unless keep_alive_on_exit) and saves the summary. */
  close(opts?: { force?: boolean }): Promise<void>;
}

export function openRuntime(opts: RuntimeOptions): Runtime {
  const warnings: string[] = [];
  // Extensions watch every event; the front end renders it.
  const gate = new ExtensionGate((text) => emit({ type: 'notice', level: 'warning', text }));
  const emit = (event: EngineEvent): void => {
    gate.observe(event);
    opts.onEvent(event);
  };
  for (const handler of opts.gateHandlers ?? []) gate.register(handler);
  let session: Session;
  if (opts.resume) {
    session = Session.open(opts.resume);
    warnings.push(...session.warnings);
    if (opts.modeOverride && session.state.mode !== opts.mode) session.commit({ type: 'mode', mode: opts.mode });
  } else {
    session = Session.create({ home: opts.home, workDir: opts.cwd, modelAlias: opts.model.alias, mode: opts.mode });
  }
  // A resumed session keeps the prompt it was created with, so its behaviour does not drift.
  if (session.state.systemPrompt === undefined) {
    const prompt = buildSystemPrompt({ home: opts.home, cwd: opts.cwd, productName: opts.productName, additionalDirs: opts.additionalDirs });
    warnings.push(...prompt.warnings);
    session.commit({ type: 'system_prompt', text: prompt.text });
  }

  const notifications = new TaskNotifications(opts.notificationDelivery);
  const tasks = new BackgroundTasks({
    sessionDir: session.dir,
    settings: { ...opts.background, bashTaskTimeoutS: resolveBashTaskTimeoutS(opts.background.bashTaskTimeoutS, opts.nonInteractive) },
    onTaskFinished: notifications.onTaskFinished,
  });
  const registry = new Map<string, unknown>([
    [TASK_SERVICE.name, tasks],
    [MODEL_MEDIA_INPUT.name, { image: opts.model.capabilities.includes('image_in'), video: opts.model.capabilities.includes('video_in') }],
  ]);
  if (opts.image) registry.set(IMAGE_LIMITS.name, opts.image);
  const web = opts.web ?? DEFAULT_WEB_SETTINGS;
  registry.set(WEB_SERVICE.name, web);
  const features = openSessionFeatures({ session, interactionPort: opts.interactionPort, nonInteractive: opts.nonInteractive, emit, resumed: !!opts.resume, planMode: opts.planMode, goal: opts.goal });
  for (const [name, service] of features.services) registry.set(name, service);
  const services: ToolServices = {
    sessionDir: session.dir,
    nonInteractive: opts.nonInteractive,
    get<T>(key: ServiceKey<T>): T {
      if (!registry.has(key.name)) throw new Error(`the ${key.name} service is not available in this session`);
      return registry.get(key.name) as T;
    },
  };
  const builtins = opts.tools ?? builtinTools({ web });
  const toolFilter = makeToolFilter(opts.toolSwitch ?? { enabled: [], disabled: [] }, builtins.map((t) => t.name));
  warnings.push(...toolFilter.warnings);
  const tools = new ToolRegistry({ filter: toolFilter, availability: { capabilities: opts.model.capabilities, nonInteractive: opts.nonInteractive } });
  warnings.push(...tools.setSource(BUILTIN_SOURCE, builtins));
  const reinjections = new Reinjections();

  let client: Promise<ModelClient> | undefined = opts.client ? Promise.resolve(opts.client) : undefined;
  const getClient = () => (client ??= createModelClient(opts.model));
  const compaction: Compactor = new Compactor({
    session,
    model: opts.model,
    getClient,
    frame: () => ({ system: session.state.systemPrompt ?? '', tools: tools.list().map(toolSchemaForModel) }),
    thresholds: { triggerRatio: opts.compaction?.triggerRatio ?? DEFAULT_COMPACTION_TRIGGER_RATIO, reservedContextSize: opts.compaction?.reservedContextSize },
    onEvent: emit,
    isBusy: () => agent.busy,
    maxAttempts: opts.loop.maxAttemptsPerStep,
    retryDelay: opts.retryDelay,
    reinjections,
    gate,
  });
  const started = gate.sessionStart({ source: opts.resume ? 'resume' : 'startup', model: opts.model.alias }, { sessionId: session.id, agentId: 'main', cwd: opts.cwd, signal: new AbortController().signal });
  const agent = new Agent({
    session,
    model: opts.model,
    getClient,
    tools,
    systemPrompt: session.state.systemPrompt!,
    settings: opts.loop,
    rules: opts.rules,
    approvalPort: opts.approvalPort,
    isSensitivePath,
    services,
    cwd: opts.cwd,
    onEvent: emit,
    retryDelay: opts.retryDelay,
    thinking: opts.thinking,
    gate,
    ready: started,
    extensions: [...(opts.extensions ?? []), compaction.extension, ...features.extensions],
  });
  notifications.bind(tasks, agent);
  features.bind(agent);
  if (opts.resume) tasks.restore();
  return {
    session,
    agent,
    tools,
    gate,
    reinjections,
    warnings,
    services,
    tasks,
    notifications,
    compaction,
    plan: features.plan,
    goals: features.goals,
    todos: features.todos,
    async close(closeOpts = {}) {
      await gate.sessionEnd({ reason: 'exit' }, { sessionId: session.id, agentId: 'main', cwd: opts.cwd, signal: new AbortController().signal });
      features.close();
      await tasks.close(closeOpts);
      session.saveSummary();
    },
  };
}
