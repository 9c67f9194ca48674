// Compaction: when the context nears the model's window, the older part of the conversation is
// replaced by a hand-off note the model writes about it (a separate request, prompt in compaction.md),
// followed by state that must never be summarised away (todos, plan, goal — see reinjections.ts)
// and the most recent exchanges verbatim. The user's own messages from the replaced part open the note
// verbatim, before the summary (compactionUserWords.ts). AGENTS.md lives in the system prompt, so it survives as is.
// The journal keeps everything: a `compaction` record only changes what the next request carries.
import { estimateTokens } from '../../llm/tokens';
import { retryDelayMs, shouldRetry, sleep } from '../../llm/retry';
import { toProviderError } from '../../llm/providerErrors';
import { withPrice } from '../../llm/pricing';
import {
  ProviderError,
  type ContentPart,
  type Message,
  type ModelClient,
  type ModelRequest,
  type ResolvedModel,
  type Usage,
} from '../../llm/types';
import {
  contextTokens,
  contextTokensWith,
  contextWindow,
  needsCompaction,
  type CompactionThresholds,
  type RequestFrame,
} from './context';
import type { EngineEventBody } from '../loop/events';
import type { ExtensionGate } from '../extensions/extensionGate';
import type { GateContext } from '../loop/turnExtension';
import type { TurnExtension } from '../loop/loop';
import type { CompactionTrigger } from '../session/records';
import type { Session } from '../session/session';
import { userWordsParts, USER_WORDS_RATIO } from './compactionUserWords';
import { chooseCut, LEVELS, renderTranscript, SUMMARISER_INPUT_RATIO } from './compactionCut';
import type { Reinjections } from './reinjections';

export { chooseCut, renderTranscript } from './compactionCut';
export { Reinjections, type Reinjector } from './reinjections';
import { renderPromptTemplate } from './systemPrompt';
import summariserPrompt from './compaction.md';
import noteTemplate from './compactionNote.md';
import { noteSurvivedFailure } from '../../store/crashLog';

export interface CompactionResult {
  trigger: CompactionTrigger;
  summary: string;
  tokensBefore: number;
  tokensAfter: number;
  /** Messages replaced by the note. */
  summarised: number;
  /** Recent messages kept verbatim. */
  kept: number;
}

export class CompactionError extends Error {}

export interface CompactorDeps {
  session: Session;
  model: ResolvedModel;
  getClient(): Promise<ModelClient>;
  /** The system prompt and tool schemas the agent's requests carry. */
  frame(): RequestFrame;
  thresholds: CompactionThresholds;
  onEvent(event: EngineEventBody): void;
  isBusy(): boolean;
  maxAttempts: number;
  retryDelay?: (attempt: number, error: ProviderError) => number;
  /** The runtime's reinjectors (what survives a compaction verbatim). */
  reinjections: Reinjections;
  /** Hooks before and after each compaction (PreCompact / PostCompact). */
  gate?: ExtensionGate;
  /** The agent this compactor serves, for the gate's context. */
  agentId?: string;
}

export class Compactor {
  private running = false;
  /** A turn whose automatic compaction failed is not retried every step. */
  private failedInTurn: string | undefined;

  constructor(private readonly deps: CompactorDeps) {}

  private emit(event: EngineEventBody): void {
    try {
      this.deps.onEvent(event);
    } catch (e) {
      // A front end's rendering bug must not break a compaction; the log has it.
      noteSurvivedFailure(`a front end's event handler threw on a ${event.type} event`, e);
    }
  }

  private gateContext(signal: AbortSignal): GateContext {
    return {
      sessionId: this.deps.session.id,
      agentId: this.deps.agentId ?? 'main',
      cwd: this.deps.session.state.workDir,
      signal,
    };
  }

  get compacting(): boolean {
    return this.running;
  }

  /** The manual `/compact [instruction]`. Throws CompactionError with a message for the user. */
  async compact(opts: { instruction?: string; signal?: AbortSignal } = {}): Promise<CompactionResult> {
    if (this.deps.isBusy())
      throw new CompactionError('Cannot compact while a turn is running; press Esc to stop it first.');
    if (this.running) throw new CompactionError('A compaction is already running.');
    const instruction = opts.instruction?.trim() || undefined;
    const result = await this.run('manual', 0, instruction, opts.signal ?? new AbortController().signal);
    if (!result) throw new CompactionError('Nothing to compact yet: the conversation is still short.');
    return result;
  }

  readonly extension: TurnExtension = {
    beforeStep: async (_agent, signal) => {
      const { session } = this.deps;
      const turnId = session.state.openTurn?.turnId;
      if (turnId !== undefined && turnId === this.failedInTurn) return;
      const used = contextTokens(session.state, this.deps.frame());
      if (!needsCompaction(used, contextWindow(this.deps.model), this.deps.thresholds)) return;
      if (!(await this.tryAuto(0, signal))) this.failedInTurn = turnId;
    },
    recoverFromError: async (_agent, error, attempt, signal) => {
      if (error.kind !== 'context_overflow') return false;
      return this.tryAuto(Math.min(attempt - 1, LEVELS.length - 1), signal);
    },
  };

  /** Automatic compaction never fails a turn by itself: a failure is reported and the turn goes on. */
  private async tryAuto(level: number, signal: AbortSignal): Promise<boolean> {
    try {
      return (await this.run('auto', level, undefined, signal)) !== undefined;
    } catch (e) {
      if (signal.aborted) throw e;
      return false;
    }
  }

  private async run(
    trigger: CompactionTrigger,
    firstLevel: number,
    instruction: string | undefined,
    signal: AbortSignal,
  ): Promise<CompactionResult | undefined> {
    const { session, model } = this.deps;
    const frame = this.deps.frame();
    const window = contextWindow(model);
    const start = session.state.compactions.length ? 1 : 0;
    if (chooseCut(session.state.messages, start, 0, 0) === undefined) return undefined;
    const tokensBefore = contextTokens(session.state, frame);
    this.running = true;
    this.emit({ type: 'compaction_start', trigger, tokenCount: tokensBefore, ...(instruction ? { instruction } : {}) });
    await this.deps.gate?.beforeCompaction({ trigger, tokenCount: tokensBefore }, this.gateContext(signal));
    try {
      for (let level = firstLevel; ; level++) {
        const cut = chooseCut(
          session.state.messages,
          start,
          LEVELS[level].keepExchanges,
          window * LEVELS[level].keepRatio,
        )!;
        const before = session.state.messages;
        try {
          const { summary, usage } = await this.summarise(
            session.state.messages.slice(0, cut),
            level,
            start === 1,
            instruction,
            signal,
          );
          // A prompt sent meanwhile only adds messages (kept verbatim); anything else makes the cut stale.
          if (
            session.state.messages.length < cut ||
            session.state.messages.slice(0, cut).some((m, i) => m !== before[i])
          )
            throw new CompactionError('The conversation changed during the compaction; nothing was compacted.');
          const messages = this.noteMessages(summary, before.slice(0, cut), start === 1);
          const keptMessages = session.state.messages.slice(cut);
          const kept = keptMessages.length;
          // The same basis as tokensBefore (docs/plan-goals-context.md "Accounting"): the provider's count, carried over.
          const tokensAfter = contextTokensWith(session.state, frame, [...messages, ...keptMessages]);
          session.commit({
            type: 'compaction',
            trigger,
            summary,
            ...(instruction ? { instruction } : {}),
            tokensBefore,
            tokensAfter,
            summarised: cut,
            messages,
            keep: kept,
            ...(usage ? { usage, model: this.deps.model.model } : {}),
          });
          session.saveSummary();
          this.emit({
            type: 'compaction_end',
            trigger,
            tokensBefore,
            estimatedTokenCount: tokensAfter,
            summary,
            ...(usage ? { usage } : {}),
          });
          await this.deps.gate?.afterCompaction(
            { trigger, estimatedTokenCount: tokensAfter },
            this.gateContext(signal),
          );
          return { trigger, summary, tokensBefore, tokensAfter, summarised: cut, kept };
        } catch (e) {
          const overflow = e instanceof ProviderError && e.kind === 'context_overflow';
          if (overflow && level + 1 < LEVELS.length && !signal.aborted) continue;
          throw e;
        }
      }
    } catch (e) {
      const error = signal.aborted ? 'cancelled' : e instanceof Error ? e.message : String(e);
      this.emit({ type: 'compaction_end', trigger, tokensBefore, estimatedTokenCount: tokensBefore, error });
      await this.deps.gate?.afterCompaction(
        { trigger, estimatedTokenCount: tokensBefore, error },
        this.gateContext(signal),
      );
      if (trigger === 'auto' && !signal.aborted) {
        this.emit({
          type: 'notice',
          level: 'warning',
          text: `Automatic compaction failed (${error}); continuing with the full context.`,
        });
      }
      throw e instanceof ProviderError || e instanceof CompactionError || signal.aborted
        ? e
        : new CompactionError(`Compaction failed: ${error}`);
    } finally {
      this.running = false;
    }
  }

  /**
   * The user's words, the note and every registered piece of state, as the one message that opens the
   * new context.
   */
  private noteMessages(summary: string, replaced: readonly Message[], hasNote: boolean): Message[] {
    const { state } = this.deps.session;
    const open = state.openTurn;
    const inProgress =
      open?.origin === 'user' ? state.checkpoints.find((c) => c.turnId === open.turnId)?.messageCount : undefined;
    const words = userWordsParts(replaced, hasNote, inProgress, contextWindow(this.deps.model) * USER_WORDS_RATIO);
    const content: ContentPart[] = [
      ...words,
      { type: 'text', text: renderPromptTemplate(noteTemplate, { summary }).trim() },
    ];
    for (const [name, reinject] of this.deps.reinjections.entries()) {
      let text: string | undefined;
      try {
        text = reinject(this.deps.session.state)?.trim();
      } catch (e) {
        this.emit({
          type: 'notice',
          level: 'warning',
          text: `Could not restore "${name}" after compaction: ${e instanceof Error ? e.message : String(e)}`,
        });
      }
      if (text) content.push({ type: 'text', text: `<current-state name="${name}">\n${text}\n</current-state>` });
    }
    return [{ role: 'user', content }];
  }

  private summariserRequest(
    messages: readonly Message[],
    level: number,
    hasNote: boolean,
    instruction: string | undefined,
  ): ModelRequest {
    const budget = contextWindow(this.deps.model) * SUMMARISER_INPUT_RATIO - estimateTokens(summariserPrompt);
    const blocks = renderTranscript(messages, LEVELS[level], hasNote);
    // Oldest first out when even the shortened transcript is too long; a previous note always stays.
    let total = blocks.reduce((n, b) => n + estimateTokens(b), 0);
    let dropped = 0;
    const first = hasNote ? 1 : 0;
    while (total > budget && blocks.length - first > 1) {
      total -= estimateTokens(blocks.splice(first, 1)[0]);
      dropped++;
    }
    // What is left can still be one message larger than the window (a huge pasted prompt): keep the
    // start and the end of the largest blocks, so the summariser request itself always fits.
    for (let guard = 0; total > budget && guard < blocks.length; guard++) {
      const i = blocks.reduce((best, b, k) => (estimateTokens(b) > estimateTokens(blocks[best]) ? k : best), 0);
      const tokens = estimateTokens(blocks[i]);
      const keep = Math.max(
        0,
        Math.floor(((blocks[i].length * Math.max(0, tokens - (total - budget))) / tokens) * 0.9),
      );
      const half = Math.floor(keep / 2);
      const block = blocks[i];
      blocks[i] =
        `${block.slice(0, half)}\n[… ${block.length - 2 * half} characters cut: this message alone did not fit the summariser's window …]\n${half ? block.slice(-half) : ''}`;
      total = blocks.reduce((n, b) => n + estimateTokens(b), 0);
    }
    if (dropped)
      blocks.splice(first, 0, `[${dropped} older messages omitted: they did not fit the summariser's window]`);
    let text = `<conversation>\n${blocks.join('\n\n')}\n</conversation>`;
    if (instruction) text += `\n\n<user-instruction>\n${instruction}\n</user-instruction>`;
    return {
      system: summariserPrompt.trim(),
      messages: [{ role: 'user', content: [{ type: 'text', text }] }],
      tools: [],
      params: {},
    };
  }

  private async summarise(
    messages: readonly Message[],
    level: number,
    hasNote: boolean,
    instruction: string | undefined,
    signal: AbortSignal,
  ): Promise<{ summary: string; usage?: Usage }> {
    const { model } = this.deps;
    const client = await this.deps.getClient();
    const request = this.summariserRequest(messages, level, hasNote, instruction);
    for (let attempt = 1; ; attempt++) {
      try {
        let text = '';
        let usage: Usage | undefined;
        let finished = false;
        for await (const part of client.stream(request, signal)) {
          if (part.type === 'text') text += part.delta;
          else if (part.type === 'usage') usage = part.usage;
          else if (part.type === 'finish') finished = true;
        }
        if (signal.aborted) throw new ProviderError('aborted', 'The compaction was cancelled.');
        if (!finished) throw new ProviderError('bad_response', 'the summary stream ended before the model finished');
        if (!text.trim()) throw new CompactionError('Compaction failed: the model returned an empty summary.');
        if (!usage) return { summary: text.trim() };
        const priced = await withPrice(model, usage);
        if (priced.problem) this.emit({ type: 'notice', level: 'warning', text: priced.problem });
        return { summary: text.trim(), usage: priced.usage };
      } catch (e) {
        if (signal.aborted || e instanceof CompactionError) throw e;
        const err = toProviderError(e, {
          providerName: model.providerName,
          providerType: model.providerType,
          model: model.model,
        });
        if (!shouldRetry(err, attempt, this.deps.maxAttempts)) throw err;
        await sleep(this.deps.retryDelay ? this.deps.retryDelay(attempt, err) : retryDelayMs(attempt, err), signal);
      }
    }
  }
}
