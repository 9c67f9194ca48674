import { describe, expect, it } from 'vitest';
import { clipAtWord, resultLine, StreamJsonWriter, TranscriptWriter } from '../../src/print/transcriptWriter';

function sinks() {
  const out = {
    text: '',
    write(s: string) {
      this.text += s;
    },
  };
  const err = {
    text: '',
    write(s: string) {
      this.text += s;
    },
  };
  return { out, err };
}

describe('print writers', () => {
  it('text: bullets each message, indents continuation lines, keeps blank lines blank, thinking to stderr', () => {
    const { out, err } = sinks();
    const w = new TranscriptWriter(out, err);
    w.handle({ type: 'thinking_delta', delta: 'hmm\nyes' });
    for (const d of ['Fir', 'st\n\nsec', 'ond']) w.handle({ type: 'text_delta', delta: d });
    w.handle({ type: 'assistant_message', text: 'First\n\nsecond', toolCalls: [] });
    w.handle({ type: 'text_delta', delta: 'Next message' });
    w.handle({ type: 'turn_end', turnId: 't', reason: 'completed' });
    expect(out.text).toBe('• First\n\n  second\n• Next message\n');
    expect(err.text).toBe('• hmm\n  yes\n');
  });

  it('stream-json: one JSON object per line, no thinking', () => {
    const { out, err } = sinks();
    const w = new StreamJsonWriter(out, err);
    w.handle({ type: 'thinking_delta', delta: 'secret' });
    w.handle({
      type: 'assistant_message',
      text: '',
      toolCalls: [{ id: 'c', name: 'Read', arguments: '{"path":"a"}' }],
    });
    w.handle({ type: 'tool_result', callId: 'c', toolName: 'Read', text: '1\tx', isError: false });
    w.handle({ type: 'retry', attempt: 1, maxAttempts: 10, delayMs: 5, error: 'slow' });
    const lines = out.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'Read', arguments: '{"path":"a"}' } }],
      },
      { role: 'tool', tool_call_id: 'c', name: 'Read', content: '1\tx' },
      { type: 'retry', attempt: 1, max_attempts: 10, delay_ms: 5, error: 'slow' },
    ]);
    expect(out.text).not.toContain('secret');
  });

  it('stream-json: an error notice is an error event on stdout and a line on stderr; warnings stay on stderr', () => {
    const { out, err } = sinks();
    const w = new StreamJsonWriter(out, err);
    w.handle({ type: 'notice', level: 'warning', text: 'slow disk' });
    w.handle({ type: 'notice', level: 'error', text: 'Authentication failed (401)' });
    expect(out.text).toBe('{"type":"error","message":"Authentication failed (401)"}\n');
    expect(err.text).toBe('warning: slow disk\nerror: Authentication failed (401)\n');
  });

  it('a long tool-error line on stderr is shortened at a word boundary, never mid-word', () => {
    const { out, err } = sinks();
    const w = new TranscriptWriter(out, err);
    const message = `${'The file could not be written because '.repeat(12)}/very/long/path/that/must/stay/whole.txt is read-only`;
    w.handle({ type: 'tool_result', callId: 'c', toolName: 'Write', text: message, isError: true });
    const line = err.text.trimEnd();
    expect(line.startsWith('  ✗ The file could not be written')).toBe(true);
    expect(line.endsWith(' …')).toBe(true);
    const kept = line.slice('  ✗ '.length, -' …'.length);
    expect(message.startsWith(kept)).toBe(true);
    expect(message[kept.length]).toBe(' '); // cut before a space: the last word is whole
    expect(clipAtWord('short line', 400)).toBe('short line');
  });
});

describe('print text writer: calls and their results', () => {
  it('the calls of one response are numbered and each result carries its call number, whatever order they end in', () => {
    const { out, err } = sinks();
    const w = new TranscriptWriter(out, err);
    const calls = [
      { id: 'a', name: 'Read', arguments: '{}' },
      { id: 'b', name: 'Grep', arguments: '{}' },
    ];
    w.handle({ type: 'assistant_message', text: '', toolCalls: calls });
    w.handle({ type: 'tool_call', call: calls[0], subject: 'Read(a.ts)' });
    w.handle({ type: 'tool_call', call: calls[1], subject: 'Grep(x)' });
    w.handle({ type: 'tool_result', callId: 'b', toolName: 'Grep', text: 'no matches', isError: false });
    w.handle({ type: 'tool_result', callId: 'a', toolName: 'Read', text: 'gone', isError: true });
    const single = { id: 'c', name: 'Read', arguments: '{}' };
    w.handle({ type: 'assistant_message', text: '', toolCalls: [single] });
    w.handle({ type: 'tool_call', call: single, subject: 'Read(b.ts)' });
    w.handle({ type: 'tool_result', callId: 'c', toolName: 'Read', text: 'ok', isError: false });
    expect(err.text).toBe('• [1] Read(a.ts)\n• [2] Grep(x)\n  ⎿ [2] no matches\n  ✗ [1] gone\n• Read(b.ts)\n  ⎿ ok\n');
  });

  it('an error line that only introduces a list keeps the list; other results keep their first line', () => {
    const invalid =
      'Invalid arguments for Edit:\n- old_string: is required\n- path: must be string\nFix the arguments.';
    expect(resultLine(invalid, true)).toBe('Invalid arguments for Edit: old_string: is required; path: must be string');
    expect(resultLine('Could not edit:\nthe file changed on disk\n\nRead it again.', true)).toBe(
      'Could not edit: the file changed on disk',
    );
    expect(resultLine('\nFound 2 files:\na.ts\nb.ts', false)).toBe('Found 2 files:');
    expect(resultLine('Nothing to list:', true)).toBe('Nothing to list:');
  });
});

describe('print text writer and retries', () => {
  it('a retry discards the partial text of the step; stdout gets the second attempt only', () => {
    const out = {
      text: '',
      write(s: string) {
        this.text += s;
      },
    };
    const err = {
      text: '',
      write(s: string) {
        this.text += s;
      },
    };
    const w = new TranscriptWriter(out, err);
    for (const d of ['The answer ', 'is 4']) w.handle({ type: 'text_delta', delta: d });
    expect(out.text).toBe('');
    w.handle({ type: 'retry', attempt: 1, maxAttempts: 3, delayMs: 1000, error: 'stalled' });
    for (const d of ['The answer ', 'is 42.']) w.handle({ type: 'text_delta', delta: d });
    w.handle({ type: 'assistant_message', text: 'The answer is 42.', toolCalls: [] });
    expect(out.text).toBe('• The answer is 42.\n');
    expect(err.text).toContain('↻ stalled — retrying in 1.0 s');
  });

  it('a cancelled step keeps its partial text, as the journal does', () => {
    const out = {
      text: '',
      write(s: string) {
        this.text += s;
      },
    };
    const w = new TranscriptWriter(out, { write: () => undefined });
    w.handle({ type: 'text_delta', delta: 'half an ans' });
    w.handle({ type: 'turn_end', turnId: 't', reason: 'cancelled' });
    expect(out.text).toBe('• half an ans\n');
  });
});
