// The fields every Markdown command file has, whoever wrote it (a plugin's `commands/`, Claude Code's
// `.claude/commands/`): the description (frontmatter, else the first non-empty line, else a fixed text), the
// `argument-hint` shown beside it and `allowed-tools`, the turn's pre-approval (docs/plugins.md, "Slash commands").
// Files are written as their users write them: a BOM, CRLF line ends, `argument-hint: [focus]` (a YAML list) and
// `argument-hint: [pr-number] [priority]` (not YAML at all; read as the text it is).
import { readFileSync } from 'node:fs';
import { firstNonEmptyLine, readMarkdownFile, type MarkdownWithFrontmatter } from '../frontmatter';

export const NO_DESCRIPTION = 'No description provided.';
export const COMMAND_DESCRIPTION_MAX = 240;

export interface CommandFileFields {
  description: string;
  argumentHint?: string;
  allowedTools?: string[];
  body: string;
  /** The frontmatter as read, for fields only some kinds of command use (`name`, `model`…). */
  data: Record<string, unknown>;
}

/** `allowed-tools` as written: a list, or one string separated by commas or spaces outside parentheses. */
export function allowedToolsList(value: unknown): string[] | undefined {
  if (typeof value === 'string') return value.split(/(?:,|\s)+(?![^(]*\))/).filter((p) => p.trim());
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return undefined;
}

function firstLine(body: string): string {
  const line = firstNonEmptyLine(body);
  return line.length > COMMAND_DESCRIPTION_MAX ? line.slice(0, COMMAND_DESCRIPTION_MAX) : line;
}

/** The frontmatter line of `key` as written (`[pr-number] [priority]`), for a value YAML could not read. */
function rawField(path: string, key: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch {
    return undefined;
  }
  const top = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)?.[1] ?? '';
  const line = new RegExp(`^${key}[ \\t]*:[ \\t]*(.*?)[ \\t]*\\r?$`, 'm').exec(top)?.[1];
  return line?.trim() || undefined;
}

/** `argument-hint` as a user reads it: text as written, a YAML list `[focus]` shown in its brackets again. */
function argumentHintOf(md: MarkdownWithFrontmatter, path: string): { hint?: string; problem?: string } {
  const value = md.data['argument-hint'] ?? md.data.argumentHint;
  if (typeof value === 'string') return value.trim() ? { hint: value.trim() } : { problem: 'is empty' };
  if (Array.isArray(value) && value.every((v) => ['string', 'number'].includes(typeof v)))
    return value.length ? { hint: value.map((v) => `[${String(v)}]`).join(' ') } : { problem: 'is empty' };
  if (value !== undefined && value !== null) return { problem: 'must be text' };
  if (md.warnings.some((w) => w.field === 'argument-hint')) return { hint: rawField(path, 'argument-hint') };
  return {};
}

/** Reads one command file; `undefined` (with a diagnostic) when it cannot be read. */
export async function readCommandFile(
  path: string,
  rel: string,
  diag: (text: string) => void,
): Promise<CommandFileFields | undefined> {
  const parsed = await readMarkdownFile(path);
  if (!parsed.ok) {
    diag(`command skipped: ${parsed.message}`);
    return undefined;
  }
  const body = parsed.body.trim();
  const described = typeof parsed.data.description === 'string' ? parsed.data.description.trim() : '';
  const hint = argumentHintOf(parsed, path);
  if (hint.problem) diag(`command ${rel}: "argument-hint" ${hint.problem}; ignored`);
  const allowedRaw = parsed.data['allowed-tools'] ?? parsed.data.allowedTools;
  const allowedTools = allowedToolsList(allowedRaw);
  if (allowedRaw !== undefined && !allowedTools)
    diag(`command ${rel}: "allowed-tools" must be a string or a list of strings; it pre-approves nothing`);
  return {
    description: described || firstLine(body) || NO_DESCRIPTION,
    ...(hint.hint ? { argumentHint: hint.hint } : {}),
    ...(allowedTools?.length ? { allowedTools } : {}),
    body,
    data: parsed.data,
  };
}
