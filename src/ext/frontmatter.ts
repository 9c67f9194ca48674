// Splits a Markdown file into its YAML frontmatter (between `---` lines at the very top) and its body.
// Skills and agent files both use it. The YAML parser loads on first use, and only for frontmatter that is
// more than plain `key: text` lines (most skill files are those): loading it is a tenth of start-up.
import { readFileSync } from 'node:fs';
import { keyLines, lenientFields, untab, type FrontmatterWarning } from './frontmatterLenient';

export type { FrontmatterWarning };

export class FrontmatterError extends Error {}

export interface MarkdownWithFrontmatter {
  /** The frontmatter mapping; empty when the file has none. */
  data: Record<string, unknown>;
  body: string;
  hasFrontmatter: boolean;
  /** The file line each field starts on. */
  lines: Record<string, number>;
  /** Fields dropped or lines ignored, each with its line (docs/skills-and-agents.md, "Frontmatter"). */
  warnings: FrontmatterWarning[];
}

type YamlParse = (typeof import('yaml'))['parse'];
let yamlParse: Promise<YamlParse> | undefined;

/** yaml is CommonJS under Node: bundled, its dynamic import may arrive as `{ default: module }`. */
function loadYamlParse(): Promise<YamlParse> {
  return (yamlParse ??= import('yaml').then(
    (m) => m.parse ?? (m as unknown as { default: { parse: YamlParse } }).default.parse,
  ));
}

const OPENING = /^---[ \t]*\n/;
const CLOSING = /^---[ \t]*$/m;

export type MarkdownRead = ({ ok: true } & MarkdownWithFrontmatter) | { ok: false; message: string };

/** Reads and splits a Markdown file; a problem is a message naming the file, never an exception. */
export async function readMarkdownFile(path: string): Promise<MarkdownRead> {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (e) {
    return {
      ok: false,
      message: `${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    };
  }
  try {
    return { ok: true, ...(await parseMarkdownFile(raw)) };
  } catch (e) {
    if (e instanceof FrontmatterError) return { ok: false, message: `${path}: ${e.message}` };
    throw e;
  }
}

/** One warning as a user reads it: the file and line first. */
export function formatWarning(path: string, w: FrontmatterWarning): string {
  return `${path}:${w.line}: ${w.message}`;
}

/** A byte-order mark and CRLF line ends are how some editors save; neither changes what the file says. */
export async function parseMarkdownFile(text: string): Promise<MarkdownWithFrontmatter> {
  const normal = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const opening = OPENING.exec(normal);
  if (!opening) return { data: {}, body: normal, hasFrontmatter: false, lines: {}, warnings: [] };
  const rest = normal.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) throw new FrontmatterError('the frontmatter starts with --- but has no closing --- line');
  const source = untab(rest.slice(0, closing.index).replace(/\n$/, ''));
  const body = rest.slice(closing.index + closing[0].length).replace(/^\n/, '');
  const fields = (data: Record<string, unknown>) => ({ data, body, hasFrontmatter: true, warnings: [] });
  if (!source.trim()) return { ...fields({}), lines: {} };
  const plain = plainMapping(source);
  if (plain) return { ...fields(plain), lines: keyLines(source, 2) };
  const parse = await loadYamlParse();
  let strict: unknown;
  try {
    strict = parse(source);
  } catch {
    strict = undefined;
  }
  if (strict !== null && typeof strict === 'object' && !Array.isArray(strict))
    return { ...fields(strict as Record<string, unknown>), lines: keyLines(source, 2) };
  const lenient = lenientFields(source, 2, parse);
  return { data: lenient.data, body, hasFrontmatter: true, lines: lenient.lines, warnings: lenient.warnings };
}

/** The body's first line that is not blank, trimmed (a description's fallback). */
export function firstNonEmptyLine(body: string): string {
  return (
    body
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? ''
  );
}

/** `key: value` on one line, the value starting with no space (its trailing spaces are not part of it). */
const PLAIN_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):[ ]+(\S(?:.*\S)?)[ ]*$/;
/** Keys and values YAML reads as something other than their text: null, booleans, numbers (core schema). */
const NOT_TEXT = /^(?:~|null|true|false|[-+.]?[0-9].*|[-+]?\.(?:inf|nan))$/i;

/**
 * The frontmatter as YAML reads it, when every line is `key: value` whose value YAML takes as exactly its own
 * text (no quotes, indicators, comments, nested mappings, numbers, booleans or nulls, no key twice); otherwise
 * undefined and YAML itself reads it. test/ext/frontmatterPlain.test.ts checks the two agree.
 */
export function plainMapping(source: string): Record<string, string> | undefined {
  const data: Record<string, string> = {};
  for (const line of source.split('\n')) {
    if (line.trim() === '') continue;
    const m = PLAIN_LINE.exec(line);
    if (!m) return undefined;
    const [, key, value] = m;
    if (key === '__proto__' || Object.hasOwn(data, key) || NOT_TEXT.test(key) || !isPlainText(value)) return undefined;
    data[key] = value;
  }
  return data;
}

function isPlainText(value: string): boolean {
  if (/^[-?:,[\]{}#&*!|>'"%@`<=]/.test(value)) return false;
  if (/:(?:\s|$)|\s#|\t/.test(value)) return false;
  return !NOT_TEXT.test(value);
}

/** The first of several spellings of a field that is present (`whenToUse`, `when-to-use`, `when_to_use`). */
export function field(data: Record<string, unknown>, ...names: string[]): unknown {
  for (const name of names) if (data[name] !== undefined && data[name] !== null) return data[name];
  return undefined;
}

/** A field given as a YAML list or as one string of separated words; undefined when absent. */
export function stringList(value: unknown, separator: RegExp): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter(Boolean);
  return String(value)
    .split(separator)
    .map((v) => v.trim())
    .filter(Boolean);
}

export function booleanField(value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value;
  const text = String(value).trim().toLowerCase();
  if (['true', 'yes', '1', 'on'].includes(text)) return true;
  if (['false', 'no', '0', 'off'].includes(text)) return false;
  return undefined;
}

function kindOf(value: unknown): string {
  return Array.isArray(value) ? 'a list' : value !== null && typeof value === 'object' ? 'a mapping' : 'text';
}

/**
 * Reads typed fields of one file's frontmatter and collects, with the file and line, every field it
 * had to drop (a list where text belongs, `override: maybe`) and what the frontmatter itself dropped.
 */
export class FieldReader {
  readonly warnings: string[];
  /** Why a field is absent when it was written but could not be read (for "needs a description" errors). */
  private readonly dropped = new Map<string, string>();

  constructor(
    readonly path: string,
    private readonly md: MarkdownWithFrontmatter,
  ) {
    this.warnings = md.warnings.map((w) => formatWarning(path, w));
    for (const w of md.warnings) if (w.field) this.dropped.set(w.field, w.message);
  }

  /** The first of the spellings present, with the spelling used. */
  private find(names: string[]): { name: string; value: unknown } | undefined {
    for (const name of names) {
      const value = this.md.data[name];
      if (value !== undefined && value !== null) return { name, value };
    }
    return undefined;
  }

  /** Warns (with the line) about a field that is present but unusable, and remembers why. */
  drop(name: string, message: string): undefined {
    const line = this.md.lines[name];
    this.dropped.set(name, message);
    this.warnings.push(`${this.path}${line ? `:${line}` : ''}: ${message}`);
    return undefined;
  }

  /** Note (with the line) about a field that was read, but not as written. */
  note(name: string, message: string): void {
    const line = this.md.lines[name];
    this.warnings.push(`${this.path}${line ? `:${line}` : ''}: ${message}`);
  }

  /** Why `name` is missing although the file wrote it, or undefined when the file did not write it. */
  whyMissing(...names: string[]): string | undefined {
    for (const name of names) if (this.dropped.has(name)) return this.dropped.get(name);
    return undefined;
  }

  /** A text field, trimmed; empty text counts as absent. */
  text(...names: string[]): string | undefined {
    const found = this.find(names);
    if (!found) return undefined;
    const { name, value } = found;
    if (typeof value === 'object')
      return this.drop(name, `field "${name}" should be text, not ${kindOf(value)}; dropped`);
    return String(value).trim() || undefined;
  }

  /** A list given as a YAML list or as one string of separated words. */
  list(separator: RegExp, ...names: string[]): string[] | undefined {
    const found = this.find(names);
    if (!found) return undefined;
    const { name, value } = found;
    if (Array.isArray(value) && value.some((v) => v !== null && typeof v === 'object'))
      return this.drop(name, `field "${name}" should list names; it holds a nested list or mapping; dropped`);
    if (!Array.isArray(value) && typeof value === 'object')
      return this.drop(name, `field "${name}" should be a list or a comma-separated string, not a mapping; dropped`);
    return stringList(value, separator);
  }

  /** A mapping field as written (opencode's `tools: { write: false }`), else undefined. */
  mapping(name: string): Record<string, unknown> | undefined {
    const value = this.md.data[name];
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  }

  /** true/false (also yes/no, on/off, 1/0); anything else is dropped with a warning. */
  bool(...names: string[]): boolean | undefined {
    const found = this.find(names);
    if (!found) return undefined;
    const parsed = booleanField(found.value);
    if (parsed === undefined)
      return this.drop(
        found.name,
        `field "${found.name}" should be true or false, not "${String(found.value)}"; dropped`,
      );
    return parsed;
  }

  /** Whether the field is written at all (any spelling). */
  has(...names: string[]): boolean {
    return this.find(names) !== undefined;
  }
}
