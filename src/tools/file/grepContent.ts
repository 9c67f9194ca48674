// Turns ripgrep's --json records into grep-style lines: `path:12:text` for matches, `path-13-text`
// for context, `--` between separate groups. Lines are capped so one minified file cannot flood
// the result.

export interface GrepLine {
  path: string;
  lineNumber: number;
  text: string;
  isMatch: boolean;
}

interface RgText {
  text?: string;
  bytes?: string;
}

interface RgLineRecord {
  type: string;
  data?: { path?: RgText; lines?: RgText; line_number?: number | null };
}

function textOf(value: RgText | undefined): string | undefined {
  if (!value) return undefined;
  if (typeof value.text === 'string') return value.text;
  if (typeof value.bytes === 'string') return Buffer.from(value.bytes, 'base64').toString('utf8');
  return undefined;
}

const RECORD_START = '{"type":"';

/** The lines a `match` or `context` record carries (a multiline match carries several). */
export function linesOfRecord(record: string): GrepLine[] {
  // begin/end/summary records carry no lines: skip them without parsing.
  if (
    record.startsWith(RECORD_START) &&
    !record.startsWith('match"', RECORD_START.length) &&
    !record.startsWith('context"', RECORD_START.length)
  )
    return [];
  let parsed: RgLineRecord;
  try {
    parsed = JSON.parse(record) as RgLineRecord;
  } catch {
    return [];
  }
  if (parsed.type !== 'match' && parsed.type !== 'context') return [];
  const path = textOf(parsed.data?.path);
  const text = textOf(parsed.data?.lines);
  if (path === undefined || text === undefined) return [];
  const first = parsed.data?.line_number ?? 0;
  const parts = text.split('\n');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((line, i) => ({
    path,
    lineNumber: first + i,
    text: line.replace(/\r$/, ''),
    isMatch: parsed.type === 'match',
  }));
}

const SLASH = 0x2f;
const BACKSLASH = 0x5c;

/**
 * Orders paths the way `rg --sort path` walks them: name by name, each name compared by code point
 * (= the UTF-8 byte order ripgrep uses), so `a/b` comes before `a-c` (the folder `a` sorts first).
 */
export function compareRipgrepPaths(a: string, b: string, windows = process.platform === 'win32'): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // A separator ends a name, and a shorter name sorts first.
    if (x === SLASH || (windows && x === BACKSLASH)) return -1;
    if (y === SLASH || (windows && y === BACKSLASH)) return 1;
    // UTF-16 to code point order: surrogates (characters above U+FFFF) go after U+E000–U+FFFF.
    if (x >= 0xd800) x += x < 0xe000 ? 0x2000 : -0x800;
    if (y >= 0xd800) y += y < 0xe000 ? 0x2000 : -0x800;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * The lines of each file together, files in `rg --sort path` order. Lines arrive grouped by file
 * from a multi-threaded ripgrep, each file's in order, but the files in no set order.
 */
export function orderByPath(lines: readonly GrepLine[]): GrepLine[] {
  const byFile = new Map<string, GrepLine[]>();
  for (const line of lines) {
    const group = byFile.get(line.path);
    if (group) group.push(line);
    else byFile.set(line.path, [line]);
  }
  const ordered: GrepLine[] = [];
  for (const path of [...byFile.keys()].sort((a, b) => compareRipgrepPaths(a, b)))
    for (const line of byFile.get(path) ?? []) ordered.push(line);
  return ordered;
}

export function capColumns(text: string, maxColumns: number): string {
  return text.length > maxColumns ? `${text.slice(0, maxColumns)}… [+${text.length - maxColumns} chars]` : text;
}

export interface ContentFormat {
  lineNumbers: boolean;
  /** Whether context was requested: then `--` separates non-adjacent groups. */
  separators: boolean;
  maxColumns: number;
  display(path: string): string;
}

export function formatContentLines(lines: readonly GrepLine[], format: ContentFormat): string[] {
  const out: string[] = [];
  let previous: GrepLine | undefined;
  for (const line of lines) {
    const adjacent = previous && previous.path === line.path && line.lineNumber === previous.lineNumber + 1;
    if (format.separators && previous && !adjacent) out.push('--');
    const mark = line.isMatch ? ':' : '-';
    const where = format.lineNumbers
      ? `${format.display(line.path)}${mark}${line.lineNumber}${mark}`
      : `${format.display(line.path)}${mark}`;
    out.push(where + capColumns(line.text, format.maxColumns));
    previous = line;
  }
  return out;
}
