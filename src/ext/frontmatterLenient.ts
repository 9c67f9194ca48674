// Reading frontmatter the way the tools that wrote it do (docs/skills-and-agents.md, "Frontmatter").
// Claude Code and opencode accept agent files whose `description:` runs over many unindented lines, holds
// `<example>` blocks and unquoted `key: value` text; strict YAML refuses those ("Nested mappings are not
// allowed in compact mappings"). When the whole block is not valid YAML it is cut into top-level fields,
// each field is read as YAML on its own, and a field YAML still refuses is taken as plain text — unless it
// is a broken list or mapping (`[Read, Grep`), which is dropped with a warning naming its line.

export interface FrontmatterWarning {
  /** 1-based line in the file (the opening `---` is line 1). */
  line: number;
  field?: string;
  message: string;
}

export interface FrontmatterFields {
  data: Record<string, unknown>;
  /** The file line each field starts on. */
  lines: Record<string, number>;
  warnings: FrontmatterWarning[];
}

type Parse = (source: string) => unknown;

/** A top-level field line: a key without spaces at column 0, a colon, then a space or the line's end. */
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]+(.*))?$/;
const OPEN_TAG = /<([A-Za-z][\w-]*)(?:\s[^>]*)?>/g;
const CLOSE_TAG = /<\/([A-Za-z][\w-]*)\s*>/g;

/** Leading tabs are indentation to the writer; YAML forbids them, so each becomes two spaces. */
export function untab(source: string): string {
  return source.replace(/^\t+/gm, (tabs) => '  '.repeat(tabs.length));
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0];
}

/** The line each top-level key of valid YAML starts on (for warnings about its value). */
export function keyLines(source: string, firstFileLine: number): Record<string, number> {
  const lines: Record<string, number> = {};
  source.split('\n').forEach((text, i) => {
    const m = KEY_LINE.exec(text);
    if (m && lines[m[1]] === undefined) lines[m[1]] = firstFileLine + i;
  });
  return lines;
}

interface Chunk {
  key: string;
  line: number;
  first: string;
  rest: string[];
}

/** Cuts the block into fields; a column-0 `key:` inside an open `<example>`-like tag is text, not a field. */
function chunks(source: string, firstFileLine: number, warnings: FrontmatterWarning[]): Chunk[] {
  const out: Chunk[] = [];
  const open: string[] = [];
  source.split('\n').forEach((text, i) => {
    const line = firstFileLine + i;
    const m = open.length === 0 ? KEY_LINE.exec(text) : null;
    if (m) out.push({ key: m[1], line, first: m[2] ?? '', rest: [] });
    else if (out.length) out.at(-1)!.rest.push(text);
    else if (text.trim() && !text.trimStart().startsWith('#'))
      warnings.push({ line, message: `line "${text.trim().slice(0, 60)}" is not a field (name: value); ignored` });
    for (const [, tag] of text.matchAll(OPEN_TAG)) open.push(tag.toLowerCase());
    for (const [, tag] of text.matchAll(CLOSE_TAG)) {
      const at = open.lastIndexOf(tag.toLowerCase());
      if (at >= 0) open.splice(at);
    }
  });
  return out;
}

/** Text of a field YAML refused: quotes that open and close it are removed, lines kept as written. */
function plainText(c: Chunk): string {
  const lines = [c.first, ...c.rest].map((l) => l.trimEnd());
  while (lines.length && !lines.at(-1)) lines.pop();
  let text = lines.join('\n').trim();
  const q = text[0];
  if ((q === '"' || q === "'") && text.length > 1 && text.endsWith(q)) text = text.slice(1, -1);
  return text;
}

/** Blocks whose own lines are not strict YAML: cut into fields, each read alone. */
export function lenientFields(source: string, firstFileLine: number, parse: Parse): FrontmatterFields {
  const warnings: FrontmatterWarning[] = [];
  const data: Record<string, unknown> = {};
  const lines: Record<string, number> = {};
  for (const c of chunks(source, firstFileLine, warnings)) {
    if (lines[c.key] !== undefined) {
      warnings.push({
        line: c.line,
        field: c.key,
        message: `field "${c.key}" is given again (first on line ${lines[c.key]}); this one is ignored`,
      });
      continue;
    }
    lines[c.key] = c.line;
    let value: unknown;
    try {
      const parsed = parse([`${c.key}: ${c.first}`, ...c.rest].join('\n'));
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || !(c.key in parsed))
        throw new Error('not read as one field');
      value = (parsed as Record<string, unknown>)[c.key];
    } catch (e) {
      const start = c.first.trimStart()[0];
      if (start === '[' || start === '{') {
        const kind = start === '[' ? 'list' : 'mapping';
        warnings.push({
          line: c.line,
          field: c.key,
          message: `field "${c.key}" is a ${kind} that cannot be read (${firstLine(e)}); dropped`,
        });
        continue;
      }
      value = plainText(c);
    }
    data[c.key] = value;
  }
  return { data, lines, warnings };
}
