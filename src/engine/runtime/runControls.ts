// What one headless run is held to, as print mode and the SDK give it (docs/print-mode.md "Structured output" and
// "Caps"): options in, outcome out. `RunControls.open` checks the options (a bad output schema throws
// OutputSchemaError); `mainAgent` goes into RuntimeOptions; `attach` once the runtime is open; every event of the
// run goes to `observe`; `signal` wakes whatever the front end waits on when a cap stops the run; at the end,
// `verdict()` says whether the run's own outcome is overridden and `structuredOutput()` is the accepted answer.
import type { Tool } from '../../tools/defineTool';
import type { EngineEvent } from '../loop/events';
import type { TurnExtension } from '../loop/loop';
import { prepareOutputContract, type OutputContract, type OutputSchemaOption } from '../loop/structuredOutput';
import { RunCapsGuard, type CapHit, type CapOutcome, type CapTarget, type RunCaps } from './runCaps';

export { OutputSchemaError, type OutputSchemaOption } from '../loop/structuredOutput';
export { formatDuration, type CapHit, type CapOutcome, type RunCaps } from './runCaps';

export interface RunOptions extends RunCaps {
  outputSchema?: OutputSchemaOption;
}

/** An outcome that replaces the run's own: a cap, a budget that could not be kept, or an answer that never fit. */
export interface RunVerdict {
  outcome: CapOutcome | 'schema_failed' | 'error';
  error: string;
  /** The cap that stopped the run. */
  cap?: CapHit;
  /** With `schema_failed`: what was wrong with the last answer. */
  schemaErrors?: string[];
}

export class RunControls {
  readonly caps: RunCapsGuard;

  private constructor(
    caps: RunCaps,
    readonly output: OutputContract | undefined,
    startedAt: number,
  ) {
    this.caps = new RunCapsGuard(caps, startedAt);
  }

  /**
   * `startedAt`: when the run began (the timeout counts from it); `warn` hears each answer sent back for not fitting
   * the schema. Throws OutputSchemaError for a bad schema.
   */
  static async open(options: RunOptions, startedAt = Date.now(), warn?: (text: string) => void): Promise<RunControls> {
    const output = options.outputSchema ? await prepareOutputContract(options.outputSchema, warn) : undefined;
    const { maxTurns, maxBudgetUsd, timeoutMs } = options;
    return new RunControls({ maxTurns, maxBudgetUsd, timeoutMs }, output, startedAt);
  }

  /** The main agent's additions (RuntimeOptions.mainAgent); the output contract first, so an accepted answer wins. */
  get mainAgent(): { tools: Tool[]; extensions: TurnExtension[] } {
    return {
      tools: this.output ? [this.output.tool] : [],
      extensions: [...(this.output ? [this.output.extension] : []), this.caps.extension],
    };
  }

  attach(target: CapTarget): void {
    this.caps.attach(target);
  }

  observe(event: EngineEvent): void {
    this.caps.observe(event);
  }

  /** Aborted when a cap stopped the run. */
  get signal(): AbortSignal {
    return this.caps.signal;
  }

  /** The accepted structured answer, or undefined (no schema, or none accepted). */
  structuredOutput(): { value: unknown } | undefined {
    const outcome = this.output?.outcome();
    return outcome?.status === 'accepted' ? { value: outcome.value } : undefined;
  }

  /**
   * A cap first, then a budget that could not be kept, then an answer that never satisfied the schema — or, when
   * the run otherwise `succeeded`, a schema that no answer was ever judged against (fail closed).
   */
  verdict(succeeded: boolean): RunVerdict | undefined {
    const hit = this.caps.hit;
    if (hit) return { outcome: hit.outcome, error: hit.message, cap: hit };
    if (this.caps.error) return { outcome: 'error', error: this.caps.error };
    const outcome = this.output?.outcome();
    if (outcome?.status === 'failed') {
      const error = `The final answer did not satisfy the output schema after ${outcome.answers} answer${outcome.answers === 1 ? '' : 's'}.`;
      return { outcome: 'schema_failed', error, schemaErrors: outcome.errors };
    }
    if (outcome?.status === 'none' && succeeded) {
      const error = 'The run ended without a final answer to check against the output schema.';
      return { outcome: 'schema_failed', error, schemaErrors: [] };
    }
    return undefined;
  }

  close(): void {
    this.caps.close();
  }
}
