// Print mode's end of a run (docs/print-mode.md): in stream-json, an error outside the turn is written at once as
// an `error` line, and the `result` (engine/runtime/runResult.ts) is the last line; `--output-format json` writes only
// the result, as its one object; text mode writes neither.
import type { EngineEvent } from '../engine/loop/events';
import { RunResultRecorder, type RunReport } from '../engine/runtime/runResult';
import type { Sink } from './transcriptWriter';

export class PrintResultRecorder {
  private readonly recorder = new RunResultRecorder();

  constructor(
    private readonly format: 'text' | 'stream-json' | 'json',
    private readonly stdout: Sink,
  ) {}

  observe(event: EngineEvent): void {
    this.recorder.observe(event);
  }

  runEnded(report: RunReport): void {
    this.recorder.runEnded(report);
  }

  session(id: string, model: string): void {
    this.recorder.session(id, model);
  }

  /** A failure outside the turn: kept for the result and, in stream-json, written at once (stdout says what stderr says). */
  error(message: string): void {
    this.recorder.error(message);
    if (this.format === 'stream-json') this.stdout.write(`${JSON.stringify({ type: 'error', message })}\n`);
  }

  /** Writes the result line (stream-json) or the one object (json); text mode writes nothing. */
  finish(code: number): number {
    if (this.format !== 'text') this.stdout.write(`${JSON.stringify(this.recorder.build(code))}\n`);
    return code;
  }
}
