import { describe, expect, it } from 'vitest';
import { makePrintRenderer } from '../../src/print/printMode';
import type { EngineEvent } from '../../src/engine/loop/events';

function sinks() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: { write: (t: string) => void out.push(t) },
    stderr: { write: (t: string) => void err.push(t) },
  };
}

const started: EngineEvent = {
  agentId: 'main',
  type: 'subagent',
  change: 'started',
  childId: 'a1',
  agentName: 'explore',
  prompt: 'Find the parser.\nMore.',
  parentCallId: 'c1',
  description: '',
};
const childCall: EngineEvent = {
  agentId: 'a1',
  type: 'tool_call',
  callId: 'x',
  toolName: 'Grep',
  subject: 'Grep parse',
  args: {},
} as unknown as EngineEvent;
const childText: EngineEvent = { agentId: 'a1', type: 'text_delta', delta: 'secret inner answer' } as EngineEvent;
const childFail: EngineEvent = {
  agentId: 'a1',
  type: 'tool_result',
  callId: 'x',
  toolName: 'Grep',
  text: 'rg failed\nstack',
  isError: true,
} as unknown as EngineEvent;
const stopped: EngineEvent = {
  agentId: 'main',
  type: 'subagent',
  change: 'stopped',
  childId: 'a1',
  agentName: 'explore',
  status: 'failed',
  response: '',
  parentCallId: 'c1',
  elapsedMs: 2345,
  error: 'timed out',
};

describe('print mode shows subagents as progress on stderr', () => {
  for (const format of ['text', 'stream-json'] as const) {
    it(`${format}: start, tool calls, failures and the end are named lines on stderr; stdout gets nothing of theirs`, () => {
      const s = sinks();
      const render = makePrintRenderer(format, s.stdout, s.stderr);
      for (const e of [started, childCall, childText, childFail, stopped]) render(e);
      expect(s.out.join('')).toBe('');
      expect(s.err.join('')).toBe(
        '  ↳ explore started: Find the parser.\n' +
          '  ↳ explore: Grep parse\n' +
          '  ↳ explore: ✗ rg failed\n' +
          '  ↳ explore failed after 2.3 s — timed out\n',
      );
    });
  }

  it('the main agent keeps its own transcript', () => {
    const s = sinks();
    const render = makePrintRenderer('text', s.stdout, s.stderr);
    render({ agentId: 'main', type: 'text_delta', delta: 'hello' } as EngineEvent);
    // The step's text is held until its response is final (a retry would drop it: docs/print-mode.md).
    render({ agentId: 'main', type: 'assistant_message', text: 'hello', toolCalls: [] } as unknown as EngineEvent);
    expect(s.out.join('')).toBe('• hello\n');
  });
});
