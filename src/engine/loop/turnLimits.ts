// The bounds on one turn that keep a model (or a hook) from running it forever (docs/configuration.md,
// "Loop limits"): the same invalid call repeated, the same valid call repeated with the same result,
// Stop-hook continuations, and empty answers. Each bound says, when it is hit, what happened to both
// the user (a notice or the turn's error) and the model (a note in the result it reads next).
import type { ContentPart, Message, ToolCall } from '../../llm/types';
import { savedOutputIdentity } from '../../store/toolOutputs';
import { callKey } from './duplicateCalls';

type ToolMessage = Extract<Message, { role: 'tool' }>;

/**
 * How often the very same invalid call (same tool, same arguments) may come in a row before the turn
 * stops. Different mistakes never stop a turn: each gets an error the model can learn from.
 */
export const MAX_REPEATED_INVALID_CALLS = 5;

/** From this many identical valid calls in a row (same arguments, same result), each result carries a warning. */
export const REPEATED_CALL_WARNING_AT = 3;
/** At this many identical valid calls in a row, the turn ends. */
export const MAX_REPEATED_CALLS = 5;

/** How many times Stop hooks may keep one turn going (docs/hooks.md). */
export const MAX_STOP_CONTINUATIONS_PER_TURN = 5;

/** How many times in a row one step may get an empty answer (no text, no tool call) before the turn fails. */
export const MAX_EMPTY_RESPONSES = 3;

/** Tracks the run of identical invalid calls across the steps of one turn. */
export class InvalidCallStreak {
  private key: string | undefined;
  private count = 0;
  private name = '';

  /** Feeds one step's calls in order; returns a stop message once the same invalid call repeats too often. */
  add(calls: readonly ToolCall[], invalid: readonly boolean[]): string | undefined {
    calls.forEach((call, i) => {
      if (!invalid[i]) {
        this.key = undefined;
        this.count = 0;
        return;
      }
      const key = callKey(call);
      this.count = key === this.key ? this.count + 1 : 1;
      this.key = key;
      this.name = call.name;
    });
    if (this.count < MAX_REPEATED_INVALID_CALLS) return undefined;
    return (
      `The model sent the same invalid ${this.name} call (same arguments) ${this.count} times in a row; ` +
      'the turn was stopped. Send a message to continue.'
    );
  }
}

export interface RepeatVerdict {
  /** Warnings for the user, one per call that repeated REPEATED_CALL_WARNING_AT times or more. */
  warnings: string[];
  /** Set when a call repeated MAX_REPEATED_CALLS times: the turn ends with this error. */
  stop?: string;
}

/**
 * Tracks the run of identical valid calls (same tool, same arguments, same result) across the steps
 * of one turn. A call whose result changed is not a loop (polling a task that makes progress); an
 * invalid call is InvalidCallStreak's. From the third repeat the model's result carries a warning; at
 * the fifth the turn ends, and the last result says so. `results` is edited in place. Identical calls
 * of one response are fed once (duplicateCalls.ts answers the others). A long output saved to a file is
 * compared by what was saved, never by the file's name, which is new for every call.
 */
export class RepeatedCallStreak {
  private key: string | undefined;
  private count = 0;

  /** `scratchDir`: the session's scratch folder, whose saved tool outputs the results may name. */
  constructor(private readonly scratchDir?: string) {}

  add(calls: readonly ToolCall[], invalid: readonly boolean[], results: Message[]): RepeatVerdict {
    const verdict: RepeatVerdict = { warnings: [] };
    calls.forEach((call, i) => {
      const result = results.find((m): m is ToolMessage => m.role === 'tool' && m.toolCallId === call.id);
      if (invalid[i] || !result) {
        this.key = undefined;
        this.count = 0;
        return;
      }
      const key = `${callKey(call)}\u0000${this.identityOf(result)}\u0000${result.isError ? 1 : 0}`;
      this.count = key === this.key ? this.count + 1 : 1;
      this.key = key;
      if (this.count >= MAX_REPEATED_CALLS) {
        verdict.stop ??=
          `The model made the same ${call.name} call (same arguments, same result) ${this.count} times in a row; ` +
          'the turn was stopped. Send a message to continue.';
        result.content = [...result.content, { type: 'text', text: `\n\n[${verdict.stop}]` }];
      } else if (this.count >= REPEATED_CALL_WARNING_AT) {
        verdict.warnings.push(
          `The model made the same ${call.name} call ${this.count} times in a row with the same result; ` +
            `at ${MAX_REPEATED_CALLS} the turn stops.`,
        );
        const note =
          `Warning: this is call number ${this.count} in a row of exactly this ${call.name} call, and its result has ` +
          'not changed. Repeating it will not give anything new: use the result you have, or do something different. ' +
          `At ${MAX_REPEATED_CALLS} identical calls in a row the turn is stopped.`;
        result.content = [...result.content, { type: 'text', text: `\n\n[${note}]` }];
      }
    });
    return verdict;
  }

  private identityOf(result: ToolMessage): string {
    const dir = this.scratchDir;
    if (!dir) return JSON.stringify(result.content);
    return JSON.stringify(result.content.map((p) => (p.type === 'text' ? savedOutputIdentity(p.text, dir) : p)));
  }
}

/** What a Stop hook's continuation says to the model, with the cap when this is the last one allowed. */
export function stopContinuationText(text: string, count: number): string {
  if (count < MAX_STOP_CONTINUATIONS_PER_TURN) return text;
  const cap = `${count} of ${MAX_STOP_CONTINUATIONS_PER_TURN}`;
  return (
    `${text}\n\n[This is the last time a Stop hook can continue this turn (${cap}); ` +
    'your next answer without a tool call ends it.]'
  );
}

/** The notice and turn error when Stop hooks asked to continue once more than allowed. */
export function stopCapMessage(): string {
  return (
    `A Stop hook asked to continue this turn again after ${MAX_STOP_CONTINUATIONS_PER_TURN} continuations, ` +
    'the most one turn allows; the turn ended. Check the hook (it may block on every stop).'
  );
}

/** The tool results for a response cut off by the output limit: no call of it runs, each says why. */
export function truncatedCallResults(calls: readonly ToolCall[]): Message[] {
  return calls.map((call) => {
    const cut = !parsesAsObject(call.arguments);
    const text = cut
      ? `Not run: your response hit the output token limit while the arguments of this ${call.name} call were being ` +
        'written, so they are incomplete. Send the call again with less in it (for example, write a large file in ' +
        'several smaller calls).'
      : 'Not run: your response hit the output token limit, so it was cut off after this call. Send the calls you ' +
        'still need again, in a shorter response.';
    const content: ContentPart[] = [{ type: 'text', text }];
    return { role: 'tool', toolCallId: call.id, toolName: call.name, content, isError: true };
  });
}

/** True when a response cut off by the output limit left a call's arguments incomplete. */
export function hasCutOffCall(calls: readonly ToolCall[]): boolean {
  return calls.some((c) => !parsesAsObject(c.arguments));
}

function parsesAsObject(raw: string): boolean {
  if (raw.trim() === '') return true;
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}
