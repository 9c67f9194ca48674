// The one asynchronous gate that hooks and extensions use to take part in a session: around every
// tool call (before: block it or change the approval decision; after: see the result), around every
// prompt (block it or add context), when a turn would stop (keep it going), at session start and end,
// and before and after each compaction. Several handlers may answer one point; they run in parallel
// and their answers merge in a fixed way (see docs/extensions.md, which also gives the order relative
// to approvals). A handler that throws is reported and otherwise ignored (fail-open), so a broken
// extension never stops the user's work.
import type { EngineEvent } from '../loop/events';
import {
  mergeAfterToolCallVerdicts,
  mergePromptVerdicts,
  mergeStopTexts,
  mergeToolCallVerdicts,
  type AfterToolCallVerdict,
  type ApprovalRewrite,
  type GateContext,
  type PromptFacts,
  type PromptVerdict,
  type StopFacts,
  type ToolCallFacts,
  type ToolCallOutcome,
  type ToolCallVerdict,
  type TurnExtension,
} from '../loop/turnExtension';
import type { CompactionTrigger } from '../session/records';

export type {
  ApprovalRewrite,
  GateContext,
  PromptFacts,
  StopFacts,
  ToolCallFacts,
  ToolCallOutcome,
  ToolCallVerdict,
} from '../loop/turnExtension';

/**
 * `block`: the call does not run and the model receives `reason` as its error result (no approval
 * is asked). `approval`: replaces the approval decision (see the merge rules in docs/extensions.md).
 */
export type BeforeToolCallAnswer =
  { block: string; halt?: string } | { approval: ApprovalRewrite; reason?: string } | undefined | void;

/** `feedback`: text the model reads with the call's result; `halt`: the turn ends after this step, for this reason. */
export type AfterToolCallAnswer = { feedback?: string; halt?: string } | undefined | void;

/** `block`: the prompt is not sent to the model; `addContext`: text given to the model with it. */
export type PromptAnswer = { block: string } | { addContext: string } | undefined | void;

/** `continueWith`: the turn goes on; the text is given to the model as a user message. */
export type StopAnswer = { continueWith: string } | undefined | void;

export interface SessionStartFacts {
  source: 'startup' | 'resume';
  /** The model alias in use. */
  model: string;
}

export interface SessionEndFacts {
  reason: 'exit' | 'switch';
}

export interface CompactionStartFacts {
  trigger: CompactionTrigger;
  tokenCount: number;
}

export interface CompactionEndFacts {
  trigger: CompactionTrigger;
  estimatedTokenCount: number;
  error?: string;
}

type Awaitable<T> = T | Promise<T>;

/** One extension's hooks into the session; every member is optional. */
export interface GateHandler {
  /** Shown when the handler fails ("hook PreToolUse: …", "plugin acme"). */
  name: string;
  beforeToolCall?(call: ToolCallFacts, ctx: GateContext): Awaitable<BeforeToolCallAnswer>;
  afterToolCall?(call: ToolCallFacts, outcome: ToolCallOutcome, ctx: GateContext): Awaitable<AfterToolCallAnswer>;
  onPromptSubmit?(prompt: PromptFacts, ctx: GateContext): Awaitable<PromptAnswer>;
  beforeStop?(facts: StopFacts, ctx: GateContext): Awaitable<StopAnswer>;
  onSessionStart?(facts: SessionStartFacts, ctx: GateContext): Awaitable<void>;
  onSessionEnd?(facts: SessionEndFacts, ctx: GateContext): Awaitable<void>;
  beforeCompaction?(facts: CompactionStartFacts, ctx: GateContext): Awaitable<void>;
  afterCompaction?(facts: CompactionEndFacts, ctx: GateContext): Awaitable<void>;
  /**
   * Every engine event of every agent, as it happens (fire-and-forget hooks: TurnStarted, Interrupt,
   * PermissionRequest/Result, Notification…). Synchronous; start async work without awaiting it.
   */
  observe?(event: EngineEvent): void;
}

/**
 * The gate is a TurnExtension (one of the loop's list) whose points fan out to every registered handler in
 * parallel; it adds session start and end, compaction and event observation, which are not points of a turn.
 */
export class ExtensionGate implements TurnExtension {
  private readonly handlers: GateHandler[] = [];
  /** Set while observers run: a failure report is itself an event, and must not loop back. */
  private observing = false;

  /** `report` receives a handler's failure (the runtime shows it as a warning notice). */
  constructor(private readonly report: (text: string) => void = () => {}) {}

  /** Adds a handler; answers merge in registration order. Returns the function that removes it. */
  register(handler: GateHandler): () => void {
    this.handlers.push(handler);
    return () => {
      const i = this.handlers.indexOf(handler);
      if (i >= 0) this.handlers.splice(i, 1);
    };
  }

  get size(): number {
    return this.handlers.length;
  }

  /**
   * Runs one point on every handler that has it, in parallel; returns the answers in registration
   * order (undefined for a handler that failed or did not answer).
   */
  private async all<K extends keyof GateHandler, R>(
    point: K,
    call: (h: GateHandler) => Awaitable<R> | undefined,
  ): Promise<Array<{ handler: GateHandler; answer: R | undefined }>> {
    const chosen = this.handlers.filter((h) => typeof h[point] === 'function');
    if (!chosen.length) return [];
    const settled = await Promise.allSettled(chosen.map(async (h) => call(h)));
    return settled.map((s, i) => {
      if (s.status === 'rejected') {
        const why = s.reason instanceof Error ? s.reason.message : String(s.reason);
        this.report(`${chosen[i].name} failed at ${point}: ${why} (ignored)`);
        return { handler: chosen[i], answer: undefined };
      }
      return { handler: chosen[i], answer: s.value };
    });
  }

  /** Any block wins (reasons joined); otherwise the strictest approval rewrite (deny > ask > allow). */
  async beforeToolCall(call: ToolCallFacts, ctx: GateContext): Promise<ToolCallVerdict> {
    const answers = await this.all('beforeToolCall', (h) => h.beforeToolCall!(call, ctx));
    const verdicts: ToolCallVerdict[] = [];
    for (const { handler, answer } of answers) {
      if (!answer) continue;
      if ('block' in answer)
        verdicts.push({
          block: answer.block.trim() || `blocked by ${handler.name}`,
          ...(answer.halt !== undefined ? { halt: answer.halt } : {}),
        });
      else verdicts.push({ approval: { decision: answer.approval, reason: answer.reason, by: handler.name } });
    }
    return mergeToolCallVerdicts(verdicts);
  }

  /** Every handler's feedback is kept, in registration order; the first reason to end the turn wins. */
  async afterToolCall(call: ToolCallFacts, outcome: ToolCallOutcome, ctx: GateContext): Promise<AfterToolCallVerdict> {
    const answers = await this.all('afterToolCall', (h) => h.afterToolCall!(call, outcome, ctx));
    return mergeAfterToolCallVerdicts(answers.map(({ answer }) => answer ?? {}));
  }

  /** Any block wins (reasons joined); otherwise every added context, in registration order. */
  async promptSubmit(prompt: PromptFacts, ctx: GateContext): Promise<PromptVerdict> {
    const answers = await this.all('onPromptSubmit', (h) => h.onPromptSubmit!(prompt, ctx));
    const verdicts: PromptVerdict[] = [];
    for (const { handler, answer } of answers) {
      if (!answer) continue;
      if ('block' in answer)
        verdicts.push({ block: answer.block.trim() || `blocked by ${handler.name}`, addContext: [] });
      else if (answer.addContext.trim()) verdicts.push({ addContext: [answer.addContext.trim()] });
    }
    return mergePromptVerdicts(verdicts);
  }

  /** Returns the text to continue with (several handlers' texts joined), or undefined to stop. */
  async beforeStop(facts: StopFacts, ctx: GateContext): Promise<string | undefined> {
    const answers = await this.all('beforeStop', (h) => h.beforeStop!(facts, ctx));
    return mergeStopTexts(answers.map(({ answer }) => answer?.continueWith));
  }

  async sessionStart(facts: SessionStartFacts, ctx: GateContext): Promise<void> {
    await this.all('onSessionStart', (h) => h.onSessionStart!(facts, ctx));
  }

  async sessionEnd(facts: SessionEndFacts, ctx: GateContext): Promise<void> {
    await this.all('onSessionEnd', (h) => h.onSessionEnd!(facts, ctx));
  }

  async beforeCompaction(facts: CompactionStartFacts, ctx: GateContext): Promise<void> {
    await this.all('beforeCompaction', (h) => h.beforeCompaction!(facts, ctx));
  }

  async afterCompaction(facts: CompactionEndFacts, ctx: GateContext): Promise<void> {
    await this.all('afterCompaction', (h) => h.afterCompaction!(facts, ctx));
  }

  /** Hands an engine event to every observer; an observer's exception is reported, never thrown. */
  observe(event: EngineEvent): void {
    if (this.observing) return;
    this.observing = true;
    try {
      this.observeAll(event);
    } finally {
      this.observing = false;
    }
  }

  private observeAll(event: EngineEvent): void {
    for (const h of this.handlers) {
      if (!h.observe) continue;
      try {
        h.observe(event);
      } catch (e) {
        this.report(`${h.name} failed at observe: ${e instanceof Error ? e.message : String(e)} (ignored)`);
      }
    }
  }
}
