// The tagged text part an `@path` attachment is sent as (docs/ui.md "Attaching files"): `<attached-file path="…"
// label="120 lines">…</attached-file>`, and the chip a front end or a compaction note shows instead of its content.
// The attaching itself is engine/runtime/promptAttachments.ts; this folder reads the tags back (compaction).
import type { ContentPart } from '../../llm/types';

export type AttachmentKind = 'file' | 'image' | 'folder';

const TAG = /^<attached-(file|image|folder) path="([^"]*)" label="([^"]*)">/;

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function unattr(value: string): string {
  return value
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** A mention's chip as the transcript shows it. */
export function attachmentChip(mention: string, label: string): string {
  return `[@${mention} ${label}]`;
}

/** The chip of an attachment part (from attachMentions), or undefined for any other part. */
export function chipOfPart(part: ContentPart): string | undefined {
  if (part.type !== 'text') return undefined;
  const m = TAG.exec(part.text);
  return m ? attachmentChip(unattr(m[2]), unattr(m[3])) : undefined;
}

/** The text of an attachment part. */
export function attachmentTag(kind: AttachmentKind, shown: string, label: string, body: string): string {
  return `<attached-${kind} path="${attr(shown)}" label="${attr(label)}">\n${body}\n</attached-${kind}>`;
}
