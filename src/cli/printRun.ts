// Print mode's run controls (docs/print-mode.md "Structured output", "Caps"): --output-schema read and checked and
// the caps parsed (the verdict at the end is engine/runtime/headlessRun.ts's).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OutputSchemaError, RunControls } from '../engine/runtime/runControls';
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
