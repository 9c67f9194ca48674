// `/export-md`: the session as a Markdown document. It is rendered from the journal, not from the
// context, so it shows the whole conversation — also what a compaction replaced (with the hand-off
// note where the compaction happened) — and leaves out what undo withdrew.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readJournal } from '../../store/journal';
import type { ContentPart, Message } from '../../llm/types';
import { ENV_MODEL_ALIAS } from '../../types/models';
import { isCompactionNote } from '../context/compactionUserWords';
import { isJournalRecord, type CompactionInfo, type JournalRecord, type SessionState } from '../session/records';
import type { Session } from '../session/session';

/** `jarvis-export-<short id>-<UTC timestamp>.md`, the default file name (docs/ui.md). */
export function exportFileName(sessionId: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `jarvis-export-${sessionId.slice(-8).toLowerCase()}-${stamp}.md`;
}

type Entry =
  | { kind: 'turn'; turnId: string }
  | { kind: 'message'; message: Message }
  | { kind: 'compaction'; info: CompactionInfo };

/** What the transcript shows, in order: every message, compaction points, minus undone turns. */
export function transcriptEntries(records: readonly JournalRecord[]): Entry[] {
  const entries: Entry[] = [];
  for (const r of records) {
    if (r.type === 'turn_start') entries.push({ kind: 'turn', turnId: r.turnId });
    else if (r.type === 'message') entries.push({ kind: 'message', message: r.message });
    else if (r.type === 'compaction')
      entries.push({
        kind: 'compaction',
        info: {
          trigger: r.trigger,
          summary: r.summary,
          instruction: r.instruction,
          tokensBefore: r.tokensBefore,
          tokensAfter: r.tokensAfter,
          summarised: r.summarised,
        },
      });
    else if (r.type === 'undo' || (r.type === 'rewind' && r.scope === 'both')) {
      const at = entries.findIndex((e) => e.kind === 'turn' && e.turnId === r.turnId);
      if (at >= 0) entries.length = at;
    }
  }
  return entries;
}

/** A code fence longer than any backtick run inside `text`. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}

function partsText(parts: readonly ContentPart[]): string {
  return parts.map((p) => (p.type === 'text' ? p.text : `*[image: ${p.mediaType}]*`)).join('\n\n');
}

function prettyArguments(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

function renderMessage(m: Message): string[] {
  if (m.role === 'user') {
    if (isCompactionNote(m)) return []; // shown at its compaction point instead
    const text = partsText(m.content);
    const notification = /^<system-notification>\n?([\s\S]*?)\n?<\/system-notification>$/.exec(text);
    if (notification) return ['### Notification', '', notification[1], ''];
    return ['## User', '', text, ''];
  }
  if (m.role === 'tool') {
    return [`**Result** \`${m.toolName}\`${m.isError ? ' (error)' : ''}`, '', fenced(partsText(m.content)), ''];
  }
  const out = ['## Assistant', ''];
  if (m.text.trim()) out.push(m.text, '');
  for (const call of m.toolCalls ?? [])
    out.push(`**Tool call** \`${call.name}\``, '', fenced(prettyArguments(call.arguments), 'json'), '');
  return out;
}

function renderCompaction(c: CompactionInfo): string[] {
  const how = c.trigger === 'manual' ? 'Compacted on request' : 'Compacted automatically';
  return [
    '---',
    '',
    `> ${how}: ${c.summarised} messages (about ${c.tokensBefore} tokens of context) were replaced by the note below; about ${c.tokensAfter} tokens remained.${c.instruction ? ` Instruction: “${c.instruction}”.` : ''}`,
    '',
    '<details><summary>Hand-off note</summary>',
    '',
    c.summary,
    '',
    '</details>',
    '',
    '---',
    '',
  ];
}

/**
 * The model as a reader knows it: a configured alias, or for the JARVIS_MODEL_* variables (whose alias is a
 * placeholder, docs/configuration.md) the provider's model id and where it came from.
 */
export function modelLine(alias: string, modelId?: string): string {
  if (alias === ENV_MODEL_ALIAS)
    return modelId ? `${modelId} (JARVIS_MODEL_* variables)` : 'set by the JARVIS_MODEL_* variables';
  return modelId && modelId !== alias ? `${alias} (${modelId})` : alias;
}

/** `modelId`: the provider's id of the session's model, when the caller knows it. */
export function renderTranscriptMarkdown(
  state: SessionState,
  records: readonly JournalRecord[],
  now = new Date(),
  modelId?: string,
): string {
  const out = [`# ${state.title ?? 'Jarvis session'}`, ''];
  const model = `- Model: ${modelLine(state.modelAlias, modelId)}`;
  out.push(`- Session: \`${state.sessionId}\``, `- Folder: \`${state.workDir}\``, model);
  if (state.createdAt) out.push(`- Started: ${state.createdAt}`);
  if (state.forkedFrom) out.push(`- Forked from: \`${state.forkedFrom}\``);
  out.push(`- Exported: ${now.toISOString()}`, '');
  for (const e of transcriptEntries(records)) {
    if (e.kind === 'message') out.push(...renderMessage(e.message));
    else if (e.kind === 'compaction') out.push(...renderCompaction(e.info));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export class ExportError extends Error {}

/**
 * Writes the transcript. `path` may be a file or an existing folder (relative to `cwd`); by default
 * the file goes to `cwd` under `exportFileName`. Returns where it went.
 */
export function exportMarkdown(
  session: Session,
  opts: { cwd: string; path?: string; now?: Date; modelId?: string },
): { path: string; markdown: string } {
  const now = opts.now ?? new Date();
  const { records } = readJournal(session.journalPath, session.dir, isJournalRecord);
  const markdown = renderTranscriptMarkdown(session.state, records, now, opts.modelId);
  let target = resolve(opts.cwd, opts.path?.trim() || exportFileName(session.id, now));
  if (existsSync(target) && statSync(target).isDirectory()) target = join(target, exportFileName(session.id, now));
  if (!existsSync(dirname(target)))
    throw new ExportError(`Cannot write ${target}: the folder ${dirname(target)} does not exist.`);
  writeFileSync(target, markdown);
  return { path: target, markdown };
}
