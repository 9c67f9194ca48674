// Where a compaction cuts and what the summariser reads (the compactor is compaction.ts): the levels of growing
// cuts, the cut point that never separates a tool call from its result, and the conversation as plain text.
import { estimateMessageTokens } from '../../llm/tokens';
import type { ContentPart, Message } from '../../llm/types';
import { chipOfPart } from './attachmentTags';

/** Growing cuts: each level keeps less verbatim and shortens tool output more for the summariser. */
export const LEVELS = [
  { keepRatio: 0.25, keepExchanges: 2, toolChars: 4_000, argChars: 2_000 },
  { keepRatio: 0.1, keepExchanges: 1, toolChars: 1_000, argChars: 500 },
  { keepRatio: 0, keepExchanges: 0, toolChars: 200, argChars: 200 },
] as const;
/** Share of the window the summariser's input may use (the rest is its prompt and its answer). */
export const SUMMARISER_INPUT_RATIO = 0.6;

/**
 * Where to cut: the kept tail starts at `cut`. A cut never falls between a tool call and its result;
 * it prefers the start of a user exchange, and keeps at most `keepExchanges` prompts and `budget`
 * tokens (or as little as it can when nothing fits). Undefined when nothing beyond `start` (a
 * previous note) could be summarised.
 */
export function chooseCut(
  messages: readonly Message[],
  start: number,
  keepExchanges: number,
  budget: number,
): number | undefined {
  const n = messages.length;
  const boundaries: number[] = [];
  const open = new Set<string>();
  for (let i = 0; i <= n; i++) {
    const m = messages[i] as Message | undefined;
    // A user message ends any calls still open before it: their results never came.
    const valid = m?.role === 'user' || (open.size === 0 && m?.role !== 'tool');
    if (i > start && valid) boundaries.push(i);
    if (!m) break;
    if (m.role === 'user') open.clear();
    else if (m.role === 'assistant') for (const c of m.toolCalls ?? []) open.add(c.id);
    else open.delete(m.toolCallId);
  }
  const tailTokens: number[] = new Array(n + 1).fill(0);
  const tailPrompts: number[] = new Array(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    tailTokens[i] = tailTokens[i + 1] + estimateMessageTokens([messages[i]]);
    tailPrompts[i] = tailPrompts[i + 1] + (messages[i].role === 'user' ? 1 : 0);
  }
  const fits = (i: number) => tailTokens[i] <= budget && tailPrompts[i] <= keepExchanges;
  return (
    boundaries.find((i) => i < n && messages[i].role === 'user' && fits(i)) ??
    boundaries.find(fits) ??
    boundaries.at(-1)
  );
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters cut]`;
}

function partsText(parts: readonly ContentPart[]): string {
  return parts.map((p) => (p.type === 'text' ? p.text : `[image ${p.mediaType}]`)).join('\n');
}

/** A user message for the summariser: an `@path` attachment is shortened like a tool's output (it is one). */
function userText(parts: readonly ContentPart[], maxChars: number): string {
  return parts
    .map((p) => {
      if (p.type !== 'text') return `[image ${p.mediaType}]`;
      return chipOfPart(p) === undefined ? p.text : clip(p.text, maxChars);
    })
    .join('\n');
}

/** The conversation as plain text for the summariser (no tool schemas needed, tool output shortened). */
export function renderTranscript(
  messages: readonly Message[],
  level: (typeof LEVELS)[number],
  hasNote: boolean,
): string[] {
  return messages.map((m, i) => {
    if (m.role === 'user')
      return `${hasNote && i === 0 ? '[earlier hand-off note]' : '[user]'}\n${userText(m.content, level.toolChars)}`;
    if (m.role === 'tool')
      return `[tool result: ${m.toolName}${m.isError ? ', error' : ''}]\n${clip(partsText(m.content), level.toolChars)}`;
    const calls = (m.toolCalls ?? []).map((c) => `[tool call: ${c.name}] ${clip(c.arguments, level.argChars)}`);
    return ['[assistant]', m.text, ...calls].filter(Boolean).join('\n');
  });
}
