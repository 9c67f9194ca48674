// Line continuations as bash reads them (docs/approvals.md, "Fail closed"): bash removes every
// backslash-newline before it splits words, except inside single quotes, `$'…'`, comments and the body
// of a here-document whose delimiter is quoted. The Bash parser we use reads an unquoted `\⏎` as a word
// break and keeps it inside double quotes, so `r\⏎m` would be judged as `r m` and `"$\⏎(cmd)"` as text.
// The line is therefore joined here first, the way bash joins it, and every continuation that is not
// plainly between two words is reported: allow rules never cover such a line.

export interface JoinedLine {
  /** The line with its continuations removed where bash removes them. */
  text: string;
  /** Why the line is not plainly readable (a continuation inside a word or quoted text); absent when it is. */
  unmodelled?: string;
}

interface HereDoc {
  delimiter: string;
  quoted: boolean;
  stripTabs: boolean;
}

type Frame = { kind: 'code'; closer: ')' | '`' | '}' | undefined; parens: number } | { kind: 'dq' };

const BOUNDARY = /^[\s;&|()<>]$/;
const blank = (c: string | undefined) => c === undefined || c === ' ' || c === '\t' || c === '\n';
const REASON_INSIDE =
  'a backslash-newline inside a word, a quoted string or a here-document (bash joins the lines there)';

class Joiner {
  private out = '';
  private i = 0;
  private readonly frames: Frame[] = [{ kind: 'code', closer: undefined, parens: 0 }];
  private readonly pending: HereDoc[] = [];
  unmodelled = false;

  constructor(private readonly src: string) {}

  run(): string {
    while (this.i < this.src.length) {
      const frame = this.frames[this.frames.length - 1];
      if (frame.kind === 'dq') this.doubleQuoted();
      else this.code(frame);
    }
    return this.out;
  }

  private get top(): boolean {
    return this.frames.length === 1;
  }

  /** `\` then a character: a continuation is removed, any other pair is kept as it is. */
  private escape(inCode: boolean): void {
    const next = this.src[this.i + 1];
    if (next !== '\n') {
      this.out += this.src.slice(this.i, this.i + 2);
      this.i += 2;
      return;
    }
    const before = this.out[this.out.length - 1];
    const after = this.src[this.i + 2];
    // Between two words: a blank on either side, or `;` ending the word before (not `;;`, a token of its own).
    const between = blank(before) || blank(after) || (after === ';' && before !== ';');
    if (!(inCode && this.top && between)) this.unmodelled = true;
    this.i += 2;
  }

  /** Copies up to and including `end`; a `\⏎` in such literal text is kept but still counts as unmodelled. */
  private literal(start: number, end: number): void {
    const text = this.src.slice(start, end);
    if (/\\\n/.test(text)) this.unmodelled = true;
    this.out += text;
    this.i = end;
  }

  private code(frame: Frame & { kind: 'code' }): void {
    const c = this.src[this.i];
    const prev = this.out[this.out.length - 1];
    if (c === '\\') return this.escape(true);
    if (c === "'") return this.literal(this.i, this.closing("'", this.i + 1));
    if (c === '$' && this.src[this.i + 1] === "'") return this.literal(this.i, this.ansiCEnd(this.i + 2));
    if (c === '#' && (prev === undefined || BOUNDARY.test(prev)) && frame.closer !== '}') {
      const eol = this.src.indexOf('\n', this.i);
      return this.literal(this.i, eol < 0 ? this.src.length : eol);
    }
    if (c === '\n') {
      this.out += c;
      this.i++;
      return this.hereDocBodies();
    }
    if (c === '<' && this.src.startsWith('<<<', this.i)) {
      this.out += '<<<';
      this.i += 3;
      return;
    }
    if (c === '<' && this.src.startsWith('<<', this.i)) return this.hereDocOperator();
    this.out += c;
    this.i++;
    if (c === '"') this.frames.push({ kind: 'dq' });
    else if (c === '`' && frame.closer === '`') this.frames.pop();
    else if (c === '`') this.frames.push({ kind: 'code', closer: '`', parens: 0 });
    else if (c === '$' && this.src[this.i] === '(') this.open(')');
    else if (c === '$' && this.src[this.i] === '{') this.open('}');
    else if (c === '(' && frame.closer === ')') frame.parens++;
    else if (c === '{' && frame.closer === '}') frame.parens++;
    else if (c === frame.closer && frame.closer !== '`' && --frame.parens === 0) this.frames.pop();
  }

  /** After `$` in code or double quotes: `(` or `{` opens a nested code frame. */
  private open(closer: ')' | '}'): void {
    this.out += this.src[this.i];
    this.i++;
    this.frames.push({ kind: 'code', closer, parens: 1 });
  }

  private doubleQuoted(): void {
    const c = this.src[this.i];
    if (c === '\\') return this.escape(false);
    this.out += c;
    this.i++;
    if (c === '"') this.frames.pop();
    else if (c === '`') this.frames.push({ kind: 'code', closer: '`', parens: 0 });
    else if (c === '$' && this.src[this.i] === '(') this.open(')');
    else if (c === '$' && this.src[this.i] === '{') this.open('}');
  }

  /** Index just past the next `quote` from `from` (or the end of the line when it is never closed). */
  private closing(quote: string, from: number): number {
    const at = this.src.indexOf(quote, from);
    return at < 0 ? this.src.length : at + 1;
  }

  private ansiCEnd(from: number): number {
    for (let j = from; j < this.src.length; j++) {
      if (this.src[j] === '\\') j++;
      else if (this.src[j] === "'") return j + 1;
    }
    return this.src.length;
  }

  /** `<<word` or `<<-word`: the delimiter is read now, the body after the next newline. */
  private hereDocOperator(): void {
    let j = this.i + 2;
    const stripTabs = this.src[j] === '-';
    if (stripTabs) j++;
    while (this.src[j] === ' ' || this.src[j] === '\t') j++;
    let delimiter = '';
    let quoted = false;
    while (j < this.src.length && !/[\s;&|()<>]/.test(this.src[j])) {
      const c = this.src[j];
      if (c === "'" || c === '"') {
        quoted = true;
        const end = this.src.indexOf(c, j + 1);
        const stop = end < 0 ? this.src.length : end;
        delimiter += this.src.slice(j + 1, stop);
        j = stop + 1;
      } else if (c === '\\') {
        quoted = true;
        if (this.src[j + 1] === '\n') this.unmodelled = true;
        else delimiter += this.src[j + 1] ?? '';
        j += 2;
      } else {
        delimiter += c;
        j++;
      }
    }
    this.pending.push({ delimiter, quoted, stripTabs });
    this.out += this.src.slice(this.i, j);
    this.i = Math.min(j, this.src.length);
  }

  /** The bodies of the here-documents opened on the line just ended, each up to its delimiter line. */
  private hereDocBodies(): void {
    for (const doc of this.pending.splice(0)) {
      while (this.i < this.src.length) {
        let line = this.line();
        if (!doc.quoted) {
          // An unquoted body is joined first; the joined line is then compared with the delimiter.
          while (/(^|[^\\])(\\\\)*\\$/.test(line) && this.i < this.src.length) {
            this.unmodelled = true;
            line = line.slice(0, -1) + this.line();
          }
        } else if (/\\$/.test(line)) {
          this.unmodelled = true;
        }
        this.out += line + (this.i <= this.src.length && this.src[this.i - 1] === '\n' ? '\n' : '');
        if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) break;
      }
    }
  }

  /** The text up to the next newline, which is consumed but not returned. */
  private line(): string {
    const eol = this.src.indexOf('\n', this.i);
    const end = eol < 0 ? this.src.length : eol;
    const text = this.src.slice(this.i, end);
    this.i = eol < 0 ? end : end + 1;
    return text;
  }
}

/** Joins the continuations of `text` as bash does before it reads the words. */
export function joinLineContinuations(text: string): JoinedLine {
  if (!text.includes('\\\n')) return { text };
  const joiner = new Joiner(text);
  const joined = joiner.run();
  return joiner.unmodelled ? { text: joined, unmodelled: REASON_INSIDE } : { text: joined };
}
