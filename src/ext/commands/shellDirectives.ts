// Which parts of a command file run in the shell before its prompt is sent (docs/plugins.md, "Shell lines in
// commands"): an inline `` !`cmd` `` and a fenced block opened with ```` ```! ````. The rule is Claude Code's —
// the `!` must start the line or follow whitespace, and sit right before a backquoted span — read the way
// Markdown reads backquotes: code spans are paired first, left to right, so a `!` inside a span (`` `ERR!`, or
// `FATAL` ``, `` `if !` to … `x` ``) is text and can never start a command; a span opened by two or more
// backquotes is never a command; a fenced code block other than ```` ```! ```` is an example and runs nothing.
// Where Markdown and a shell line disagree, it is not run: an inline command never spans lines, and an unclosed
// ```` ```! ```` block runs nothing.

export interface ShellDirective {
  /** `text.slice(start, end)` is the whole directive (`` !`cmd` `` or the fenced block with its fences). */
  start: number;
  end: number;
  /** What runs, as written (inline: the span's text; block: the lines between the fences). */
  command: string;
  form: 'inline' | 'block';
  /** Inline: where `command` begins in the text (after `` !` ``); block: where its first line begins. */
  commandStart: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

interface Region {
  start: number;
  end: number;
}

/** Splits `text` into fenced blocks (```! ones become directives) and the prose between them. */
function fences(text: string): { prose: Region[]; blocks: ShellDirective[] } {
  const prose: Region[] = [];
  const blocks: ShellDirective[] = [];
  let open: { mark: string; at: number; bodyAt: number; bang: boolean } | undefined;
  let proseFrom = 0;
  let at = 0;
  for (const line of text.split('\n')) {
    const m = FENCE.exec(line);
    const lineEnd = at + line.length;
    if (m && !open) {
      // A backquote fence's info string may not hold a backquote (CommonMark); such a line is prose.
      if (!(m[1][0] === '`' && m[2].includes('`'))) {
        if (at > proseFrom) prose.push({ start: proseFrom, end: at });
        open = { mark: m[1], at, bodyAt: lineEnd + 1, bang: m[1][0] === '`' && m[2].trim() === '!' };
      }
    } else if (m && open && m[1][0] === open.mark[0] && m[1].length >= open.mark.length && !m[2].trim()) {
      if (open.bang) {
        const command = open.bodyAt <= at ? text.slice(open.bodyAt, at).replace(/\n$/, '') : '';
        blocks.push({ start: open.at, end: lineEnd, command, form: 'block', commandStart: open.bodyAt });
      }
      open = undefined;
      proseFrom = lineEnd + 1;
    }
    at = lineEnd + 1;
  }
  // An unclosed fence runs to the end of the text (CommonMark) and is no directive, ```! or not.
  if (!open && proseFrom < text.length) prose.push({ start: proseFrom, end: text.length });
  return { prose, blocks };
}

/** Length of the run of `ch` starting at `i`. */
function runLength(text: string, i: number, ch: string): number {
  let n = 0;
  while (text[i + n] === ch) n++;
  return n;
}

/** The inline directives of one stretch of prose, code spans paired the Markdown way. */
function inlineDirectives(text: string, region: Region): ShellDirective[] {
  const out: ShellDirective[] = [];
  let i = region.start;
  while (i < region.end) {
    const ch = text[i];
    if (ch === '\\') {
      i += 2; // an escaped character (`\``, `\!`) is text
      continue;
    }
    if (ch !== '`') {
      i++;
      continue;
    }
    const n = runLength(text, i, '`');
    const close = closingRun(text, i + n, n, region.end);
    if (close === undefined) {
      i += n; // an unmatched run is literal backquotes
      continue;
    }
    const content = text.slice(i + n, close);
    if (n === 1 && text[i - 1] === '!' && startsWord(text, i - 1) && content.trim() && !content.includes('\n')) {
      out.push({ start: i - 1, end: close + 1, command: content, form: 'inline', commandStart: i + 1 });
    }
    i = close + n;
  }
  return out;
}

/** Where the run of exactly `n` backquotes that closes a span opened before `from` starts; not past a blank line. */
function closingRun(text: string, from: number, n: number, end: number): number | undefined {
  let j = from;
  while (j < end) {
    if (text[j] === '\n' && /^\n[ \t]*\n/.test(text.slice(j, j + 64))) return undefined;
    if (text[j] !== '`') {
      j++;
      continue;
    }
    const m = runLength(text, j, '`');
    if (m === n) return j;
    j += m;
  }
  return undefined;
}

/** The `!` at `at` starts the text or a line, or follows whitespace (Claude Code's rule). */
function startsWord(text: string, at: number): boolean {
  return at === 0 || /\s/.test(text[at - 1]);
}

/** Every directive of a command file's text, in order. */
export function findShellDirectives(text: string): ShellDirective[] {
  if (!text.includes('!')) return [];
  const { prose, blocks } = fences(text);
  const inline = prose.flatMap((r) => inlineDirectives(text, r));
  return [...inline, ...blocks].sort((a, b) => a.start - b.start);
}
