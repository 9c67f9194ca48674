// Print mode (`jarvis -p`): one prompt, no human. The run itself is engine/runtime/headlessRun.ts; this renders
// its events as text or stream-json.
import { MAIN_AGENT_ID, type EngineEvent } from '../engine/loop/events';
import { SubagentProgress } from './subagentProgress';
import { StreamJsonWriter, TranscriptWriter, type Sink } from './transcriptWriter';

export type PrintFormat = 'text' | 'stream-json' | 'json';

/** Where nothing goes: `--output-format json` writes only its one object at the end (printResult.ts). */
const nowhere: Sink = { write: () => undefined };

export function makePrintRenderer(format: PrintFormat, stdout: Sink, stderr: Sink): (event: EngineEvent) => void {
  const writer =
    format === 'stream-json'
      ? new StreamJsonWriter(stdout, stderr)
      : new TranscriptWriter(format === 'json' ? nowhere : stdout, stderr);
  // The transcript is the main agent's; subagents' activity is progress on stderr, never mixed into it.
  const subagents = new SubagentProgress(stderr);
  return (event) => {
    if (subagents.handle(event)) return;
    if (event.agentId === MAIN_AGENT_ID) writer.handle(event);
  };
}
