// Token accounting for the context window. A tokenizer is too slow to import on the start path, so
// sizes are estimated (llm/tokens.ts) and anchored to what the provider measured: the next request
// costs the last request's reported input tokens plus an estimate of the messages added since.
// Estimates alone drift by tens of percent on code; the anchor keeps that drift to the recent tail.
import { estimateMessageTokens, estimateRequestTokens, estimateTokens } from '../../llm/tokens';
import type { Message, ModelRequest, ResolvedModel, ToolSchema, Usage } from '../../llm/types';
import type { TokenCountingStrategy } from '../../store/settings';
import { RECALL_BLOCK } from './memoryRecall';
import type { SessionState, UsageTotals } from '../session/records';

/** The system prompt and tool schemas sent with every request. */
export interface RequestFrame {
  system: string;
  tools: readonly ToolSchema[];
}

/** The input window compaction protects: max_input_size when the model has one, else the context size. */
export function contextWindow(model: Pick<ResolvedModel, 'maxContextSize' | 'maxInputSize'>): number {
  return model.maxInputSize ?? model.maxContextSize;
}

export function estimateToolSchemaTokens(tools: readonly ToolSchema[]): number {
  let total = 0;
  for (const tool of tools)
    total +=
      estimateTokens(tool.name) + estimateTokens(tool.description) + estimateTokens(JSON.stringify(tool.parameters));
  return total;
}

function estimateWhole(state: SessionState, frame: RequestFrame): number {
  return estimateTokens(frame.system) + estimateToolSchemaTokens(frame.tools) + estimateMessageTokens(state.messages);
}

/**
 * How many tokens the next request will carry. `measured+estimated` (the default, and what
 * compaction uses) anchors on the provider's figure; `measured` shows only that figure; `estimated`
 * ignores it. A compaction leaves its own figure as the anchor (contextTokensWith). Without a usable anchor (no
 * request yet, or turns were undone since) every strategy falls back to the estimate.
 */
export function contextTokens(
  state: SessionState,
  frame: RequestFrame,
  strategy: TokenCountingStrategy = 'measured+estimated',
): number {
  const anchor = state.contextAnchor;
  const usable = anchor !== undefined && anchor.messageCount <= state.messages.length;
  if (strategy === 'estimated' || !usable) return estimateWhole(state, frame);
  if (strategy === 'measured') return anchor.inputTokens;
  return anchor.inputTokens + estimateMessageTokens(state.messages.slice(anchor.messageCount));
}

/**
 * What the next request will carry once `messages` replace the conversation (a compaction), on the same basis
 * as `contextTokens` for the conversation now: the estimate of system + tools + `messages`, scaled by how
 * `contextTokens` (the provider's count, where there is one) compared with the estimate of the conversation now.
 * Before and after are therefore comparable figures (docs/plan-goals-context.md "Accounting"), and the compaction record's
 * figure becomes the anchor /usage and the footer start from.
 */
export function contextTokensWith(
  state: SessionState,
  frame: RequestFrame,
  messages: readonly Message[],
  strategy: TokenCountingStrategy = 'measured+estimated',
): number {
  const now = contextTokens(state, frame, strategy);
  const estimatedNow = estimateWhole(state, frame);
  const estimatedThen =
    estimateTokens(frame.system) + estimateToolSchemaTokens(frame.tools) + estimateMessageTokens(messages);
  return estimatedNow > 0 ? Math.round((estimatedThen * now) / estimatedNow) : estimatedThen;
}

/**
 * The context size right after a response, for the `usage` event: the reported input plus the
 * answer's output; a provider that reports no input tokens gets the request's estimate instead.
 */
export function contextTokensAfterResponse(request: ModelRequest, totals: UsageTotals, usage: Usage): number {
  const input = totals.lastInputTokens > 0 ? totals.lastInputTokens : estimateRequestTokens(request);
  return input + usage.outputTokens;
}

export interface CompactionThresholds {
  /** Fraction of the window at which auto-compaction starts (loop_control.compaction_trigger_ratio). */
  triggerRatio: number;
  /** Compact when fewer tokens than this remain (loop_control.reserved_context_size). */
  reservedContextSize?: number;
}

export const DEFAULT_COMPACTION_TRIGGER_RATIO = 0.85;

export function needsCompaction(used: number, window: number, t: CompactionThresholds): boolean {
  if (used >= window * t.triggerRatio) return true;
  return t.reservedContextSize !== undefined && t.reservedContextSize > 0 && window - used < t.reservedContextSize;
}

export interface ContextBreakdown {
  /** What the next request will carry (measured+estimated, or per the strategy given). */
  total: number;
  window: number;
  free: number;
  /** Where auto-compaction starts. */
  compactAt: number;
  /** Estimated tokens per source; they sum to `estimated`, which may differ from `total`. */
  sources: {
    systemPrompt: number;
    agentsMd: number;
    toolSchemas: number;
    /** User and assistant messages, compaction summaries included (recalled memories not). */
    history: number;
    /** Memories recalled into prompts (docs/memory.md). */
    memory: number;
    toolResults: number;
  };
  estimated: number;
  messages: number;
  compactions: number;
  /** Whole-session totals of what the provider reported (cost, not context). */
  session: UsageTotals;
}

const AGENTS_MD_SECTION = /<agents-md path="[^"]*">[\s\S]*?<\/agents-md>/g;

/** Tokens of the memory recall blocks added to user prompts. */
function recallTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const m of messages) {
    if (m.role !== 'user') continue;
    for (const part of m.content)
      if (part.type === 'text') for (const block of part.text.match(RECALL_BLOCK) ?? []) total += estimateTokens(block);
  }
  return total;
}

function splitToolResults(messages: readonly Message[]): { history: Message[]; results: Message[] } {
  const history: Message[] = [];
  const results: Message[] = [];
  for (const m of messages) (m.role === 'tool' ? results : history).push(m);
  return { history, results };
}

/** The `/usage` view: context use by source, the window, and the session's totals. */
export function contextBreakdown(
  state: SessionState,
  frame: RequestFrame,
  model: Pick<ResolvedModel, 'maxContextSize' | 'maxInputSize'>,
  opts: { strategy?: TokenCountingStrategy; thresholds?: CompactionThresholds } = {},
): ContextBreakdown {
  const agentsMd = (frame.system.match(AGENTS_MD_SECTION) ?? []).reduce((n, section) => n + estimateTokens(section), 0);
  const { history, results } = splitToolResults(state.messages);
  const memory = recallTokens(history);
  const sources = {
    systemPrompt: Math.max(0, estimateTokens(frame.system) - agentsMd),
    agentsMd,
    toolSchemas: estimateToolSchemaTokens(frame.tools),
    history: Math.max(0, estimateMessageTokens(history) - memory),
    memory,
    toolResults: estimateMessageTokens(results),
  };
  const window = contextWindow(model);
  const total = contextTokens(state, frame, opts.strategy);
  const t = opts.thresholds ?? { triggerRatio: DEFAULT_COMPACTION_TRIGGER_RATIO };
  const byRatio = Math.floor(window * t.triggerRatio);
  const byReserve = t.reservedContextSize ? window - t.reservedContextSize : window;
  return {
    total,
    window,
    free: Math.max(0, window - total),
    compactAt: Math.max(0, Math.min(byRatio, byReserve)),
    sources,
    estimated: Object.values(sources).reduce((a, b) => a + b, 0),
    messages: state.messages.length,
    compactions: state.compactions.length,
    session: { ...state.usage },
  };
}
