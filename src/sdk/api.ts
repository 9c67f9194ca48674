// The public face of `jarvis-code/sdk` (docs/sdk.md). Declarations only: scripts/build.mjs ships this file as the
// package's dist/sdk.d.ts, so it imports nothing. index.ts implements `query` and `tool` with exactly these types, and
// checks that the message types below are the engine's own (engine/runtime/streamJson.ts, runResult.ts).

/** `manual` asks `canUseTool` wherever the terminal UI would ask; `plan` is plan mode (read-only until a plan). */
export type PermissionMode = 'manual' | 'auto' | 'yolo' | 'plan';

// ---- Messages: the stream-json v1 events of `jarvis -p --output-format stream-json` (docs/print-mode.md) ----

export interface InitMessage {
  type: 'init';
  version: number;
  session_id: string;
  model: string;
  cwd: string;
}

export interface AssistantMessage {
  role: 'assistant';
  content: string;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
}

export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  name: string;
  content: string;
  is_error?: true;
}

export interface RetryMessage {
  type: 'retry';
  attempt: number;
  max_attempts: number;
  delay_ms: number;
  error: string;
}

export interface ErrorMessage {
  type: 'error';
  message: string;
}

export type RunOutcome =
  | 'success'
  | 'error'
  | 'interrupted'
  | 'goal_blocked'
  | 'goal_paused'
  | 'max_turns'
  | 'budget_exceeded'
  | 'timeout'
  | 'schema_failed';

export interface UsageFigures {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

export interface ResultMessage {
  type: 'result';
  version: number;
  outcome: RunOutcome;
  exit_code: number;
  error: string | null;
  session_id: string | null;
  model: string | null;
  turns: number;
  model_turns: number;
  duration_ms: number;
  text: string;
  usage: UsageFigures;
  usage_by_model: Record<string, UsageFigures & { requests: number }>;
  total_cost_usd: number | null;
  cost_complete: boolean;
  cost_source: 'provider' | 'priced' | 'mixed' | null;
  structured_output: unknown;
  schema_errors?: string[];
  cap: { name: 'max_turns' | 'max_budget_usd' | 'timeout'; limit: number; used: number } | null;
}

export type SDKMessage = InitMessage | AssistantMessage | ToolMessage | RetryMessage | ErrorMessage | ResultMessage;

// ---- Options ----

export type PermissionResult =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown> }
  | { behavior: 'deny'; message: string; interrupt?: boolean };

export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  context: { signal: AbortSignal; subject: string; reason: string },
) => PermissionResult | Promise<PermissionResult>;

/** MCP-style content a tool handler may return (text and base64 images). */
export type ToolContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

export type ToolHandlerResult = string | { content: ToolContent[]; isError?: boolean };

/** A zod 4 schema (anything with `~standard` and zod's `_zod` internals), or a JSON Schema object. */
export type InputSchema = Record<string, unknown> | { readonly '~standard': unknown };

export interface ToolOptions<Input = Record<string, unknown>> {
  name: string;
  description: string;
  inputSchema: InputSchema;
  handler(input: Input, context: { signal: AbortSignal; cwd: string }): ToolHandlerResult | Promise<ToolHandlerResult>;
  /** True when it changes nothing: plan mode lets it run, and it never asks for approval (default false: asks). */
  readOnly?: boolean;
}

/** What `tool()` returns: give it in `options.tools`. */
export interface SdkTool {
  readonly kind: 'jarvis-sdk-tool';
  readonly name: string;
}

// ---- Hooks: the program's functions as hooks (docs/hooks.md has every event and its payload fields) ----

export type HookEvent =
  | 'UserPromptSubmit'
  | 'UserPromptQueued'
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'PermissionRequest'
  | 'PermissionResult'
  | 'Stop'
  | 'StopFailure'
  | 'Interrupt'
  | 'TurnStarted'
  | 'SessionStart'
  | 'SessionEnd'
  | 'SessionHeartbeat'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'TaskStarted'
  | 'PreCompact'
  | 'PostCompact'
  | 'Notification';

/** What a hook command reads on stdin: these fields, plus the event's own (`tool_name`, `tool_input`, `prompt`…). */
export interface HookInput {
  hook_event_name: HookEvent;
  session_id: string;
  session_title: string;
  client_type: 'jarvis_code_cli';
  cwd: string;
  [field: string]: unknown;
}

/** What a hook command may print on stdout: `deny`/`block` blocks (PreToolUse, UserPromptSubmit, Stop) like exit 2. */
export interface HookAnswer {
  permissionDecision?: 'allow' | 'ask' | 'deny';
  decision?: 'block' | 'approve';
  reason?: string;
  additionalContext?: string;
  hookSpecificOutput?: {
    permissionDecision?: 'allow' | 'ask' | 'deny';
    permissionDecisionReason?: string;
    additionalContext?: string;
  };
}

/** Nothing (go ahead), a text (context for UserPromptSubmit and SessionStart) or a decision. A throw: go ahead. */
export type HookFunction = (
  input: HookInput,
  context: { signal: AbortSignal },
) => void | string | HookAnswer | Promise<void | string | HookAnswer>;

export interface HookMatcher {
  /** A regular expression searched in the event's subject (the tool name for tool events); absent: every subject. */
  matcher?: string;
  hooks: HookFunction[];
  /** Seconds, 1–600 (default 60): a function still running then counts as a failed hook. */
  timeout?: number;
}

/** How to reach the model without a config file (docs/sdk.md "Model and provider"). */
export interface ProviderOptions {
  type: 'openai' | 'openai_responses' | 'anthropic' | 'kimi';
  apiKey: string;
  baseUrl?: string;
  /** e.g. ['image_in', 'thinking']; default: the JARVIS_MODEL_CAPABILITIES default. */
  capabilities?: string[];
  maxContextSize?: number;
  maxOutputSize?: number;
}

export interface Options {
  cwd?: string;
  /** A `[models]` alias of config.toml (with settingSources ['user']), or the model id `provider` serves. */
  model?: string;
  provider?: ProviderOptions;
  /** Default `auto` (as `jarvis -p`); `manual` needs `canUseTool`. */
  permissionMode?: PermissionMode;
  canUseTool?: CanUseTool;
  tools?: SdkTool[];
  /** Functions called at the events of docs/hooks.md, as `[[hooks]]` commands are. */
  hooks?: Partial<Record<HookEvent, HookMatcher[]>>;
  /** Continue this session (its id, as the init message gave it). */
  resume?: string;
  /** With `resume`: continue in a copy, leaving the original as it was. */
  forkSession?: boolean;
  abortController?: AbortController;
  /** A JSON Schema the final answer must satisfy; the result carries `structured_output`. */
  outputSchema?: Record<string, unknown>;
  maxTurns?: number;
  maxBudgetUsd?: number;
  /** Milliseconds for the whole query (outcome `timeout`). */
  timeoutMs?: number;
  /**
   * The query's whole environment (default: process.env; not merged with it): settings and the model are read from
   * it, and every process the session starts (Bash, hooks, MCP stdio servers, language servers, git) begins from it.
   * process.env is never changed. Not with `server`.
   */
  env?: Record<string, string | undefined>;
  appendSystemPrompt?: string;
  /** Which configuration loads: none by default (reproducible programs); `user` and `project` load config.toml,
   * its hooks, MCP servers, skills, agents and plugins as the CLI does. */
  settingSources?: Array<'user' | 'project'>;
  /**
   * Run on a `jarvis serve` instead of in this process (docs/server.md "From the SDK"): its URL and token as it
   * printed them. The same messages and controls; `cwd` must lie in the server's workspace roots; `tools`,
   * `hooks`, `outputSchema`, the caps and `provider` are not available (the server's configuration applies).
   */
  server?: { url: string; token: string };
  /** Hears what `jarvis -p` writes to stderr as warnings (a broken file, an MCP server that did not start). */
  stderr?: (line: string) => void;
}

export interface UserMessage {
  type: 'user';
  content: string;
}

export interface QueryArgs {
  prompt: string | AsyncIterable<UserMessage>;
  options?: Options;
}

export interface Query extends AsyncIterable<SDKMessage> {
  /** Stops the turn that runs: its result has outcome `interrupted`. */
  interrupt(): Promise<void>;
  setPermissionMode(mode: PermissionMode): Promise<void>;
  /** A `[models]` alias (needs settingSources ['user']) or, with `provider`, another model id of that provider. */
  setModel(model: string): Promise<void>;
  /** Stops everything and frees it (MCP servers, background tasks, the session lock); the iteration ends. */
  close(): Promise<void>;
}

export declare function query(args: QueryArgs): Query;
export declare function tool<Input = Record<string, unknown>>(options: ToolOptions<Input>): SdkTool;
