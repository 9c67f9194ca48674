// Turns the server's two shapes of a conversation into UI items: the snapshot's messages (the engine's own
// shape: docs/server.md "snapshot") and the `message` events' stream-json messages (docs/print-mode.md).
import type { Item } from './types';

interface Part {
  type: string;
  text?: string;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return (content as Part[])
      .map((p) => (p.type === 'text' ? (p.text ?? '') : p.type === 'image' ? '[image]' : ''))
      .join('');
  return '';
}

// Text the engine adds to a user message for the model (src/ui/transcript/replay.ts reads it back the same way):
// reminders and notifications are not the user's words; an `@path` attachment shows as its chip, a skill as its
// name, a shell command's and recalled memories' blocks not at all.
const INJECTED = /^<(system-notification|system-reminder|goal-mode)>/;
const ATTACHMENT = /^<attached-(?:file|image|folder|resource) path="([^"]*)" label="([^"]*)">/;
const SKILL = /^<skill name="([^"]*)"/;
const unattr = (v: string) =>
  v
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** What a user message of the history shows: undefined for one the engine injected (or a compaction summary). */
export function userShown(content: unknown): string | undefined {
  const parts: Part[] =
    typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  const shown: string[] = [];
  let afterAttachment = false;
  for (const p of parts) {
    const text = p.type === 'text' ? (p.text ?? '') : '';
    const attached = ATTACHMENT.exec(text);
    const skill = SKILL.exec(text);
    if (attached) shown.push(`[@${unattr(attached[1])} ${unattr(attached[2])}]`);
    else if (skill) shown.push(`[skill ${unattr(skill[1])}]`);
    else if (p.type === 'image') {
      if (!afterAttachment) shown.push('[image]');
    } else if (p.type === 'text') shown.push(text);
    afterAttachment = attached !== null || (afterAttachment && p.type === 'image');
  }
  const text = shown.join('\n');
  if (INJECTED.test(text) || text.startsWith('<compaction-summary>')) return undefined;
  const cleaned = text
    .replace(/<shell-command>[\s\S]*?<\/shell-command>\n?/g, '')
    .replace(/<recalled-memories trust="untrusted">[\s\S]*?<\/recalled-memories>/g, '')
    .trim();
  return cleaned || undefined;
}

export function parseArgs(raw: unknown): Record<string, unknown> {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw !== 'string') return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { input: v };
  } catch {
    return { input: raw };
  }
}

/** With the tool results placed on their calls. */
function withResult(items: Item[], callId: string, result: string, isError: boolean): Item[] {
  const i = items.findIndex((it) => it.kind === 'tool' && it.id === `t:${callId}`);
  if (i < 0) return items;
  const copy = items.slice();
  copy[i] = { ...(items[i] as Extract<Item, { kind: 'tool' }>), result, isError };
  return copy;
}

interface EngineMessage {
  role: string;
  content?: unknown;
  text?: string;
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  toolCallId?: string;
  isError?: boolean;
}

export function itemsFromSnapshot(messages: EngineMessage[]): Item[] {
  let items: Item[] = [];
  messages.forEach((m, n) => {
    if (m.role === 'user') {
      const text = userShown(m.content);
      if (text !== undefined) items.push({ kind: 'user', id: `m:${n}`, text });
    } else if (m.role === 'assistant') {
      if (m.text) items.push({ kind: 'assistant', id: `m:${n}`, text: m.text });
      for (const c of m.toolCalls ?? [])
        items.push({ kind: 'tool', id: `t:${c.id}`, name: c.name, args: parseArgs(c.arguments) });
    } else if (m.role === 'tool' && m.toolCallId)
      items = withResult(items, m.toolCallId, textOf(m.content), m.isError === true);
  });
  return items;
}

export interface StreamMessage {
  type?: string;
  role?: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  is_error?: boolean;
  message?: string;
  outcome?: string;
  error?: string | null;
  attempt?: number;
  max_attempts?: number;
  message_id?: string;
}

/** One stream-json message applied to the items; `seq` makes the new items' ids unique. */
export function applyStreamMessage(items: Item[], m: StreamMessage, seq: number): Item[] {
  if (m.role === 'assistant') {
    // The whole response replaces what streamed of it.
    const kept = items.filter((it) => !(it.kind === 'assistant' && it.streaming) && it.kind !== 'thinking');
    const text = textOf(m.content);
    const added: Item[] = text ? [{ kind: 'assistant', id: `e:${seq}`, text }] : [];
    for (const c of m.tool_calls ?? [])
      added.push({ kind: 'tool', id: `t:${c.id}`, name: c.function.name, args: parseArgs(c.function.arguments) });
    return [...kept, ...added];
  }
  if (m.role === 'tool' && m.tool_call_id)
    return withResult(items, m.tool_call_id, textOf(m.content), m.is_error === true);
  if (m.type === 'error')
    return [...items, { kind: 'notice', id: `e:${seq}`, text: m.message ?? 'error', level: 'error' }];
  if (m.type === 'retry')
    // What streamed of the retried response is discarded (docs/server.md "Live events").
    return [
      ...items.filter((it) => !(it.id.startsWith('s:') && it.id.endsWith(`:${String(m.message_id)}`))),
      { kind: 'notice', id: `e:${seq}`, text: `retrying (${m.attempt}/${m.max_attempts})`, level: 'info' },
    ];
  if (m.type === 'result' && m.outcome && m.outcome !== 'success')
    return [
      ...items.filter((it) => !(it.kind === 'assistant' && it.streaming) && it.kind !== 'thinking'),
      {
        kind: 'notice',
        id: `e:${seq}`,
        text: `turn ended: ${m.outcome}${m.error && m.error !== m.outcome ? ` (${m.error})` : ''}`,
        level: m.outcome === 'interrupted' ? 'info' : 'error',
      },
    ];
  return items;
}

/** A streamed piece of text or thinking (`message.delta`, volatile) appended to its message. */
export function applyDelta(items: Item[], p: { message_id?: unknown; kind?: unknown; delta?: unknown }): Item[] {
  if (typeof p.delta !== 'string') return items;
  const kind = p.kind === 'thinking' ? 'thinking' : 'assistant';
  const id = `s:${kind}:${String(p.message_id)}`;
  const i = items.findIndex((it) => it.id === id);
  if (i < 0)
    return [...items, kind === 'thinking' ? { kind, id, text: p.delta } : { kind, id, text: p.delta, streaming: true }];
  const copy = items.slice();
  const old = items[i] as Extract<Item, { kind: 'assistant' | 'thinking' }>;
  copy[i] = { ...old, text: old.text + p.delta };
  return copy;
}
