// The caps a pipeline relies on (docs/print-mode.md "Caps"): at most N model turns of the main agent, at most X USD,
// at most a wall time. Print mode sets them from --max-turns, --max-budget-usd and --timeout; the SDK from maxTurns,
// maxBudgetUsd and its timeout. Each stops the whole run with its own outcome: the main agent's turn ends (at once
// for money and time; for turns, before the request that would be one too many, after the tools of the last one
// ran), queued turns are dropped, background tasks and subagents stop, and `signal` wakes whatever still waits.
//
// A turn is counted the way Claude Code counts its turns: every response of the main agent's model, the final
// answer included (a prompt answered with one tool call and a final text is two). Cost is the run's own, as the
// result reports it (src/llm/pricing.ts): what the provider reported, else what it is priced at, for every model
// request of the main agent, its subagents and compactions. A request whose cost is neither reported nor priced
// makes the budget impossible to keep: the run stops with an error that says how to give the model a price.
import { requestCost, roundUsd } from '../../llm/pricing';
import type { Usage } from '../../llm/types';
import { MAIN_AGENT_ID, type EngineEvent } from '../loop/events';
import type { TurnEnd, TurnExtension } from '../loop/turnExtension';

export interface RunCaps {
  /** Model responses of the main agent (≥ 1). */
  maxTurns?: number;
  /** USD (> 0). */
  maxBudgetUsd?: number;
  /** Wall time of the run, ms (> 0). */
  timeoutMs?: number;
}

/** The result's name for each cap's stop (the SDK's outcome names). */
export type CapOutcome = 'max_turns' | 'budget_exceeded' | 'timeout';

/** Which cap stopped the run, its limit and how much was used (turns, USD, ms). */
export interface CapHit {
  name: 'max_turns' | 'max_budget_usd' | 'timeout';
  outcome: CapOutcome;
  limit: number;
  used: number;
  message: string;
}

/** What the caps need of a runtime: its main agent and its background tasks. */
export interface CapTarget {
  agent: { stop(end: TurnEnd): void };
  tasks: { close(opts: { force?: boolean; reason?: string }): Promise<void> };
}

/** A duration as the user wrote it: `90s`, `10m`, `1h30m`, `250ms`. */
export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

export class RunCapsGuard {
  private turns = 0;
  private costUsd = 0;
  private hitCap: CapHit | undefined;
  private failure: string | undefined;
  private target: CapTarget | undefined;
  private timer: NodeJS.Timeout | undefined;
  private noted = false;
  private readonly stopped = new AbortController();

  /** `startedAt`: when the run began (the timeout counts from it), default now. */
  constructor(
    readonly caps: RunCaps,
    private readonly startedAt = Date.now(),
  ) {}

  /** Aborted when a cap (or the budget's unknown cost) stopped the run: waits for background work end. */
  get signal(): AbortSignal {
    return this.stopped.signal;
  }

  /** The cap that stopped the run, if one did. */
  get hit(): CapHit | undefined {
    return this.hitCap;
  }

  /** Why the run could not be kept within its budget (a request without a cost), if that stopped it. */
  get error(): string | undefined {
    return this.failure;
  }

  /** Responses of the main agent's model so far. */
  get modelTurns(): number {
    return this.turns;
  }

  /** Given to the main agent only: ends its turn before a request the turn cap does not allow, and after any stop. */
  readonly extension: TurnExtension = {
    endTurn: (_agent, at) => {
      if (this.hitCap || this.failure) return this.endOf();
      const max = this.caps.maxTurns;
      if (at !== 'request' || max === undefined || this.turns < max) return undefined;
      this.reach({
        name: 'max_turns',
        outcome: 'max_turns',
        limit: max,
        used: this.turns,
        message: `The run stopped after ${max} model turn${max === 1 ? '' : 's'} (--max-turns ${max}).`,
      });
      return this.endOf();
    },
  };

  /** The runtime is open: the timer starts (it counts from `startedAt`), and stops are carried out on it. */
  attach(target: CapTarget): void {
    this.target = target;
    const ms = this.caps.timeoutMs;
    if (ms === undefined) return;
    const onTimeout = () => {
      const used = Date.now() - this.startedAt;
      const message = `The run stopped after ${formatDuration(ms)} (--timeout ${formatDuration(ms)}).`;
      this.stopNow({ name: 'timeout', outcome: 'timeout', limit: ms, used, message });
    };
    const left = this.startedAt + ms - Date.now();
    if (left <= 0) onTimeout();
    else this.timer = setTimeout(onTimeout, Math.min(left, 2_147_483_647));
  }

  /** Every event of the run: the main agent's responses count as turns, every request's cost towards the budget. */
  observe(event: EngineEvent): void {
    if (event.type === 'assistant_message' && event.agentId === MAIN_AGENT_ID) this.turns++;
    if (event.type === 'usage') this.spend(event.usage, event.model);
    if (event.type === 'compaction_end' && event.usage) this.spend(event.usage, 'the compaction summary');
  }

  /** The run is over: the timer stops. */
  close(): void {
    clearTimeout(this.timer);
  }

  private spend(usage: Usage, model: string): void {
    const budget = this.caps.maxBudgetUsd;
    if (budget === undefined || this.hitCap || this.failure) return;
    const cost = requestCost(usage);
    if (!cost) {
      this.failure =
        `--max-budget-usd ${budget} cannot be kept: a request to ${model} reported no cost and no price is known for ` +
        'it, so the run was stopped. Give the model a price in config.toml ([models.<alias>] price = { input = …, ' +
        'output = … }, USD per million tokens; docs/configuration.md "Prices").';
      this.halt({ reason: 'failed', error: this.failure }, this.failure);
      return;
    }
    this.costUsd += cost.usd;
    if (this.costUsd <= budget) return;
    const used = roundUsd(this.costUsd);
    const message = `The run stopped at $${used} spent, over its budget of $${budget} (--max-budget-usd ${budget}).`;
    this.stopNow({ name: 'max_budget_usd', outcome: 'budget_exceeded', limit: budget, used, message });
  }

  /** Money and time stop the running turn at once. */
  private stopNow(hit: CapHit): void {
    if (this.hitCap || this.failure) return;
    this.reach(hit);
    this.halt(this.endOf(), hit.message);
  }

  private reach(hit: CapHit): void {
    this.hitCap = hit;
    // A turn cap ends its turn at the boundary (endTurn); the rest of the run stops here.
    if (hit.name === 'max_turns') this.halt(undefined, hit.message);
  }

  /** Stops the run: the main agent (when `end`), background tasks and subagents, and whatever waits on `signal`. */
  private halt(end: TurnEnd | undefined, why: string): void {
    clearTimeout(this.timer);
    if (end) this.target?.agent.stop(end);
    void this.target?.tasks.close({ force: true, reason: `Stopped: ${why}` });
    this.stopped.abort();
  }

  /** How a turn ends once the run is stopped; the model is told once (it reads the note if the session goes on). */
  private endOf(): TurnEnd {
    const hit = this.hitCap;
    const error = hit?.message ?? this.failure ?? '';
    const note = this.noted
      ? undefined
      : `${error} Nothing more was done in that run; if the user continues the session, pick up where you stopped.`;
    this.noted = true;
    return { reason: hit?.outcome ?? 'failed', error, ...(note ? { note } : {}) };
  }
}
