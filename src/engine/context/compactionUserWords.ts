// The user's own words survive a compaction verbatim (docs/plan-goals-context.md, "Compaction"). A summary can forget or
// distort an instruction; the user's messages are short and decisive, so the note that opens the new
// context carries them as written — first the prompt of the turn in progress, then the most recent
// others, newest first, within USER_WORDS_RATIO of the input window — before the summary.
import { estimateTokens } from '../../llm/tokens';
import type { ContentPart, Message } from '../../llm/types';
import { chipOfPart } from './attachmentTags';

/** Share of the input window the user's verbatim messages may take in a compaction note. */
export const USER_WORDS_RATIO = 0.2;

const OPEN = '<user-message>\n';
const CLOSE = '\n</user-message>';
const HEADER =
  '<user-messages>\nMessages the user wrote in the compacted part of the conversation, verbatim and oldest first (older ones may be left out for space). They outrank the hand-off note below where the two disagree.\n</user-messages>';

/** Text the engine injects for the model (reminders, notifications, notes) is not the user's. */
const INJECTED =
  /^<(system-notification|system-reminder|goal-mode|compaction-summary|user-messages|user-message|current-state)>/;

function partText(part: ContentPart): string {
  return part.type === 'text' ? part.text : `[image ${part.mediaType}]`;
}

/** The opening message a compaction leaves (it carries the `<compaction-summary>` block). */
export function isCompactionNote(message: Message): boolean {
  return (
    message.role === 'user' &&
    message.content.some((p) => p.type === 'text' && p.text.startsWith('<compaction-summary>'))
  );
}

/**
 * The user's own text in a message, or undefined for tool results, answers and injected text. An `@path` attachment is
 * the file's content, not the user's words: it is carried as its chip (`[@src/a.ts 800 lines]`) and the summary covers
 * what it held.
 */
function userWordsOf(message: Message): string | undefined {
  if (message.role !== 'user') return undefined;
  const text = message.content
    .map((p) => chipOfPart(p) ?? partText(p))
    .join('\n')
    .trim();
  return text && !INJECTED.test(text) ? text : undefined;
}

/** The user messages a previous note carried, oldest first. */
function carriedBy(note: Message): string[] {
  if (note.role !== 'user') return [];
  return note.content.flatMap((p) =>
    p.type === 'text' && p.text.startsWith(OPEN) && p.text.endsWith(CLOSE)
      ? [p.text.slice(OPEN.length, -CLOSE.length)]
      : [],
  );
}

function clipToTokens(text: string, budget: number): string {
  if (estimateTokens(text) <= budget) return text;
  let end = Math.max(0, budget * 4);
  while (end > 0 && estimateTokens(text.slice(0, end)) > budget) end = Math.floor(end * 0.9);
  return `${text.slice(0, end)}\n… [${text.length - end} more characters cut: the message was longer than the space kept for the user's words]`;
}

/**
 * The content parts that carry the user's words into the note, or [] when there are none. `replaced`
 * are the messages the note replaces (a previous note first when `hasNote`); `inProgress` is the index
 * there of the prompt of the turn still running, which is always kept (cut only if it alone exceeds
 * the budget).
 */
export function userWordsParts(
  replaced: readonly Message[],
  hasNote: boolean,
  inProgress: number | undefined,
  budgetTokens: number,
): ContentPart[] {
  const candidates: Array<{ text: string; current: boolean }> = [];
  if (hasNote && replaced.length) for (const text of carriedBy(replaced[0])) candidates.push({ text, current: false });
  replaced.forEach((m, i) => {
    if (hasNote && i === 0) return;
    const text = userWordsOf(m);
    if (text) candidates.push({ text, current: i === inProgress });
  });
  if (!candidates.length) return [];

  const chosen = new Set<number>();
  let left = budgetTokens;
  const current = candidates.findIndex((c) => c.current);
  if (current >= 0) {
    candidates[current].text = clipToTokens(candidates[current].text, budgetTokens);
    left -= estimateTokens(candidates[current].text);
    chosen.add(current);
  }
  for (let i = candidates.length - 1; i >= 0; i--) {
    if (chosen.has(i)) continue;
    const cost = estimateTokens(candidates[i].text);
    if (cost > left) break;
    left -= cost;
    chosen.add(i);
  }
  const kept = candidates.filter((_, i) => chosen.has(i));
  return [
    { type: 'text', text: HEADER },
    ...kept.map((c): ContentPart => ({ type: 'text', text: `${OPEN}${c.text}${CLOSE}` })),
  ];
}
