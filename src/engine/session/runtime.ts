// Puts one working session together: the session (new or resumed), its tool registry and shared
// services, the extension gate, the main agent (docs/extensions.md) and the directory of subagents,
// and the list of what to close when the session ends. The model client is created on first use, so
// nothing heavy loads before the first request.
import { join } from 'node:path';
import type { ModelClient, ResolvedModel } from '../../llm/types';
import { builtinTools } from '../../tools/registry';
import type { ServiceKey, Tool, ToolServices } from '../../tools/defineTool';
import { resolveBashTaskTimeoutS, TASK_SERVICE, type TaskSettings } from '../../tools/task/taskService';
import { IMAGE_LIMITS, isSensitivePath, type ImageLimits } from '../../tools/file';
import { DEFAULT_WEB_SETTINGS, WEB_SERVICE, type WebSettings } from '../../tools/web';
import { browserPageTools, browserProfileTools, browserRuntime, Checklist, CHECKLIST_SERVICE, DEFAULT_BROWSER_SUBAGENT_TIMEOUT_MS, modelSummarizer, SUMMARY_SERVICE, type BrowserProfileChoice, type BrowserRuntimeOptions } from '../../tools/browser';
import { BROWSER_PROFILE, browserAgentCatalog } from '../../ext/agents/browserAgents';
import type { SessionLocation } from '../../store/sessionStore';
import { MemoryStore } from '../../store/memoryStore';
import { isWorkspaceTrusted } from '../../store/trust';
import { MEMORY_SERVICE } from '../../tools/memory';
import { Agents, assembleAgent, bindModel, type AgentEnvironment } from '../delegation/agents';
import type { ApprovalPort, PermissionRule } from '../policy/approvals';
import { BackgroundTasks } from '../background/backgroundTasks';
import { CronScheduler, type CronClock } from '../background/cronScheduler';
import { CRON_SERVICE, cronDisabled } from '../../tools/cron';
import { WORKFLOW_LIMITS, WORKFLOW_SETTINGS, type WorkflowLimits } from '../../tools/workflow';
import { Reinjections, type Compactor } from '../context/compaction';
import type { HookSpec } from '../../ext/hooks/hookRunner';
import type { McpManager } from '../../ext/mcp/mcpManager';
import { MemoryExtractor } from '../context/memoryExtraction';
import { DEFAULT_MEMORY_SETTINGS, memoryRecallHandler, type MemorySettings } from '../context/memoryRecall';
import { attachRuntimeExtensions } from '../extensions/runtimeExtensions';
import { DEFAULT_COMPACTION_TRIGGER_RATIO, type CompactionThresholds } from '../context/context';
import { Disposables } from './disposables';
import { DEFAULT_REWIND_MAX_FILE_BYTES, FileHistoryRecorder, type FileHistorySettings } from './fileHistoryRecorder';
import { MAIN_AGENT_ID, type EngineEvent } from '../loop/events';
import { ExtensionGate, type GateHandler } from '../extensions/extensionGate';
import type { GoalController } from '../background/goals';
import type { GoalSettings } from '../background/goalDriver';
import type { InteractionPort } from './interactions';
import type { Agent, LoopSettings, ThinkingSettings, TurnExtension } from '../loop/loop';
import type { PlanMode } from '../policy/planMode';
import type { PermissionMode } from './records';
import { Session } from './session';
import { acquireSessionLock, type SessionLock } from '../../store/sessionLock';
import { promptFor, recordMainAgent, recordedToolFilter, SKILL_TOOL } from '../delegation/agentProfiles';
import { Delegation, swarmAloneRule, type DelegationDeps, type DelegationSettings } from '../delegation/subagents';
import { builtinAgentCatalog, type AgentCatalog } from '../../ext/agents/agentCatalog';
import { BUILTIN_AGENTS, DELEGATION_TOOLS, MAIN_AGENT } from '../../ext/agents/builtinAgents';
import { DELEGATION_SERVICE, makeAgentSwarmTool, makeAgentTool, type ModelOffer } from '../../tools/agent';
import type { SubagentModelPool } from '../../store/subagentModelPool';
import { sessionStartSkills, SkillInvoker } from '../delegation/skills';
import type { SkillCatalog } from '../../ext/skills/skillCatalog';
import type { SessionPlugins } from '../../ext/plugins/contributions';
import type { AgentProfile } from '../../ext/agents/agentFile';
import { SKILL_SERVICE } from '../../tools/skill/skillService';
import { TaskNotifications } from '../background/taskNotifications';
import type { TodoStore } from '../background/todos';
import { makeToolFilter, type ToolSwitch } from '../loop/toolFilter';
import { BUILTIN_SOURCE, ToolRegistry } from '../loop/toolRegistry';
import { deferralWarnings, type DeferralConfig, type DeferredTools } from '../loop/deferredTools';
import { workspaceOf, type Workspace } from '../policy/workspace';
import { TOWER_SERVICE, towerEnabled, towerTools } from '../../tools/tower';
import { TowerRuntime, towerGuardedWrite } from '../tower/towerRuntime';

export interface RuntimeOptions {
  /** Tower mode's tools (docs/tower.md); default: the experimental flag in the environment. */
  tower?: boolean;
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
  /** Start in swarm mode (`/swarm on` before the first message). */
  swarmMode?: boolean;
  /** --add-dir folders: part of the workspace (docs/approvals.md) and named in the system prompt. */
  additionalDirs?: string[];
  productName?: string;
  onEvent(event: EngineEvent): void;
  /** `[thinking]` enabled / effort. */
  thinking?: ThinkingSettings;
  /** The `[tools]` switch: which tools are offered (and so may run) at all. */
  toolSwitch?: ToolSwitch;
  /** `[image]` limits for ReadMediaFile. */
  image?: ImageLimits;
  background: Omit<TaskSettings, 'bashTaskTimeoutS'> & { bashTaskTimeoutS?: number };
  /** 'agent': task completions start turns by themselves (UI); 'collect': the front end decides (print). */
  notificationDelivery: 'agent' | 'collect';
  /** `[tools] deferred` / `pinned`: overrides of which tools are deferred (docs/tools.md). */
  deferral?: DeferralConfig;
  /** `[web]` policy and the search backend (FetchURL, WebSearch, Brave tools). */
  web?: WebSettings;
  /**
   * The browser settings and what this launch asks for: the browser profile (`--agent browser`) or its
   * page tools (`--browser`). A resumed session keeps the choice its journal records (docs/browser.md).
   */
  browser?: BrowserRuntimeOptions;
  /** Tests inject a client or a tool list (the built-in source; default: every built-in tool). */
  client?: ModelClient;
  tools?: Tool[];
  /** Hooks and extensions registered before the session starts (they see SessionStart). */
  gateHandlers?: GateHandler[];
  /** `[[hooks]]` of config.toml (docs/hooks.md). */
  hooks?: HookSpec[];
  /** The front end's MCP servers, shared by the sessions it opens; their tools join this registry. */
  mcp?: McpManager;
  retryDelay?: (attempt: number) => number;
  extensions?: TurnExtension[];
  /** Services the front end lends the session's tools (ACP: the editor's files), by ServiceKey name. */
  services?: Array<[string, unknown]>;
  /** `[goal]`: when a goal without progress pauses. */
  goal?: GoalSettings;
  /** When auto-compaction starts (loop_control); the trigger ratio defaults to 0.85. */
  compaction?: Partial<CompactionThresholds>;
  /** Scheduled tasks: off with JARVIS_DISABLE_CRON=1 (the default reads the environment); tests inject a clock. */
  cron?: { disabled?: boolean; clock?: CronClock };
  /** Workflow run limits (docs/workflows.md); tests lower them. */
  workflowLimits?: WorkflowLimits;
  /** The skills of this launch (`/skill:`, the Skill tool, `${skills}`). */
  skills?: SkillCatalog;
  /** The agent a new session is created with (`--agent`, `--agent-file`); the built-in main agent otherwise. */
  agentProfile?: AgentProfile;
  /** Every agent of this launch (delegation targets); default: the built-in agents only. */
  agents?: AgentCatalog;
  /** Subagent and swarm timeouts and the swarm cap; default: no timeouts, no cap. */
  delegation?: DelegationSettings;
  /** The experimental subagent model pool (`[secondary_model]`, SPEC §3.5); absent: subagents use their caller's model. */
  subagentModels?: SubagentModelPool;
  /** `[rewind]`: copies of files before the agent changes them; false = none (default: on, 10 MiB cap). */
  fileHistory?: FileHistorySettings | false;
  /** `[memory]` recall bounds and extraction (docs/memory.md); defaults when absent. */
  memory?: MemorySettings;
  /** Enabled plugins' commands, `${plugin_sections}` and session-start skills (docs/plugins.md). */
  plugins?: SessionPlugins;
}

export interface Runtime {
  /** Tower mode, when its experimental flag is on (docs/tower.md). */
  tower?: TowerRuntime;
  session: Session;
  /** The main agent (the one front ends talk to). */
  agent: Agent;
  /** The main agent and its subagents: `agents.spawn({...})` creates one (src/engine/agents.ts). */
  agents: Agents;
  /** The runtime's tools: built-in, plugin and MCP sources; changes reach the model at its next step. */
  tools: ToolRegistry;
  /** What the main agent's model is offered of `tools`: the core, ToolSearch and the deferred tools it loaded. */
  offered: DeferredTools;
  /** Hooks and extensions around prompts, tool calls, turn ends, compaction, session start and end. */
  gate: ExtensionGate;
  /** What survives a compaction verbatim; extensions add their own state here. */
  reinjections: Reinjections;
  /** What `close` closes, newest first (MCP clients, a browser, background tasks). */
  disposables: Disposables;
  warnings: string[];
  services: ToolServices;
  tasks: BackgroundTasks;
  notifications: TaskNotifications;
  /** Scheduled tasks (CronCreate…): fires are queued on the main agent as their own turns. */
  cron: CronScheduler;
  /** Manual `/compact [instruction]` (`compaction.compact`); also compacts automatically. */
  compaction: Compactor;
  /** Plan mode: `setPlanMode(on)` / `togglePlanMode()` (/plan, Shift-Tab), `clearPlan()`. */
  plan: PlanMode;
  /** The `/goal` API: `run(parseGoalCommand(text))`, or status/pause/resume/cancel/replace/next/upcoming. */
  goals: GoalController;
  todos: TodoStore;
  skills: SkillCatalog | undefined;
  /** Copies of files before the agent changes them, for rewind (rewind.ts); undefined when `[rewind] snapshots = false`. */
  fileHistory: FileHistoryRecorder | undefined;
  /** Swarm mode (`/swarm`, SPEC §6.7): AgentSwarm calls of every agent are approved without asking; not journalled. */
  swarmMode: boolean;
  /** The folders the file tools work in without asking (workspace.ts); `@path` attachments are judged by it too. */
  workspace: Workspace;
  /**
   * `/model`: the main agent talks to `model` from its next request on; journalled. Nothing is closed,
   * so background tasks and subagents keep running. Throws while a turn runs.
   */
  setModel(model: ResolvedModel, client?: ModelClient): void;
  /**
   * Session close (once; later calls wait for the first): session-end handlers, subagents stopped,
   * then every disposable newest first (background tasks stop unless keep_alive_on_exit), summary saved.
   */
  close(opts?: { force?: boolean }): Promise<void>;
}

/**
 * The browser tools of this session: a new session takes what the launch asks for; a resumed one keeps
 * what its journal records, and may gain the page tools (`--browser`), never switch its agent. A change
 * is journalled, so the next resume restores it.
 */
function chooseBrowserProfile(session: Session, opts: RuntimeOptions, warnings: string[]): BrowserProfileChoice | undefined {
  const recorded = session.state.browser;
  const asked = opts.browser?.profile;
  let choice = opts.resume ? recorded : asked;
  if (opts.resume && asked === 'page-tools' && !recorded) choice = 'page-tools';
  if (opts.resume && asked === 'agent' && recorded !== 'agent') {
    warnings.push(`--agent browser applies to new sessions; this resumed session keeps its agent (${session.state.agentName ?? MAIN_AGENT}). Start a new session for the browser agent.`);
  }
  if (choice && !opts.browser) {
    warnings.push('this session was created with the browser tools, but no browser settings were given; it continues without them.');
    return undefined;
  }
  if (choice && choice !== recorded) session.commit({ type: 'browser', profile: choice });
  return choice;
}

export function openRuntime(opts: RuntimeOptions): Runtime {
  const warnings: string[] = [];
  // Extensions watch every event; the front end renders it.
  const gate = new ExtensionGate((text) => emit({ type: 'notice', level: 'warning', text, agentId: MAIN_AGENT_ID }));
  const emit = (event: EngineEvent): void => {
    gate.observe(event);
    opts.onEvent(event);
  };
  for (const handler of opts.gateHandlers ?? []) gate.register(handler);
  if (opts.plugins?.sessionStartSkills.length) gate.register(sessionStartSkills(opts.plugins.sessionStartSkills));
  let session: Session;
  // One writer per session: the lock comes before the replay, whose crash repair already writes.
  let lock: SessionLock;
  if (opts.resume) {
    lock = acquireSessionLock(opts.resume.sessionDir);
    session = Session.open(opts.resume);
    warnings.push(...session.warnings);
    if (opts.modeOverride && session.state.mode !== opts.mode) session.commit({ type: 'mode', mode: opts.mode });
  } else {
    session = Session.create({ home: opts.home, workDir: opts.cwd, modelAlias: opts.model.alias, mode: opts.mode });
    lock = acquireSessionLock(session.dir);
  }

  const disposables = new Disposables();
  const notifications = new TaskNotifications(opts.notificationDelivery);
  const tasks = new BackgroundTasks({
    sessionDir: session.dir,
    settings: { ...opts.background, bashTaskTimeoutS: resolveBashTaskTimeoutS(opts.background.bashTaskTimeoutS, opts.nonInteractive) },
    onTaskFinished: notifications.onTaskFinished,
    onTaskChange: (change, t) => emit({ type: 'task_change', change, task: { id: t.id, kind: t.kind, description: t.description, status: t.status, statusMessage: t.statusMessage }, agentId: MAIN_AGENT_ID }),
  });
  disposables.add({ name: 'background tasks', dispose: ({ force }) => tasks.close({ force }) });
  const shared = new Map<string, unknown>([[TASK_SERVICE.name, tasks]]);
  // Trust is read at each use: trusting the folder mid-session makes its project memory appear.
  const memory = new MemoryStore({ home: opts.home, cwd: opts.cwd, trusted: () => isWorkspaceTrusted(opts.home, opts.cwd) });
  shared.set(MEMORY_SERVICE.name, memory);
  const memorySettings = opts.memory ?? DEFAULT_MEMORY_SETTINGS;
  gate.register(memoryRecallHandler(memory, memorySettings));
  const extractor = new MemoryExtractor({ store: memory, settings: memorySettings, emit });
  if (opts.image) shared.set(IMAGE_LIMITS.name, opts.image);
  for (const [name, service] of opts.services ?? []) shared.set(name, service);
  const web = opts.web ?? DEFAULT_WEB_SETTINGS;
  shared.set(WEB_SERVICE.name, web);
  // The browser itself starts on the first browser tool call; it is closed with the session.
  const browserChoice = chooseBrowserProfile(session, opts, warnings);
  const browser = browserChoice && opts.browser ? browserRuntime({ ...opts.browser, profile: browserChoice }, web, process.env) : undefined;
  if (browser) {
    for (const [name, service] of browser.services) shared.set(name, service);
    disposables.add({ name: 'browser', dispose: () => browser.session.close() });
    const summaryModel = opts.browser?.summaryModel;
    const summaryBinding = summaryModel && bindModel(summaryModel);
    // `prompt` summaries: [browser] summary_model, else the main agent's model as it is at the call.
    shared.set(SUMMARY_SERVICE.name, modelSummarizer(() => (summaryBinding ? { model: summaryBinding.model, client: summaryBinding.getClient } : { model: agent.model, client: () => agent.client() })));
  }

  const cronOff = opts.cron?.disabled ?? cronDisabled(process.env);
  // Fires go to the main agent, assembled further down; nothing fires before cron.start() below.
  const cron = new CronScheduler({
    dir: join(session.dir, 'cron'),
    clock: opts.cron?.clock,
    enabled: !cronOff,
    fire: ({ text }) => agent.submit({ kind: 'cron', text }),
    warn: (text) => emit({ type: 'notice', level: 'warning', text, agentId: MAIN_AGENT_ID }),
  });
  shared.set(CRON_SERVICE.name, cron);
  shared.set(WORKFLOW_SETTINGS.name, { home: opts.home, limits: opts.workflowLimits ?? WORKFLOW_LIMITS });
  disposables.add({ name: 'scheduled tasks', dispose: () => cron.close() });

  const towerOn = opts.tower ?? towerEnabled(process.env);
  // The Skill tool is offered only when the model has a skill it may load.
  const hasSkills = (opts.skills?.modelInvocable.length ?? 0) > 0;
  // A browser-profile session delegates only to the browser sub-agent types.
  const catalog = browserChoice === 'agent' ? browserAgentCatalog() : (opts.agents ?? builtinAgentCatalog());
  const subagentTypes = catalog.all
    .filter((a) => a.source !== 'builtin')
    .map((a) => ({ name: a.name, description: a.description, ...(a.source === 'plugin' ? { plugin: true } : {}) }));
  // The Agent tool's description names the custom agents it can start; with a model pool (not forced)
  // Agent and AgentSwarm take `model`, described with the pool's choices.
  const pool = opts.subagentModels;
  const modelOffer: ModelOffer | undefined = !pool
    ? undefined
    : pool.force
      ? { forced: pool.defaultAlias }
      : { choices: pool.models.map((m) => ({ alias: m.alias, hint: m.hint, isDefault: m.alias === pool.defaultAlias })) };
  const builtins = (
    opts.tools ??
    (browserChoice === 'agent'
      ? browserProfileTools(opts.browser?.subagentTimeoutMs)
      : [...builtinTools({ web, cron: !cronOff }), ...(browserChoice === 'page-tools' ? browserPageTools : [])])
  )
    .filter((t) => t.name !== SKILL_TOOL || hasSkills)
    .map((t) => (t.name === 'Agent' && (subagentTypes.length || modelOffer) ? makeAgentTool(subagentTypes, modelOffer) : t))
    .map((t) => (t.name === 'AgentSwarm' && modelOffer ? makeAgentSwarmTool(modelOffer) : t))
    .concat(towerOn ? towerTools : []);
  const toolFilter = makeToolFilter(opts.toolSwitch ?? { enabled: [], disabled: [] }, builtins.map((t) => t.name));
  warnings.push(...toolFilter.warnings);
  const availability = { capabilities: opts.model.capabilities, nonInteractive: opts.nonInteractive };
  const tools = new ToolRegistry({ filter: toolFilter, availability });
  warnings.push(...tools.setSource(BUILTIN_SOURCE, builtins));
  warnings.push(...deferralWarnings(opts.deferral, builtins.map((t) => t.name)));
  const promptContext = { home: opts.home, cwd: opts.cwd, productName: opts.productName, additionalDirs: opts.additionalDirs, skills: opts.skills, pluginSections: opts.plugins?.promptSections };
  // A resumed session keeps the prompt and tools it was created with, so its behaviour does not drift.
  const newProfile = browserChoice === 'agent' ? BROWSER_PROFILE : opts.agentProfile;
  if (session.state.systemPrompt === undefined) warnings.push(...recordMainAgent(session, newProfile, tools.list().map((t) => t.name), promptContext));
  let swarmMode = !!opts.swarmMode;
  const mainProfile = (browserChoice === 'agent' ? BROWSER_PROFILE : opts.agentProfile) ?? catalog.get(session.state.agentName ?? MAIN_AGENT) ?? BUILTIN_AGENTS[0];
  const recordedFilter = recordedToolFilter(session);
  // An agent with no one to delegate to is not offered the delegation tools.
  const canDelegate = catalog.delegatesOf(mainProfile, true).length > 0;
  const mainToolFilter = (name: string) => (recordedFilter?.(name) ?? true) && (canDelegate || !DELEGATION_TOOLS.includes(name));
  const skillInvoker = new SkillInvoker(opts.skills);
  const delegationDeps: DelegationDeps = {
    onSubagent: (event, callerId) => emit({ ...event, agentId: callerId }),
    agents: () => agents,
    catalog,
    tasks,
    settings:
      browserChoice === 'agent'
        ? { ...(opts.delegation ?? { swarmTimeoutMs: 0 }), subagentTimeoutMs: opts.browser?.subagentTimeoutMs ?? DEFAULT_BROWSER_SUBAGENT_TIMEOUT_MS }
        : (opts.delegation ?? { subagentTimeoutMs: 0, swarmTimeoutMs: 0 }),
    modelPool: pool,
    toolNames: () => tools.list().map((t) => t.name),
    systemPromptFor: (profile, names) => promptFor(profile, names, promptContext, false).text,
    ownParts: () => {
      const invoker = new SkillInvoker(opts.skills);
      // Each browser sub-agent keeps its own checklist (create_task…), apart from its caller's.
      const checklist: Array<readonly [ServiceKey<unknown>, unknown]> = browser ? [[CHECKLIST_SERVICE, new Checklist()]] : [];
      return { services: [[SKILL_SERVICE, invoker], ...checklist], extensions: [invoker.extension] };
    },
  };
  const reinjections = new Reinjections();
  const extras = attachRuntimeExtensions({ hooks: opts.hooks, mcp: opts.mcp, gate, tools, emit, title: () => session.state.title ?? '' });

  const fileHistory = opts.fileHistory === false ? undefined : new FileHistoryRecorder(session, opts.fileHistory ?? { maxFileBytes: DEFAULT_REWIND_MAX_FILE_BYTES });
  const env: AgentEnvironment = {
    cwd: opts.cwd,
    rules: opts.rules,
    workspace: workspaceOf({
      cwd: opts.cwd, additionalDirs: opts.additionalDirs, sessionDir: session.dir, readOnly: (opts.skills?.all ?? []).map((s) => s.dir),
      ...(towerOn ? { guardedWrite: towerGuardedWrite } : {}),
    }),
    isSensitivePath,
    approvalPort: opts.approvalPort,
    interactionPort: opts.interactionPort,
    nonInteractive: opts.nonInteractive,
    loop: opts.loop,
    thinking: opts.thinking,
    retryDelay: opts.retryDelay,
    compaction: { triggerRatio: opts.compaction?.triggerRatio ?? DEFAULT_COMPACTION_TRIGGER_RATIO, reservedContextSize: opts.compaction?.reservedContextSize },
    gate,
    reinjections,
    tools,
    deferral: opts.deferral,
    services: shared,
    extensions: [...(opts.extensions ?? []), ...(extras.extension ? [extras.extension] : []), extractor.extension],
    goal: opts.goal,
    fileHistory,
    emit,
  };
  disposables.add({ name: 'hooks and MCP tools', dispose: () => extras.close() });
  const tower = towerOn
    ? new TowerRuntime({
        cwd: opts.cwd, agents: () => agents, tasks, toolNames: () => tools.list().map((t) => t.name),
        systemPromptFor: (profile, names, cwd) => promptFor(profile, names, { ...promptContext, cwd }, false).text,
        onSubagent: (event) => emit({ ...event, agentId: MAIN_AGENT_ID }),
      })
    : undefined;
  if (tower) gate.register(tower.gateHandler());
  // Closed first (newest first): the last extraction still reaches the model before anything else stops.
  disposables.add({ name: 'memory extraction', dispose: ({ force }) => extractor.close({ force }) });
  const gateContext = () => ({ sessionId: session.id, agentId: MAIN_AGENT_ID, cwd: opts.cwd, signal: new AbortController().signal });
  const started = gate.sessionStart({ source: opts.resume ? 'resume' : 'startup', model: opts.model.alias }, gateContext());
  // [loop_control] idle_timeout_s: the wait for a first byte and for each next chunk.
  const timeouts = opts.loop.idleTimeoutMs === undefined ? {} : { timeoutMs: opts.loop.idleTimeoutMs, idleTimeoutMs: opts.loop.idleTimeoutMs };
  const main = assembleAgent(env, {
    session,
    binding: bindModel(opts.model, opts.client, timeouts),
    tools: tools.view((t) => mainToolFilter(t.name)),
    resumed: !!opts.resume,
    planMode: opts.planMode,
    approvalPort: opts.approvalPort,
    permissions: () => ({ mode: session.state.mode, sessionApprovals: session.state.sessionApprovals, swarmMode }),
    ready: started,
    services: [
      [SKILL_SERVICE.name, skillInvoker],
      [DELEGATION_SERVICE.name, new Delegation(delegationDeps, () => main.agent, mainProfile, true)],
      ...(tower ? [[TOWER_SERVICE.name, tower.coordinator()] as const] : []),
    ],
    extensions: [skillInvoker.extension, swarmAloneRule],
  });
  const agents = new Agents(env, main);
  const { agent, features } = main;
  extractor.track(agent, true);
  notifications.bind(tasks, agent);
  if (opts.resume) tasks.restore();
  cron.start();
  let closing: Promise<void> | undefined;
  return {
    tower,
    session,
    agent,
    agents,
    tools,
    offered: main.offered,
    gate,
    reinjections,
    disposables,
    warnings,
    services: main.services,
    tasks,
    notifications,
    cron,
    compaction: main.compaction,
    plan: features.plan,
    goals: features.goals,
    todos: features.todos,
    skills: opts.skills,
    fileHistory,
    workspace: env.workspace,
    get swarmMode() {
      return swarmMode;
    },
    set swarmMode(on: boolean) {
      swarmMode = on;
    },
    setModel(model, client) {
      agent.setModel(model, bindModel(model, client, timeouts).getClient);
      tools.setAvailability({ capabilities: model.capabilities, nonInteractive: opts.nonInteractive });
      if (session.state.modelAlias !== model.alias) session.commit({ type: 'model', modelAlias: model.alias });
    },
    close(closeOpts = {}) {
      closing ??= (async () => {
        await gate.sessionEnd({ reason: 'exit' }, gateContext());
        await agents.close();
        const failures = await disposables.disposeAll({ force: !!closeOpts.force });
        for (const text of failures) emit({ type: 'notice', level: 'warning', text, agentId: MAIN_AGENT_ID });
        session.saveSummary();
        lock.release();
      })();
      return closing;
    },
  };
}
