// Turns an MCP tool result into what the model receives (docs/mcp.md): text as text, images as image
// parts, resource links and embedded resources as short descriptions (the model can ask for them),
// and `structuredContent` and `_meta` as JSON after the content — some servers put their real answer
// only there.
import type { ContentPart } from '../../llm/types';

/** The parts of a `tools/call` result this maps; the SDK's full type is wider. */
export interface McpCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: unknown;
  /** Results of servers on the 2024-10-07 protocol. */
  toolResult?: unknown;
}

export interface MappedResult {
  content: ContentPart[];
  isError: boolean;
  /** "2 text parts, 1 image" for front ends. */
  summary: string;
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export function mapMcpResult(result: McpCallResult): MappedResult {
  const parts: ContentPart[] = [];
  const counts = new Map<string, number>();
  const count = (kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1);
  for (const item of result.content ?? []) {
    const part = mapContentItem(item);
    count(part.kind);
    parts.push(part.part);
  }
  if (result.toolResult !== undefined) parts.push({ type: 'text', text: json(result.toolResult) });
  if (result.structuredContent !== undefined) {
    const text = json(result.structuredContent);
    // Servers usually repeat the structured value as text; say it once.
    if (!parts.some((p) => p.type === 'text' && sameJson(p.text, result.structuredContent)))
      parts.push({ type: 'text', text: `Structured content:\n${text}` });
    count('structured');
  }
  if (result._meta !== undefined && result._meta !== null && Object.keys(result._meta as object).length)
    parts.push({ type: 'text', text: `Result metadata (_meta):\n${json(result._meta)}` });
  if (!parts.length)
    parts.push({
      type: 'text',
      text: result.isError ? 'The tool failed and returned no message.' : 'The tool returned no content.',
    });
  const summary = [...counts].map(([k, n]) => `${n} ${k}`).join(', ') || 'no content';
  return { content: parts, isError: result.isError === true, summary };
}

function mapContentItem(item: unknown): { kind: string; part: ContentPart } {
  const c = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  switch (c.type) {
    case 'text':
      return { kind: 'text', part: { type: 'text', text: String(c.text ?? '') } };
    case 'image': {
      const mediaType = String(c.mimeType ?? '');
      if (IMAGE_TYPES.has(mediaType) && typeof c.data === 'string')
        return { kind: 'image', part: { type: 'image', mediaType, data: c.data } };
      return {
        kind: 'image',
        part: { type: 'text', text: `[image of type ${mediaType || 'unknown'} that cannot be shown to the model]` },
      };
    }
    case 'audio':
      return {
        kind: 'audio',
        part: {
          type: 'text',
          text: `[audio (${String(c.mimeType ?? 'unknown type')}, ${approxBytes(c.data)}) not shown: audio is not passed to the model]`,
        },
      };
    case 'resource_link':
      return { kind: 'resource link', part: { type: 'text', text: describeResource('Resource link', c) } };
    case 'resource': {
      const r = (typeof c.resource === 'object' && c.resource !== null ? c.resource : {}) as Record<string, unknown>;
      if (typeof r.text === 'string')
        return { kind: 'resource', part: { type: 'text', text: `${describeResource('Resource', r)}\n${r.text}` } };
      const mediaType = String(r.mimeType ?? '');
      if (IMAGE_TYPES.has(mediaType) && typeof r.blob === 'string')
        return { kind: 'image', part: { type: 'image', mediaType, data: r.blob } };
      return {
        kind: 'resource',
        part: { type: 'text', text: `${describeResource('Binary resource', r)} (${approxBytes(r.blob)}, not shown)` },
      };
    }
    default:
      return { kind: 'other', part: { type: 'text', text: json(item) } };
  }
}

function describeResource(label: string, r: Record<string, unknown>): string {
  const name = typeof r.name === 'string' ? `${r.name} ` : '';
  const mime = typeof r.mimeType === 'string' ? ` (${r.mimeType})` : '';
  const description = typeof r.description === 'string' && r.description ? ` — ${r.description}` : '';
  return `${label}: ${name}<${String(r.uri ?? '')}>${mime}${description}`;
}

function approxBytes(base64: unknown): string {
  if (typeof base64 !== 'string') return 'size unknown';
  return `${Math.floor((base64.length * 3) / 4)} bytes`;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}
