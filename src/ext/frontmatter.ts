// Splits a Markdown file into its YAML frontmatter (between `---` lines at the very top) and its body.
// Skills and agent files both use it. The YAML parser loads on first use: a session without skill or
// agent files never pays for it.
import { readFileSync } from 'node:fs';

export class FrontmatterError extends Error {}

export interface MarkdownWithFrontmatter {
  /** The frontmatter mapping; empty when the file has none. */
  data: Record<string, unknown>;
  body: string;
  hasFrontmatter: boolean;
}

type YamlParse = (typeof import('yaml'))['parse'];
let yamlParse: Promise<YamlParse> | undefined;

/** yaml is CommonJS under Node: bundled, its dynamic import may arrive as `{ default: module }`. */
function loadYamlParse(): Promise<YamlParse> {
  return (yamlParse ??= import('yaml').then(
    (m) => m.parse ?? (m as unknown as { default: { parse: YamlParse } }).default.parse,
  ));
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/** Reads and splits a Markdown file; a problem is a message naming the file, never an exception. */
export async function readMarkdownFile(
  path: string,
): Promise<({ ok: true } & MarkdownWithFrontmatter) | { ok: false; message: string }> {
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

export async function parseMarkdownFile(text: string): Promise<MarkdownWithFrontmatter> {
  const opening = OPENING.exec(text);
  if (!opening) return { data: {}, body: text.replace(/^\uFEFF/, ''), hasFrontmatter: false };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) throw new FrontmatterError('the frontmatter starts with --- but has no closing --- line');
  const source = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, '');
  const parse = await loadYamlParse();
  let data: unknown;
  try {
    data = source.trim() ? parse(source) : {};
  } catch (e) {
    throw new FrontmatterError(`the frontmatter is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data))
    throw new FrontmatterError('the frontmatter must be a mapping of fields (name: value)');
  return { data: data as Record<string, unknown>, body, hasFrontmatter: true };
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
