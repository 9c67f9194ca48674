// Print mode's view of subagents: their activity is progress, so it goes to stderr in both output
// formats (stdout stays the main agent's answer or its JSON stream). One line when a subagent starts,
// one per tool call it makes, one per failed tool result, and one when it stops (docs/print-mode.md).
import type { EngineEvent } from '../engine/loop/events';
import { MAIN_AGENT_ID } from '../engine/loop/events';
import type { Sink } from './transcriptWriter';
import { clipAtWord, resultLine } from './transcriptWriter';

const LINE_MAX_CHARS = 200;

export class SubagentProgress {
  /** childId → the name shown in front of its lines. */
  private readonly names = new Map<string, string>();

  constructor(private readonly stderr: Sink) {}

  /** Handles an event if it concerns a subagent; returns false for the main agent's own events. */
  handle(event: EngineEvent): boolean {
    if (event.type === 'subagent') {
      if (event.change === 'started') {
        this.names.set(event.childId, event.agentName);
        this.write(
          `↳ ${event.agentName} started: ${clipAtWord(oneLine(event.description || event.prompt), LINE_MAX_CHARS)}`,
        );
      } else {
        const seconds = (event.elapsedMs / 1000).toFixed(1);
        const why = event.error ? ` — ${clipAtWord(oneLine(event.error), LINE_MAX_CHARS)}` : '';
        this.write(`↳ ${event.agentName} ${event.status} after ${seconds} s${why}`);
        this.names.delete(event.childId);
      }
      return event.agentId !== MAIN_AGENT_ID;
    }
    if (event.agentId === MAIN_AGENT_ID) return false;
    const name = this.names.get(event.agentId) ?? event.agentId;
    if (event.type === 'tool_call') this.write(`↳ ${name}: ${clipAtWord(oneLine(event.subject), LINE_MAX_CHARS)}`);
    else if (event.type === 'tool_result' && event.isError) {
      this.write(`↳ ${name}: ✗ ${clipAtWord(resultLine(event.text, true), LINE_MAX_CHARS)}`);
    }
    return true;
  }

  private write(line: string): void {
    this.stderr.write(`  ${line}\n`);
  }
}

function oneLine(text: string): string {
  return (
    text
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? ''
  );
}
