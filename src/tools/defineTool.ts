// The tool framework: a tool is a schema, a model-facing description, what it touches, how approval
// rules see it, and `execute`. Validation, approval, the stale-file guard, output capping and
// journalling all happen around `execute`, in the engine's tool runner — never inside a tool.
import { z } from 'zod';
import type { ContentPart, ToolSchema } from '../llm/types';
import { compactJsonSchema } from './compactSchema';

/** What a call touches. Two calls conflict when one writes a path the other reads, writes or runs in. */
/**
 * `linked`: the file had more than one hard link when the call was judged, so the approval policy
 * treated it as outside the workspace (docs/approvals.md); only then may the tool open such a file.
 */
export type ToolAccess =
  | { kind: 'read'; path: string; linked?: true }
  /** `tracked`: the read counts for the read-before-write guard (Read does; Grep and Glob do not). */
  | { kind: 'read'; path: string; tracked: true; linked?: true }
  | { kind: 'write'; path: string; linked?: true }
  /** A command or other effect whose footprint is unknown: conflicts with every write and exec. */
  | { kind: 'exec'; cwd: string };

/**
 * How a call that starts a program meets the trust boundary (docs/trust-boundary.md): where it will run and whether it
 * leaves the session's folders. Computed by the session's boundary (tools/boundary/), judged by the approval policy.
 */
export interface BoundaryFacts {
  /** Inside the command sandbox or not: a session approval names it, and covers only calls that run the same way. */
  confinement: 'sandboxed' | 'unsandboxed';
  /** The call asks to leave a running sandbox (Bash `dangerously_unsandboxed`): auto mode refuses it without a rule. */
  escalation: boolean;
  /** The folder it would run in, when that is outside the session's writable roots: asked, or refused in auto mode. */
  outsideRoots?: string;
}

export interface ToolProgress {
  /** Streaming text (Bash output) or a short status line. */
  text: string;
  stream?: 'stdout' | 'stderr' | 'status';
}

/**
 * A typed name for something the runtime lends tools (background tasks, the todo store…): the name is part of the
 * type, so `ctx.services.get(KEY)` compiles only inside a tool that declares KEY in its `services`
 * (docs/architecture.md, "Tools and their services"). Made as `serviceKey<TaskService>()('backgroundTasks')`.
 */
export interface ServiceKey<T, N extends string = string> {
  readonly name: N;
  /** Phantom field carrying the service type. */
  readonly __type?: T;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any service: the engine side lends keys of every type
export type AnyServiceKey = ServiceKey<any, string>;
export function serviceKey<T>(): <N extends string>(name: N) => ServiceKey<T, N> {
  return (name) => ({ name });
}

/** Services a tool may use from its session; `Uses` are the keys it declared (every key on the engine side). */
export interface ToolServices<Uses extends AnyServiceKey = AnyServiceKey> {
  /**
   * The session's scratch folder (store/paths.ts): saved outputs and plans live under it, and it is all of the
   * session that commands and tools may write; the rest of the session folder is out of their reach.
   */
  scratchDir: string;
  /** True in print mode / when no human can answer. */
  nonInteractive: boolean;
  /** Whether the calling agent is the session's main agent (subagents may not change user-scope memory). */
  mainAgent: boolean;
  /** The calling agent's id (`main` when absent): names the outputs it saves (store/toolOutputs.ts). */
  agentId?: string;
  /** A service the tool declared in `services`; the tool runner checks it is lent before `execute` runs. */
  get<T, N extends Uses['name']>(key: ServiceKey<T, N>): T;
  /** A service declared in `optionalServices` (the editor's files under ACP): undefined where the session has none. */
  find<T, N extends Uses['name']>(key: ServiceKey<T, N>): T | undefined;
  /**
   * Phantom, never set: makes a context with fewer declared keys unassignable to a helper that needs more, so a
   * helper's `ctx: ToolContext<typeof KEY>` is checked against the calling tool's `services` too.
   */
  readonly __uses?: (declared: Uses) => void;
}

export interface ToolContext<Uses extends AnyServiceKey = never> {
  readonly cwd: string;
  readonly signal: AbortSignal;
  readonly callId: string;
  readonly services: ToolServices<Uses>;
  /**
   * The accesses this call was judged and approved for, computed once before approval; file tools open
   * exactly these paths (checkedOpen.ts), never a path resolved again later. Absent while preparing.
   */
  readonly approved?: readonly ToolAccess[];
  /** Resolve a model-given path against cwd (absolute paths pass through, `~` expands). */
  resolve(path: string): string;
  emitProgress(progress: ToolProgress): void;
}

/** What front ends can render richly besides the model-facing text. */
export type ToolDisplay =
  | { kind: 'diff'; path: string; before: string; after: string }
  /** An image the tool produced, kept on disk (a computer-use screenshot in the session folder). */
  | { kind: 'image'; path: string; bytes: number; width: number; height: number; mediaType: string }
  | { kind: 'file'; path: string; lines: number }
  | { kind: 'command'; command: string; exitCode: number | null }
  | { kind: 'text'; text: string };

export interface ToolResult {
  content: string | ContentPart[];
  isError?: boolean;
  /** A short line for front ends ("Read 120 lines"). */
  summary?: string;
  display?: ToolDisplay;
  /** Write/Edit: how many new errors the language server found in the change (docs/lsp.md); absent when none ran. */
  diagnostics?: { errors: number; lines?: string[] };
}

export type DefaultApproval = 'auto' | 'ask';

/** What a computer-use tool does to which display: looks at it (`observe`) or acts on it (`input`). */
export interface DesktopControl {
  action: 'observe' | 'input';
  display: string;
}

export interface ToolDefinition<
  S extends z.ZodType = z.ZodType,
  Needs extends AnyServiceKey = never,
  Optional extends AnyServiceKey = never,
  Uses extends AnyServiceKey = Needs | Optional,
> {
  name: string;
  /**
   * The services `execute` gets with `ctx.services.get`: a key not listed here does not compile there, and a call is
   * refused with a clear error (never a throw inside the tool) when the session does not lend one of them.
   */
  services?: readonly Needs[];
  /** Services it reads with `ctx.services.find` and can do without (the editor's files, page summaries). */
  optionalServices?: readonly Optional[];
  /** Model-facing text; `${NAME}` placeholders are filled from `constants`. */
  description: string;
  constants?: Record<string, string | number>;
  schema: S;
  readOnly: boolean;
  defaultApproval: DefaultApproval;
  /** The default approval for these arguments, when it depends on them (execute_script: page asks, sandbox not). */
  approvalFor?(args: z.infer<S>, ctx?: ToolContext<Uses>): DefaultApproval;
  /** For a call that starts a program: how it meets the trust boundary (where it runs, which folder it works in). */
  boundary?(args: z.infer<S>, ctx: ToolContext<Uses>): BoundaryFacts | undefined;
  /** The subject permission rules match, e.g. `Bash(npm test)`, `Write(/abs/path)`. Defaults to the name. */
  subject?(args: z.infer<S>, ctx: ToolContext<Uses>): string;
  accesses?(args: z.infer<S>, ctx: ToolContext<Uses>): ToolAccess[];
  /** What an approval question shows besides the arguments (Workflow: the script, its limits and cost). */
  approvalPreview?(args: z.infer<S>, ctx: ToolContext<Uses>): ToolDisplay | undefined;
  /**
   * Raises the central output cap for a tool whose own limits already bound its output (Read returns up
   * to 100 KB plus line numbers). Defaults to the engine's cap.
   */
  maxOutputChars?: number;
  /**
   * Deferred: the model sees only the name and first sentence until it loads the schema with ToolSearch
   * (docs/tools.md, "Deferred tools"). For rarely used tools; the core file/shell/task tools are not.
   */
  deferred?: boolean;
  /** Offered to the model only when this says so (e.g. ReadMediaFile needs image_in). */
  isAvailable?(env: ToolAvailability): boolean;
  /** A computer-use tool (docs/computer-use.md): it needs the session's authorization for `display` first. */
  desktop?: DesktopControl;
  execute(args: z.infer<S>, ctx: ToolContext<Uses>): Promise<ToolResult>;
}

export interface ToolAvailability {
  capabilities: readonly string[];
  nonInteractive: boolean;
}

/** The outcome of checking a model's arguments against a tool's schema. */
export type ArgsCheck = { ok: true; args: unknown } | { ok: false; error: string };

/**
 * A tool as the engine sees it, whatever its schema language: built-in tools are defined with zod
 * (`defineTool`), MCP and plugin tools with JSON Schema (`defineJsonSchemaTool`). Both validate the
 * model's arguments with `validateArgs` and report problems field by field (`formatArgumentErrors`).
 */
export interface Tool extends Omit<
  ToolDefinition<z.ZodType, AnyServiceKey, AnyServiceKey>,
  'schema' | 'subject' | 'accesses' | 'approvalPreview' | 'execute' | 'approvalFor' | 'boundary'
> {
  approvalFor?(args: unknown, ctx?: ToolContext<AnyServiceKey>): DefaultApproval;
  boundary?(args: unknown, ctx: ToolContext<AnyServiceKey>): BoundaryFacts | undefined;
  /** The JSON schema sent to the model. */
  readonly jsonSchema: Record<string, unknown>;
  readonly renderedDescription: string;
  /**
   * Loads what checking arguments needs (a JSON Schema tool compiles its validator on its first call);
   * the loop awaits it before `validateArgs`. Never rejects.
   */
  prepare?(): Promise<void>;
  /** Called when ToolSearch loads the tool's schema (a lazy MCP server starts then: docs/mcp.md). */
  onLoaded?(): void;
  /** Checks (and for zod, coerces defaults into) the parsed JSON arguments. Never throws. */
  validateArgs(raw: unknown): ArgsCheck;
  subject?(args: unknown, ctx: ToolContext<AnyServiceKey>): string;
  accesses?(args: unknown, ctx: ToolContext<AnyServiceKey>): ToolAccess[];
  approvalPreview?(args: unknown, ctx: ToolContext<AnyServiceKey>): ToolDisplay | undefined;
  execute(args: unknown, ctx: ToolContext<AnyServiceKey>): Promise<ToolResult>;
}

/** Fill `${NAME}` placeholders; an unknown placeholder is a programming error, caught at definition. */
export function renderTemplate(text: string, constants: Record<string, string | number>): string {
  return text.replace(/\$\{([A-Z0-9_]+)\}/g, (whole, key: string) => {
    if (!(key in constants)) throw new Error(`tool description placeholder ${whole} has no constant`);
    return String(constants[key]);
  });
}

export function defineTool<
  S extends z.ZodType,
  Needs extends AnyServiceKey = never,
  Optional extends AnyServiceKey = never,
>(def: ToolDefinition<S, Needs, Optional>): Tool {
  const renderedDescription = renderTemplate(def.description.trim(), def.constants ?? {});
  const { schema, ...rest } = def as unknown as ToolDefinition<z.ZodType, AnyServiceKey, AnyServiceKey>;
  // Built on first read, not at definition: a start-up defines every built-in tool but sends only the ones offered
  // up front (the others wait for ToolSearch), and this conversion is most of a definition's cost (docs/FEATURES.md,
  // "Start-up time against Codex"). test/tools/defineTool.test.ts builds every built-in tool's schema.
  let jsonSchema: Record<string, unknown> | undefined;
  return {
    ...rest,
    get jsonSchema() {
      if (jsonSchema) return jsonSchema;
      const built = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
      delete built.$schema;
      compactJsonSchema(built);
      return (jsonSchema = built);
    },
    renderedDescription,
    validateArgs(raw) {
      const parsed = schema.safeParse(raw);
      return parsed.success
        ? { ok: true, args: parsed.data }
        : { ok: false, error: describeSchemaError(def.name, parsed.error) };
    },
  } as Tool;
}

/** The first service a tool needs that `lends` does not have, for the runner's refusal (undefined: all lent). */
export function missingService(tool: Tool, lends: (name: string) => boolean): string | undefined {
  return tool.services?.find((key) => !lends(key.name))?.name;
}

export function toolSchemaForModel(tool: Tool): ToolSchema {
  return { name: tool.name, description: tool.renderedDescription, parameters: tool.jsonSchema };
}

/**
 * Turns a zod failure into one message the model can act on: which field, what was wrong.
 */
export function describeSchemaError(toolName: string, error: z.ZodError): string {
  return formatArgumentErrors(
    toolName,
    error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })),
  );
}

/** One field-level problem with a tool call's arguments. */
export interface ArgumentIssue {
  path: readonly string[];
  message: string;
}

/** The message every schema language produces for invalid arguments (zod and JSON Schema alike). */
export function formatArgumentErrors(toolName: string, issues: readonly ArgumentIssue[]): string {
  const lines = issues.map(
    (issue) => `- ${issue.path.length ? issue.path.join('.') : '(arguments)'}: ${issue.message}`,
  );
  return `Invalid arguments for ${toolName}:\n${lines.join('\n')}\nFix the arguments and call ${toolName} again.`;
}
