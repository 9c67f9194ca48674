// How Edit finds `old_string` in a file, and what it tells the model when it cannot. Line breaks in
// `old_string` match either LF or CRLF, so a model that writes `\n` can edit a CRLF file; the
// replacement takes the line ending of the text it replaces, so CRLF files stay CRLF.

export interface Occurrence {
  index: number;
  matched: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A regex for `needle` in which every line break matches `\n` or `\r\n`. */
function lineBreakTolerant(needle: string): RegExp {
  return new RegExp(needle.split(/\r?\n/).map(escapeRegExp).join('\\r?\\n'), 'g');
}

export function findOccurrences(text: string, needle: string): Occurrence[] {
  const found: Occurrence[] = [];
  for (const m of text.matchAll(lineBreakTolerant(needle))) found.push({ index: m.index, matched: m[0] });
  return found;
}

/** The replacement for one occurrence, with the line endings the replaced text used. */
export function adaptLineEndings(replacement: string, matched: string): string {
  const lf = replacement.replace(/\r\n/g, '\n');
  return matched.includes('\r\n') ? lf.replace(/\n/g, '\r\n') : lf;
}

/** Replaces the given occurrences (sorted, non-overlapping), building the new text in one pass. */
export function applyReplacements(text: string, occurrences: readonly Occurrence[], replacement: string): string {
  let out = '';
  let last = 0;
  for (const o of occurrences) {
    out += text.slice(last, o.index) + adaptLineEndings(replacement, o.matched);
    last = o.index + o.matched.length;
  }
  return out + text.slice(last);
}

export function lineNumberAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

const MAX_HINT_LINES = 8;
const MAX_HINT_LINE_CHARS = 200;
const SIMILARITY_FLOOR = 0.5;

function numbered(lines: readonly string[], first: number): string {
  return lines
    .slice(0, MAX_HINT_LINES)
    .map((l, i) => `${first + i}\t${l.length > MAX_HINT_LINE_CHARS ? `${l.slice(0, MAX_HINT_LINE_CHARS)}…` : l}`)
    .join('\n');
}

function bigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  const s = text.slice(0, 300);
  for (let i = 0; i + 1 < s.length; i++) {
    const g = s.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return grams;
}

/** Dice coefficient over character bigrams: 1 for equal strings, 0 for nothing in common. */
function similarity(a: Map<string, number>, aSize: number, b: string): number {
  const bg = bigrams(b);
  let bSize = 0;
  let common = 0;
  for (const [g, n] of bg) {
    bSize += n;
    common += Math.min(n, a.get(g) ?? 0);
  }
  return aSize + bSize === 0 ? 0 : (2 * common) / (aSize + bSize);
}

/**
 * Explains a failed match: a whitespace-only difference, stray Read line numbers, or else the
 * file lines most like the most distinctive line of `old_string`.
 */
export function explainNoMatch(text: string, needle: string): string {
  const hints: string[] = [];
  if (/^\s*\d+\t/m.test(needle)) {
    hints.push("old_string seems to contain line-number prefixes from Read's output (`<number><TAB>`); remove them.");
  }
  const words = needle.trim().split(/\s+/).filter(Boolean).map(escapeRegExp);
  if (words.length > 0) {
    const loose = new RegExp(words.join('\\s+')).exec(text);
    if (loose) {
      const first = lineNumberAt(text, loose.index);
      const spanned = loose[0].split('\n').length;
      const fileLines = text
        .split('\n')
        .slice(first - 1, first - 1 + spanned)
        .map((l) => l.replace(/\r$/, ''));
      hints.push(
        `The text matches only when whitespace is ignored — check indentation (tabs vs spaces), spaces and line breaks. The file has, from line ${first}:\n${numbered(fileLines, first)}`,
      );
      return hints.join('\n');
    }
  }
  const anchor = needle
    .split(/\r?\n/)
    .map((l) => l.trim())
    .reduce((best, l) => (l.length > best.length ? l : best), '');
  if (anchor.length > 0) {
    const grams = bigrams(anchor);
    let size = 0;
    for (const n of grams.values()) size += n;
    const scored = text
      .split('\n')
      .map((line, i) => ({ line: line.replace(/\r$/, ''), n: i + 1, score: similarity(grams, size, line.trim()) }))
      .filter((s) => s.score >= SIMILARITY_FLOOR)
      .sort((a, b) => b.score - a.score || a.n - b.n)
      .slice(0, 3);
    if (scored.length > 0) {
      hints.push(`Closest lines in the file:\n${scored.map((s) => numbered([s.line], s.n)).join('\n')}`);
    }
  }
  hints.push('Read the file again and copy old_string exactly as it appears (without line numbers).');
  return hints.join('\n');
}
