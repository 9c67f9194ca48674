// The end of a print-mode run as a script reads it: the `result` event of `--output-format stream-json` and the
// one object of `--output-format json` (docs/print-mode.md; the shape is docs/schemas/stream-json-result.schema.json).
import type { EngineEvent } from '../engine/loop/events';
import { MAIN_AGENT_ID } from '../engine/loop/events';
import type { Sink } from './transcriptWriter';

/** Bumped when a field of a stream-json event changes meaning or goes away (adding a field does not bump it). */
export const STREAM_JSON_VERSION = 1;

export interface UsageFigures {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

export type PrintOutcome = 'success' | 'error' | 'interrupted' | 'goal_blocked' | 'goal_paused';

export interface PrintResultEvent {
  type: 'result';
  version: number;
  outcome: PrintOutcome;
  exit_code: number;
  error: string | null;
  session_id: string | null;
  model: string | null;
  turns: number;
  duration_ms: number;
  /** The main agent's text of its last turn. */
  text: string;
  usage: UsageFigures;
  /** The same figures split by the model id the requests went to (subagents may run on other models). */
  usage_by_model: Record<string, UsageFigures & { requests: number }>;
  /**
   * The sum of the costs the provider reported (OpenRouter's `usage.cost`, LiteLLM's response header), USD;
   * null when no request reported one. Never estimated (docs/print-mode.md "Cost").
   */
  total_cost_usd: number | null;
  /** True only when every request that reported usage also reported its cost. */
  cost_complete: boolean;
  /** Where the figure comes from: `provider`, or null when there is none. */
  cost_source: 'provider' | null;
}

/** Sums of binary fractions drift (0.1 + 0.2); a cost is kept to 1e-10 USD, far below any price. */
function roundUsd(value: number): number {
  return Math.round(value * 1e10) / 1e10;
}

function outcomeOf(code: number): PrintOutcome {
  if (code === 0) return 'success';
  if (code === 130) return 'interrupted';
  if (code === 3) return 'goal_blocked';
  if (code === 6) return 'goal_paused';
  return 'error';
}

/** Follows the run's events and errors; `finish` writes the final object (stream-json and json only). */
export class PrintResultRecorder {
  private readonly started = Date.now();
  private readonly usage: UsageFigures = {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
  };
  private readonly byModel: PrintResultEvent['usage_by_model'] = {};
  private turns = 0;
  /** Requests that reported usage, and the costs among them. */
  private requests = 0;
  private costReports = 0;
  private costUsd = 0;
  private lastError: string | null = null;
  private text = '';
  private turnText = '';
  private sessionId: string | null = null;
  private model: string | null = null;

  constructor(
    private readonly format: 'text' | 'stream-json' | 'json',
    private readonly stdout: Sink,
  ) {}

  /** Every event of the run, subagents' included: their requests count towards the usage too. */
  observe(event: EngineEvent): void {
    if (event.type === 'usage') {
      const model = (this.byModel[event.model] ??= {
        input_tokens: 0,
        output_tokens: 0,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        requests: 0,
      });
      for (const sum of [this.usage, model]) {
        sum.input_tokens += event.usage.inputTokens;
        sum.output_tokens += event.usage.outputTokens;
        sum.cache_read_tokens += event.usage.cacheReadTokens ?? 0;
        sum.cache_write_tokens += event.usage.cacheWriteTokens ?? 0;
      }
      model.requests++;
      this.requests++;
      if (event.usage.costUsd !== undefined) {
        this.costReports++;
        this.costUsd += event.usage.costUsd;
      }
    }
    if (event.agentId !== MAIN_AGENT_ID) return;
    if (event.type === 'turn_start') this.turnText = '';
    if (event.type === 'assistant_message' && event.text) this.turnText += (this.turnText ? '\n' : '') + event.text;
    if (event.type === 'turn_end') {
      this.turns++;
      this.text = this.turnText;
      if (event.error && event.reason !== 'completed') this.lastError = event.error;
    }
  }

  session(id: string, model: string): void {
    this.sessionId = id;
    this.model = model;
  }

  /**
   * A failure outside the turn (bad config, a prompt too large): kept for the result and, in stream-json,
   * written at once as an `error` event, so stdout says what stderr says.
   */
  error(message: string): void {
    this.lastError = message;
    if (this.format === 'stream-json') this.stdout.write(`${JSON.stringify({ type: 'error', message })}\n`);
  }

  build(code: number): PrintResultEvent {
    const outcome = outcomeOf(code);
    return {
      type: 'result',
      version: STREAM_JSON_VERSION,
      outcome,
      exit_code: code,
      error: outcome === 'success' ? null : (this.lastError ?? (outcome === 'interrupted' ? 'interrupted' : null)),
      session_id: this.sessionId,
      model: this.model,
      turns: this.turns,
      duration_ms: Date.now() - this.started,
      text: this.text,
      usage: { ...this.usage },
      usage_by_model: structuredClone(this.byModel),
      total_cost_usd: this.costReports ? roundUsd(this.costUsd) : null,
      cost_complete: this.requests > 0 && this.costReports === this.requests,
      cost_source: this.costReports ? 'provider' : null,
    };
  }

  /** Writes the result line (stream-json) or the one object (json); text mode writes nothing. */
  finish(code: number): number {
    if (this.format !== 'text') this.stdout.write(`${JSON.stringify(this.build(code))}\n`);
    return code;
  }
}

/** The first line of stream-json: which session and model the run uses, and the format's version. */
export function initEvent(sessionId: string, model: string, cwd: string) {
  return { type: 'init', version: STREAM_JSON_VERSION, session_id: sessionId, model, cwd };
}
