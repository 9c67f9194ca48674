// The end of a headless run as a program reads it: the `result` event of print mode's stream-json, the one object of
// `--output-format json`, and the SDK's last message (docs/print-mode.md; the shape is
// docs/schemas/stream-json-result.schema.json). The recorder follows the run's events; front ends write what it builds.
import type { EngineEvent } from '../loop/events';
import { MAIN_AGENT_ID } from '../loop/events';
import { CostTally, type CostSource } from '../../llm/pricing';
import { STREAM_JSON_VERSION } from './streamJson';

export interface UsageFigures {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
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

/** Which cap stopped the run (docs/print-mode.md "Caps"): its limit and what was used, in turns, USD or ms. */
export interface CapReport {
  name: 'max_turns' | 'max_budget_usd' | 'timeout';
  limit: number;
  used: number;
}

export interface RunResultEvent {
  type: 'result';
  version: number;
  outcome: RunOutcome;
  exit_code: number;
  error: string | null;
  session_id: string | null;
  model: string | null;
  turns: number;
  /** Responses of the main agent's model: what --max-turns counts. */
  model_turns: number;
  duration_ms: number;
  /** The main agent's text of its last turn. */
  text: string;
  usage: UsageFigures;
  /** The same figures split by the model id the requests went to (subagents may run on other models). */
  usage_by_model: Record<string, UsageFigures & { requests: number }>;
  /**
   * USD: the costs the provider reported (OpenRouter's `usage.cost`, LiteLLM's response header) plus, for requests
   * whose provider reported none, their price from config or the price dataset; null when no request had either
   * (docs/print-mode.md "Cost").
   */
  total_cost_usd: number | null;
  /** True only when every request that reported usage had a cost, reported or priced. */
  cost_complete: boolean;
  /** What the figure rests on: `provider`, `priced`, `mixed`, or null when there is none. */
  cost_source: CostSource;
  /** The accepted answer of `--output-schema`; null without one (or when none was accepted). */
  structured_output: unknown;
  /** With `schema_failed`: what was wrong with the last answer. */
  schema_errors?: string[];
  /** The cap that stopped the run, or null. */
  cap: CapReport | null;
}

/** What the run's controls decided (engine/runtime/runControls.ts), for the result. */
export interface RunReport {
  structuredOutput?: { value: unknown };
  /** Replaces the last error when the run's outcome was overridden. */
  error?: string;
  schemaErrors?: string[];
  cap?: CapReport;
}

/** docs/print-mode.md "Exit codes": each outcome has its own code (1 and 2 are both `error`). */
const OUTCOME_OF_CODE: Record<number, RunOutcome> = {
  0: 'success',
  3: 'goal_blocked',
  4: 'max_turns',
  5: 'budget_exceeded',
  6: 'goal_paused',
  7: 'schema_failed',
  124: 'timeout',
  130: 'interrupted',
};

function outcomeOf(code: number): RunOutcome {
  return OUTCOME_OF_CODE[code] ?? 'error';
}

/** Follows the run's events and errors; `build` makes the result event. */
export class RunResultRecorder {
  private readonly started = Date.now();
  private readonly usage: UsageFigures = {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
  };
  private readonly byModel: RunResultEvent['usage_by_model'] = {};
  private turns = 0;
  private modelTurns = 0;
  private run: RunReport = {};
  /** The requests that reported usage, and their costs. */
  private readonly cost = new CostTally();
  private lastError: string | null = null;
  private text = '';
  private turnText = '';
  private sessionId: string | null = null;
  private model: string | null = null;

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
      this.cost.add(event.usage);
    }
    if (event.agentId !== MAIN_AGENT_ID) return;
    if (event.type === 'turn_start') this.turnText = '';
    if (event.type === 'assistant_message') this.modelTurns++;
    if (event.type === 'assistant_message' && event.text) this.turnText += (this.turnText ? '\n' : '') + event.text;
    if (event.type === 'turn_end') {
      this.turns++;
      this.text = this.turnText;
      if (event.error && event.reason !== 'completed') this.lastError = event.error;
    }
  }

  /** The run's controls decided: the structured answer, and an outcome that overrides the run's own. */
  runEnded(report: RunReport): void {
    this.run = report;
  }

  session(id: string, model: string): void {
    this.sessionId = id;
    this.model = model;
  }

  /** A failure outside the turn (bad config, a prompt too large): the result's `error` unless a later one replaces it. */
  error(message: string): void {
    this.lastError = message;
  }

  build(code: number): RunResultEvent {
    const outcome = outcomeOf(code);
    const lastError = this.run.error ?? this.lastError;
    return {
      type: 'result',
      version: STREAM_JSON_VERSION,
      outcome,
      exit_code: code,
      error: outcome === 'success' ? null : (lastError ?? (outcome === 'interrupted' ? 'interrupted' : null)),
      session_id: this.sessionId,
      model: this.model,
      turns: this.turns,
      model_turns: this.modelTurns,
      duration_ms: Date.now() - this.started,
      text: this.text,
      usage: { ...this.usage },
      usage_by_model: structuredClone(this.byModel),
      total_cost_usd: this.cost.totalUsd,
      cost_complete: this.cost.complete,
      cost_source: this.cost.source,
      structured_output: this.run.structuredOutput ? this.run.structuredOutput.value : null,
      ...(outcome === 'schema_failed' && this.run.schemaErrors ? { schema_errors: this.run.schemaErrors } : {}),
      cap: this.run.cap ?? null,
    };
  }
}
