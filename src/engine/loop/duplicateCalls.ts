// Identical calls inside one model response (docs/configuration.md, "Loop limits"): a model that fans out the
// same call several times at once is wasteful, not looping. The first of them runs; each other one is answered
// with a result that names the call it duplicates and repeats that call's result, without running anything.
// What makes two calls "the same" (tool and arguments, compared as JSON values) lives here once, for the
// repeat limits of turnLimits.ts too.
import type { ContentPart, Message, ToolCall } from '../../llm/types';

type ToolMessage = Extract<Message, { role: 'tool' }>;

/** The identity of a call: its tool and its arguments as a JSON value (spacing and key order do not matter). */
export function callKey(call: ToolCall): string {
  return `${call.name}\u0000${canonicalArguments(call.arguments)}`;
}

function canonicalArguments(raw: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(raw)));
  } catch {
    return raw;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
  );
}

export interface ResponseCalls {
  /** The calls that run: the first of each set of identical calls, in the model's order. */
  unique: ToolCall[];
  /** Each call that is not run, with the earlier identical call that answers for it. */
  duplicates: Map<string, ToolCall>;
}

/** Splits one response's calls into those that run and the duplicates of an earlier call of the same response. */
export function splitDuplicateCalls(calls: readonly ToolCall[]): ResponseCalls {
  const first = new Map<string, ToolCall>();
  const unique: ToolCall[] = [];
  const duplicates = new Map<string, ToolCall>();
  for (const call of calls) {
    const key = callKey(call);
    const original = first.get(key);
    if (original) {
      duplicates.set(call.id, original);
      continue;
    }
    first.set(key, call);
    unique.push(call);
  }
  return { unique, duplicates };
}

/** The result of a duplicate: which call it repeats, that nothing ran again, and that call's result. */
export function duplicateResult(call: ToolCall, original: ToolCall, answer: ToolMessage): ToolMessage {
  const note: ContentPart = {
    type: 'text',
    text:
      `Duplicate of call ${original.id} in this same response (same ${call.name} call, same arguments): ` +
      `it was not run again. The result of ${original.id} follows.\n\n`,
  };
  return {
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: [note, ...answer.content],
    ...(answer.isError ? { isError: true } : {}),
  };
}

/**
 * The results of all the response's calls in the model's order: the ones that ran, and for each duplicate
 * the answer built from its original's result.
 */
export function resultsInCallOrder(
  calls: readonly ToolCall[],
  ran: readonly Message[],
  split: ResponseCalls,
): Message[] {
  const byId = new Map<string, ToolMessage>();
  for (const m of ran) if (m.role === 'tool') byId.set(m.toolCallId, m);
  return calls.map((call) => {
    const original = split.duplicates.get(call.id);
    const own = byId.get(original ? original.id : call.id);
    if (!own) throw new Error(`no result was made for the ${call.name} call ${original?.id ?? call.id}`);
    return original ? duplicateResult(call, original, own) : own;
  });
}
