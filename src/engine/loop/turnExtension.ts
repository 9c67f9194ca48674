// The one way into a turn (docs/architecture.md, "Extending a turn"): a TurnExtension. Plan mode, compaction,
// goals, deferred tools and MCP tool sync are TurnExtensions; so is the extension gate (extensions/extensionGate.ts),
// the one extension that fans each point out to many handlers (config hooks, plugins, memory recall) in parallel.
// The loop holds a list of extensions and asks them through `TurnExtensions`, which merges their answers.
import type { ProviderError } from '../../llm/types';
import type { ToolAccess, ToolResult } from '../../tools/defineTool';
import type { TurnEndReason, TurnOrigin } from '../session/records';
import type { Agent } from './loop';

/** Who is asking: every prompt, stop and tool-call point names the session and the agent it comes from. */
export interface GateContext {
  sessionId: string;
  agentId: string;
  cwd: string;
  /** Aborted when the turn (or the session) is cancelled; long handlers should stop. */
  signal: AbortSignal;
}

export interface ToolCallFacts {
  callId: string;
  toolName: string;
  /** The approval subject (`Bash(npm test)`, `Write(/abs/path)`). */
  subject: string;
  /** The validated arguments. */
  args: unknown;
  accesses: readonly ToolAccess[];
  readOnly: boolean;
}

export type ApprovalRewrite = 'allow' | 'deny' | 'ask';

export interface ToolCallOutcome {
  /** The result text the model receives (after output capping). */
  text: string;
  isError: boolean;
  /** The whole result (its display, e.g. an edit's before and after), for an extension that rewrites it. */
  result: ToolResult;
}

/** The merged answer before a tool call: a block, or a rewrite of the approval decision (docs/extensions.md). */
export interface ToolCallVerdict {
  block?: string;
  approval?: { decision: ApprovalRewrite; reason?: string; by: string };
}

export interface PromptFacts {
  text: string;
  /** A steer sent while a turn runs (joins it at the next step) rather than a new turn's prompt. */
  isSteer: boolean;
  origin: TurnOrigin;
}

/** The merged answer to a prompt: a block (the prompt is not sent), and context added to it. */
export interface PromptVerdict {
  block?: string;
  addContext: string[];
}

export interface StopFacts {
  turnId: string;
  /** The model's final text of the turn. */
  text: string;
  /** True when this turn already continued because of a stop handler (avoid loops). */
  continued: boolean;
}

export interface TurnOutcome {
  turnId: string;
  reason: TurnEndReason;
  error?: string;
  text: string;
  /** Tool calls the model made during the turn (valid or not). */
  toolCalls: number;
}

/** The facts `checkToolCall` judges. */
export interface ToolCallCheck {
  toolName: string;
  subject: string;
  accesses: readonly ToolAccess[];
  args: unknown;
}

/**
 * Capabilities that shape a turn without living in the loop plug in here. Every member is optional; extensions are
 * asked in the order given and their answers merge as `TurnExtensions` says. Order at a tool call: `beforeToolCall`
 * (may block or rewrite the approval), then `checkToolCall` (a constraint such as plan mode), then the approval.
 */
export interface TurnExtension {
  /** A new turn's prompt or a steer, before it reaches the model: block it or add context. */
  promptSubmit?(prompt: PromptFacts, ctx: GateContext): Promise<PromptVerdict>;
  /** Before every model request of a turn: compact the context, inject a reminder message… */
  beforeStep?(agent: Agent, signal: AbortSignal): Promise<void> | void;
  /**
   * A provider error the loop would not retry by itself (e.g. a context overflow). Return true after
   * fixing the cause (e.g. compacting) to retry the step; the loop gives up after a few tries.
   */
  recoverFromError?(agent: Agent, error: ProviderError, attempt: number, signal: AbortSignal): Promise<boolean>;
  /** Before approval is asked: block the call, or make its approval stricter or looser. */
  beforeToolCall?(call: ToolCallFacts, ctx: GateContext): Promise<ToolCallVerdict>;
  /** Refuse a tool call before approval is asked (plan mode, budgets): return the message for the model. */
  checkToolCall?(call: ToolCallCheck, agent: Agent): string | undefined;
  /** Right before an approved call runs (after the calls it conflicts with finished): note what it may change. */
  beforeToolRun?(call: ToolCallFacts, ctx: GateContext): Promise<void>;
  /**
   * After a call ran, with the result the model receives. Returning a result replaces it (work after a tool, such as
   * the language server's diagnostics after an edit: docs/extensions.md); later extensions see the replacement.
   */
  afterToolCall?(call: ToolCallFacts, outcome: ToolCallOutcome, ctx: GateContext): Promise<ToolResult | void>;
  /** The model answered without tool calls: return text to keep the turn going, or undefined to stop. */
  beforeStop?(facts: StopFacts, ctx: GateContext): Promise<string | undefined>;
  /** After every turn, with its outcome. */
  afterTurn?(agent: Agent, outcome: TurnOutcome): Promise<void> | void;
}

/** A result's text as the model reads it (content parts other than text shown as `[image]`…). */
export function toolResultText(result: ToolResult): string {
  return typeof result.content === 'string'
    ? result.content
    : result.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('\n');
}

/** How many times one step may be recovered by extensions (e.g. compaction with growing cuts). */
export const MAX_RECOVERIES_PER_STEP = 3;

const STRICTNESS: Record<ApprovalRewrite, number> = { allow: 0, ask: 1, deny: 2 };

/** Any block wins (reasons joined, in order); otherwise the strictest approval rewrite (deny > ask > allow). */
export function mergeToolCallVerdicts(verdicts: readonly ToolCallVerdict[]): ToolCallVerdict {
  const blocks = verdicts.flatMap((v) => (v.block !== undefined ? [v.block] : []));
  if (blocks.length) return { block: blocks.join('\n') };
  let approval: ToolCallVerdict['approval'];
  for (const v of verdicts) {
    if (v.approval && (!approval || STRICTNESS[v.approval.decision] > STRICTNESS[approval.decision]))
      approval = v.approval;
  }
  return approval ? { approval } : {};
}

/** Any block wins (reasons joined); every added context is kept, in order. */
export function mergePromptVerdicts(verdicts: readonly PromptVerdict[]): PromptVerdict {
  const blocks = verdicts.flatMap((v) => (v.block !== undefined ? [v.block] : []));
  const addContext = verdicts.flatMap((v) => v.addContext);
  return blocks.length ? { block: blocks.join('\n'), addContext } : { addContext };
}

/** Several reasons to go on are joined; none means stop. */
export function mergeStopTexts(texts: ReadonlyArray<string | undefined>): string | undefined {
  const kept = texts.flatMap((t) => (t !== undefined && t.trim() ? [t.trim()] : []));
  return kept.length ? kept.join('\n\n') : undefined;
}

/** The loop's view of its extensions: each point asked of every extension that has it, answers merged. */
export class TurnExtensions {
  constructor(private readonly list: readonly TurnExtension[]) {}

  async promptSubmit(prompt: PromptFacts, ctx: GateContext): Promise<PromptVerdict> {
    const verdicts: PromptVerdict[] = [];
    for (const ext of this.list) if (ext.promptSubmit) verdicts.push(await ext.promptSubmit(prompt, ctx));
    return mergePromptVerdicts(verdicts);
  }

  async beforeStep(agent: Agent, signal: AbortSignal): Promise<void> {
    for (const ext of this.list) await ext.beforeStep?.(agent, signal);
  }

  /** True when one extension fixed the cause; later ones are not asked. */
  async recoverFromError(agent: Agent, error: ProviderError, attempt: number, signal: AbortSignal): Promise<boolean> {
    for (const ext of this.list) if (await ext.recoverFromError?.(agent, error, attempt, signal)) return true;
    return false;
  }

  get watchesToolCalls(): boolean {
    return this.list.some((ext) => ext.beforeToolCall || ext.beforeToolRun || ext.afterToolCall);
  }

  async beforeToolCall(call: ToolCallFacts, ctx: GateContext): Promise<ToolCallVerdict> {
    const verdicts: ToolCallVerdict[] = [];
    for (const ext of this.list) if (ext.beforeToolCall) verdicts.push(await ext.beforeToolCall(call, ctx));
    return mergeToolCallVerdicts(verdicts);
  }

  /** The first refusal wins. */
  checkToolCall(call: ToolCallCheck, agent: Agent): string | undefined {
    for (const ext of this.list) {
      const refusal = ext.checkToolCall?.(call, agent);
      if (refusal) return refusal;
    }
    return undefined;
  }

  async beforeToolRun(call: ToolCallFacts, ctx: GateContext): Promise<void> {
    for (const ext of this.list) await ext.beforeToolRun?.(call, ctx);
  }

  /** Each extension in order, each seeing the result as the ones before it left it; the final result. */
  async afterToolCall(call: ToolCallFacts, outcome: ToolCallOutcome, ctx: GateContext): Promise<ToolResult> {
    let current = outcome;
    for (const ext of this.list) {
      const replaced = await ext.afterToolCall?.(call, current, ctx);
      if (replaced) current = { text: toolResultText(replaced), isError: !!replaced.isError, result: replaced };
    }
    return current.result;
  }

  async beforeStop(facts: StopFacts, ctx: GateContext): Promise<string | undefined> {
    const texts: Array<string | undefined> = [];
    for (const ext of this.list) if (ext.beforeStop) texts.push(await ext.beforeStop(facts, ctx));
    return mergeStopTexts(texts);
  }

  /** Every extension hears the outcome; one that throws is reported through `report` and the rest still run. */
  async afterTurn(agent: Agent, outcome: TurnOutcome, report: (why: string) => void): Promise<void> {
    for (const ext of this.list) {
      try {
        await ext.afterTurn?.(agent, outcome);
      } catch (e) {
        report(e instanceof Error ? e.message : String(e));
      }
    }
  }
}
