// Print mode's text output: "transcript style". Each assistant or thinking message starts with "• "
// and its following lines are indented two spaces. Assistant text goes to stdout; thinking, tool
// activity, retries and notices go to stderr, so stdout stays the answer alone. A step's text is held
// until its response is final: a retry after a partly streamed answer discards the partial text
// (as the journal does), so stdout never holds two attempts (docs/print-mode.md).
import type { EngineEventBody } from '../engine/loop/events';
import { streamJsonMessage } from '../engine/runtime/streamJson';

export interface Sink {
  write(text: string): void;
}

/** Writes streamed text as a bullet block: "• " before the first line, two spaces before the rest. */
class BulletStream {
  private open = false;
  private atLineStart = true;
  constructor(private readonly sink: Sink) {}

  push(delta: string): void {
    if (!delta) return;
    let out = '';
    for (const ch of delta) {
      // Blank lines inside a message stay blank (no trailing indent); the bullet waits for text.
      if (this.atLineStart && !(this.open && ch === '\n')) {
        out += this.open ? '  ' : '• ';
        this.open = true;
        this.atLineStart = false;
      }
      out += ch;
      if (ch === '\n') this.atLineStart = true;
    }
    this.sink.write(out);
  }

  end(): void {
    if (this.open && !this.atLineStart) this.sink.write('\n');
    this.open = false;
    this.atLineStart = true;
  }
}

/** The one line a tool result gets on stderr; an error keeps more of its message. */
const RESULT_LINE_MAX_CHARS = 200;
const ERROR_LINE_MAX_CHARS = 400;

/** Shortens at a word boundary (a path or a number is never cut in half) and says it did. */
export function clipAtWord(line: string, max: number): string {
  if (line.length <= max) return line;
  const space = line.lastIndexOf(' ', max - 1);
  return `${line.slice(0, space > max / 2 ? space : max - 1).trimEnd()} …`;
}

/**
 * A tool result's text as one line. An error whose first line only introduces what follows ("Invalid arguments for
 * Edit:" above a list of the fields) keeps what it introduces: the listed items joined with "; ", or the next line.
 */
export function resultLine(text: string, isError: boolean): string {
  const lines = text.split('\n').map((l) => l.trim());
  const first = lines.findIndex((l) => l !== '');
  if (first === -1) return '';
  const head = lines[first];
  if (!isError || !head.endsWith(':')) return head;
  const items: string[] = [];
  for (const line of lines.slice(first + 1)) {
    const item = /^[-•*]\s+(.*)$/.exec(line)?.[1];
    if (item !== undefined) items.push(item);
    else if (items.length || line === '') break;
    else {
      items.push(line);
      break;
    }
  }
  return items.length ? `${head} ${items.join('; ')}` : head;
}

export class TranscriptWriter {
  private readonly text: BulletStream;
  private readonly thinking: BulletStream;
  /** The text of the step being streamed, not yet known to be final. */
  private held = '';
  /**
   * The calls of the last response, numbered when it made several (they may run in parallel and end in any order):
   * each call's line and its result's line carry its number (docs/print-mode.md).
   */
  private numbers = new Map<string, number>();

  constructor(
    private readonly stdout: Sink,
    private readonly stderr: Sink,
  ) {
    this.text = new BulletStream(stdout);
    this.thinking = new BulletStream(stderr);
  }

  handle(event: EngineEventBody): void {
    switch (event.type) {
      case 'thinking_delta':
        this.thinking.push(event.delta);
        return;
      case 'text_delta':
        this.thinking.end();
        this.held += event.delta;
        return;
      case 'assistant_message':
        this.thinking.end();
        this.release();
        this.numbers = new Map(event.toolCalls.length > 1 ? event.toolCalls.map((c, i) => [c.id, i + 1]) : []);
        return;
      case 'tool_call':
        this.stderr.write(`• ${this.label(event.call.id)}${event.subject}\n`);
        return;
      case 'tool_result': {
        const first =
          event.summary ??
          clipAtWord(
            resultLine(event.text, event.isError),
            event.isError ? ERROR_LINE_MAX_CHARS : RESULT_LINE_MAX_CHARS,
          );
        this.stderr.write(`  ${event.isError ? '✗' : '⎿'} ${this.label(event.callId)}${first}\n`);
        return;
      }
      case 'retry':
        this.held = '';
        this.thinking.end();
        this.stderr.write(
          `  ↻ ${event.error} — retrying in ${(event.delayMs / 1000).toFixed(1)} s (attempt ${event.attempt + 1} of ${event.maxAttempts})\n`,
        );
        return;
      case 'notice':
        this.stderr.write(`${event.level === 'error' ? 'error' : event.level}: ${event.text}\n`);
        return;
      case 'turn_end':
        // A cancelled step keeps its partial text (the journal does too).
        this.thinking.end();
        this.release();
        if ((event.reason === 'max_steps' || event.reason === 'blocked') && event.error)
          this.stderr.write(`${event.error}\n`);
        return;
      default:
        return;
    }
  }

  /** `[2] ` for the second call of a response that made several; '' otherwise. */
  private label(callId: string): string {
    const n = this.numbers.get(callId);
    return n === undefined ? '' : `[${n}] `;
  }

  private release(): void {
    this.text.push(this.held);
    this.held = '';
    this.text.end();
  }
}

/** stream-json: one JSON object per stdout line (engine/runtime/streamJson.ts); notices and blocks also on stderr. */
export class StreamJsonWriter {
  constructor(
    private readonly stdout: Sink,
    private readonly stderr: Sink,
  ) {}

  handle(event: EngineEventBody): void {
    if (event.type === 'notice') this.stderr.write(`${event.level}: ${event.text}\n`);
    if (event.type === 'turn_end' && event.reason === 'blocked' && event.error) this.stderr.write(`${event.error}\n`);
    // docs/print-mode.md: an error is an event on stdout as well, so a script never sees an empty stdout.
    const message = streamJsonMessage(event);
    if (message) this.stdout.write(`${JSON.stringify(message)}\n`);
  }
}
