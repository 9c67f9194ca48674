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
  /** The turn ends after this step (a Claude Code hook's `"continue": false`); the text says why, to the user. */
  halt?: string;
}

/** The merged answer after a tool call: text the model reads with the result, and whether the turn ends. */
export interface AfterToolCallVerdict {
  feedback?: string;
  halt?: string;
  /** The result the model receives instead of the call's own (an extension's work after a tool). */
  result?: ToolResult;
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

/**
 * How a turn is made to end by something other than the model: a final answer that was handed in, a cap of the run.
 * `note` is journalled for the model before the turn ends (it reads it when the conversation goes on).
 */
export interface TurnEnd {
  reason: TurnEndReason;
  error?: string;
  note?: string;
}

/** Where `endTurn` is asked: before a model request, or after a final answer. */
export type TurnBoundary = 'request' | 'answer';

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
   * After a call ran, with the result the model receives: replace that result (work after a tool, such as the language
   * server's diagnostics after an edit: docs/extensions.md; later extensions see the replacement), add feedback to it,
   * or end the turn after this step.
   */
  afterToolCall?(call: ToolCallFacts, outcome: ToolCallOutcome, ctx: GateContext): Promise<AfterToolCallVerdict | void>;
  /** The model answered without tool calls: return text to keep the turn going, or undefined to stop. */
  beforeStop?(facts: StopFacts, ctx: GateContext): Promise<string | undefined>;
  /**
   * At each step boundary, end the turn here instead (a final answer was handed in, a cap was reached): `request`
   * before every model request, `answer` when the model answered without tools and nothing keeps the turn going.
   */
  endTurn?(agent: Agent, at: TurnBoundary): TurnEnd | undefined;
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
  const halt = verdicts.find((v) => v.halt !== undefined)?.halt;
  if (blocks.length) return { block: blocks.join('\n'), ...(halt !== undefined ? { halt } : {}) };
  let approval: ToolCallVerdict['approval'];
  for (const v of verdicts) {
    if (v.approval && (!approval || STRICTNESS[v.approval.decision] > STRICTNESS[approval.decision]))
      approval = v.approval;
  }
  return approval ? { approval } : {};
}

/** Every feedback is kept, in order; the first reason to end the turn is the one said. */
export function mergeAfterToolCallVerdicts(verdicts: readonly AfterToolCallVerdict[]): AfterToolCallVerdict {
  const feedback = verdicts.flatMap((v) => (v.feedback?.trim() ? [v.feedback.trim()] : []));
  const halt = verdicts.find((v) => v.halt !== undefined)?.halt;
  return { ...(feedback.length ? { feedback: feedback.join('\n\n') } : {}), ...(halt !== undefined ? { halt } : {}) };
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

  /**
   * Each extension in order, each seeing the result as the ones before it left it: the final result when one replaced
   * it, every extension's feedback, and the first reason to end the turn.
   */
  async afterToolCall(call: ToolCallFacts, outcome: ToolCallOutcome, ctx: GateContext): Promise<AfterToolCallVerdict> {
    let current = outcome;
    let replaced: ToolResult | undefined;
    const verdicts: AfterToolCallVerdict[] = [];
    for (const ext of this.list) {
      const verdict = await ext.afterToolCall?.(call, current, ctx);
      if (!verdict) continue;
      verdicts.push(verdict);
      if (verdict.result) {
        replaced = verdict.result;
        current = { text: toolResultText(replaced), isError: !!replaced.isError, result: replaced };
      }
    }
    return { ...mergeAfterToolCallVerdicts(verdicts), ...(replaced ? { result: replaced } : {}) };
  }

  async beforeStop(facts: StopFacts, ctx: GateContext): Promise<string | undefined> {
    const texts: Array<string | undefined> = [];
    for (const ext of this.list) if (ext.beforeStop) texts.push(await ext.beforeStop(facts, ctx));
    return mergeStopTexts(texts);
  }

  /** The first extension that ends the turn wins. */
  endTurn(agent: Agent, at: TurnBoundary): TurnEnd | undefined {
    for (const ext of this.list) {
      const end = ext.endTurn?.(agent, at);
      if (end) return end;
    }
    return undefined;
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
