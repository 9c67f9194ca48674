// Print mode's run controls (docs/print-mode.md "Structured output", "Caps"): --output-schema read and checked,
// the caps parsed, and at the end the run's verdict turned into the exit code and the result's fields.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OutputSchemaError, RunControls } from '../engine/runtime/runControls';
import {
  EXIT_BUDGET_EXCEEDED,
  EXIT_FAILURE,
  EXIT_INTERRUPTED,
  EXIT_MAX_TURNS,
  EXIT_SCHEMA_FAILED,
  EXIT_SUCCESS,
  EXIT_TIMEOUT,
} from '../print/printMode';
import type { RunReport } from '../print/printResult';
import type { MainOptions } from './program';
import { capsFromFlags } from './runFlags';

/** The run's controls, or the usage error (exit 2) of a flag or of the schema file. */
export async function openRunControls(
  options: MainOptions,
  startedAt: number,
  warn: (text: string) => void,
): Promise<{ controls: RunControls } | { error: string }> {
  const caps = capsFromFlags(options);
  if ('error' in caps) return { error: `jarvis: ${caps.error}` };
  const file = options.outputSchema;
  if (file === undefined) return { controls: await RunControls.open(caps, startedAt) };
  const where = `--output-schema ${file}`;
  let text: string;
  try {
    text = readFileSync(resolve(file), 'utf8');
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    return { error: `jarvis: ${where}: cannot read it (${why}).` };
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return { error: `jarvis: ${where}: not valid JSON (${(e as Error).message}).` };
  }
  try {
    return {
      controls: await RunControls.open(
        { ...caps, outputSchema: { schema: schema as Record<string, unknown> } },
        startedAt,
        warn,
      ),
    };
  } catch (e) {
    if (e instanceof OutputSchemaError) return { error: `jarvis: ${where}: ${e.message}` };
    throw e;
  }
}

const EXIT_OF = {
  max_turns: EXIT_MAX_TURNS,
  budget_exceeded: EXIT_BUDGET_EXCEEDED,
  timeout: EXIT_TIMEOUT,
  schema_failed: EXIT_SCHEMA_FAILED,
  error: EXIT_FAILURE,
} as const;

/** The exit code: Ctrl-C's stands; otherwise a cap, an unkept budget or a schema failure replaces the run's own. */
export function exitCodeOfVerdict(code: number, controls: RunControls): number {
  if (code === EXIT_INTERRUPTED) return code;
  const verdict = controls.verdict(code === EXIT_SUCCESS);
  return verdict ? EXIT_OF[verdict.outcome] : code;
}

/** What the result event says of the run's controls. */
export function reportOf(controls: RunControls, code: number): RunReport {
  const verdict = code === EXIT_INTERRUPTED ? undefined : controls.verdict(code === EXIT_SUCCESS);
  const structured = controls.structuredOutput();
  const cap = verdict?.cap;
  return {
    ...(structured ? { structuredOutput: structured } : {}),
    ...(verdict ? { error: verdict.error } : {}),
    ...(verdict?.schemaErrors ? { schemaErrors: verdict.schemaErrors } : {}),
    ...(cap ? { cap: { name: cap.name, limit: cap.limit, used: cap.used } } : {}),
  };
}
