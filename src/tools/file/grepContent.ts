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

/** The lines a `match` or `context` record carries (a multiline match carries several). */
export function linesOfRecord(record: string): GrepLine[] {
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
  return parts.map((line, i) => ({ path, lineNumber: first + i, text: line.replace(/\r$/, ''), isMatch: parsed.type === 'match' }));
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
    const where = format.lineNumbers ? `${format.display(line.path)}${mark}${line.lineNumber}${mark}` : `${format.display(line.path)}${mark}`;
    out.push(where + capColumns(line.text, format.maxColumns));
    previous = line;
  }
  return out;
}
