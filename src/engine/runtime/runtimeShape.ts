// What openRuntime is given and what it hands back (runtime.ts assembles it, docs/architecture.md names the parts).
import type { ModelClient, ResolvedModel } from '../../llm/types';
import type { ModelClientOptions } from '../../llm/createModelClient';
import type { Tool, ToolServices } from '../../tools/defineTool';
import type { TaskSettings } from '../../tools/task/taskService';
import type { ImageLimits } from '../../tools/file';
import type { SandboxSettings } from '../../tools/boundary/sandboxSettings';
import type { WebSettings } from '../../tools/web';
import type { BrowserRuntimeOptions } from '../../tools/browser';
import type { WorkflowLimits } from '../../tools/workflow';
import type { SessionLocation } from '../../store/sessionStore';
import type { SubagentModelPool } from '../../store/subagentModelPool';
import type { AgentModelResolver } from '../../store/agentModels';
import type { HookSpec } from '../../ext/hooks/hookRunner';
import type { McpManager } from '../../ext/mcp/mcpManager';
import type { AgentCatalog } from '../../ext/agents/agentCatalog';
import type { SkillCatalog } from '../../ext/skills/skillCatalog';
import type { CompatSettings } from '../../store/compat';
import type { SessionPlugins } from '../../ext/plugins/contributions';
import type { AgentProfile } from '../../ext/agents/agentFile';
import type { AgentDirectory } from '../delegation/agents';
import type { InteractionPort } from '../delegation/interactions';
import type { DelegationSettings } from '../delegation/subagents';
import type { ApprovalPort, PermissionRule } from '../policy/approvals';
import type { PlanMode } from '../policy/planMode';
import type { Workspace } from '../policy/workspace';
import type { BackgroundTasks } from '../background/backgroundTasks';
import type { CronClock, CronScheduler } from '../background/cronScheduler';
import type { GoalController } from '../background/goals';
import type { GoalSettings } from '../background/goalDriver';
import type { TaskNotifications } from '../background/taskNotifications';
import type { TodoStore } from '../background/todos';
import type { Compactor, Reinjections } from '../context/compaction';
import type { CompactionThresholds } from '../context/context';
import type { MemorySettings } from '../context/memoryRecall';
import type { LspSettings } from '../../platform/lsp/lspServers';
import type { ExtensionGate, GateHandler } from '../extensions/extensionGate';
import type { EngineEvent } from '../loop/events';
import type { Agent, LoopSettings, ThinkingSettings, TurnExtension } from '../loop/loop';
import type { ToolSwitch } from '../loop/toolFilter';
import type { ToolRegistry } from '../loop/toolRegistry';
import type { DeferralConfig, DeferredTools } from '../loop/deferredTools';
import type { FileHistoryRecorder, FileHistorySettings } from '../session/fileHistoryRecorder';
import type { PermissionMode } from '../session/records';
import type { Session } from '../session/session';
import type { TowerRuntime } from '../tower/towerRuntime';
import type { Disposables } from './disposables';

export interface RuntimeOptions {
  /** Tower mode's tools (docs/tower.md); default: the experimental flag in the environment. */
  tower?: boolean;
  home: string;
  cwd: string;
  /**
   * The environment the session's child processes start from: Bash, background tasks, hooks, MCP stdio servers,
   * language servers, Jarvis's own git calls (tools/sessionEnv.ts). Default `process.env`; the SDK gives a query's
   * own `env` (docs/sdk.md, "Concurrency and isolation"). Never written to.
   */
  env?: Readonly<NodeJS.ProcessEnv>;
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
  /** `[sandbox]`: how shell commands are confined (docs/sandbox.md); absent = not confined. */
  sandbox?: SandboxSettings;
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
  /** The main agent's model client: its environment (proxy, custom headers) and connection pool (the SDK's own). */
  modelClient?: Pick<ModelClientOptions, 'env' | 'dispatcher'>;
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
  /**
   * The configured models an agent file's `model:` or an Agent call's `model` may name (store/agentModels.ts):
   * the resolver, and the `[models]` aliases offered to the model (with their ids as hints).
   */
  agentModels?: { resolve: AgentModelResolver; choices: ReadonlyArray<{ alias: string; hint: string }> };
  /** `[rewind]`: copies of files before the agent changes them; false = none (default: on, 10 MiB cap). */
  fileHistory?: FileHistorySettings | false;
  /** `[memory]` recall bounds and extraction (docs/memory.md); defaults when absent. */
  memory?: MemorySettings;
  /** `[lsp]`: language servers for diagnostics after edits and the Lsp tool (docs/lsp.md); turned off when absent. */
  lsp?: LspSettings;
  /** Enabled plugins' commands, `${plugin_sections}` and session-start skills (docs/plugins.md). */
  plugins?: SessionPlugins;
  /** `[compat]`: CLAUDE.md and nested AGENTS.md in the system prompt (docs/compatibility.md); default: read. */
  compat?: CompatSettings;
  /**
   * What one headless run adds to the main agent only (runControls.ts): its final-answer tool and the turn
   * extensions of its caps and output schema. Subagents never get them.
   */
  mainAgent?: { tools?: readonly Tool[]; extensions?: readonly TurnExtension[] };
}

export interface Runtime {
  /** Tower mode, when its experimental flag is on (docs/tower.md). */
  tower?: TowerRuntime;
  session: Session;
  /** The main agent (the one front ends talk to). */
  agent: Agent;
  /** The main agent and its subagents: `agents.spawn({...})` creates one (delegation/agents.ts). */
  agents: AgentDirectory;
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
