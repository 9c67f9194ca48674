// LaTeX in answers (docs/ui.md "LaTeX"): `$…$`, `\(…\)`, `$$…$$` and `\[…\]` become Unicode where a
// formula has a faithful plain-text form (α + β², ∑ᵢ₌₁ⁿ, ½, √x, ℝ). A formula that uses anything
// without one (environments, matrices, alignment) is left exactly as written, which reads better than
// a half conversion. Code spans, fenced and indented code, escaped `\$` and prices ("$5 and $10") are
// never touched. Runs on the Markdown source before it is rendered.
import {
  ACCENTS,
  ESCAPES,
  FONT_ALPHABETS,
  IGNORED,
  OPERATOR_NAMES,
  PLAIN_WRAPPERS,
  SPACED,
  SUBSCRIPTS,
  SUPERSCRIPTS,
  SYMBOLS,
  VULGAR_FRACTIONS,
} from './latexSymbols';

/** Thrown inside the converter when a formula has no plain form; the caller keeps the source. */
class NotSimple extends Error {}

/** Converts the math in a Markdown text; text without math comes back as the same string. */
export function renderLatex(markdown: string): string {
  if (!markdown.includes('$') && !markdown.includes('\\(') && !markdown.includes('\\[')) return markdown;
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  let prose: string[] = [];
  let previousBlank = true;
  let inIndentedCode = false;
  const flush = () => {
    if (prose.length) out.push(convertProse(prose.join('\n')));
    prose = [];
  };
  for (const line of lines) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      out.push(line);
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
        fence = undefined;
      continue;
    }
    if (marker) {
      flush();
      fence = marker;
      out.push(line);
      continue;
    }
    // An indented code block starts after a blank line and continues while lines stay indented (or blank).
    const indented = /^( {4}|\t)/.test(line);
    if (indented && (previousBlank || inIndentedCode) && !insideDisplayMath(prose)) {
      flush();
      inIndentedCode = true;
      out.push(line);
      continue;
    }
    if (line.trim() && !indented) inIndentedCode = false;
    previousBlank = !line.trim();
    if (inIndentedCode && previousBlank) {
      out.push(line);
      continue;
    }
    prose.push(line);
  }
  flush();
  return out.join('\n');
}

/** True while a `$$` or `\[` opened in the prose so far is still open (its lines may be indented). */
function insideDisplayMath(prose: string[]): boolean {
  const text = stripCodeSpans(prose.join('\n'));
  return (text.split('$$').length - 1) % 2 === 1 || text.lastIndexOf('\\[') > text.lastIndexOf('\\]');
}

function stripCodeSpans(text: string): string {
  return text.replace(/(`+)[\s\S]*?\1/g, '');
}

/** Prose (no fenced or indented code): converts math outside code spans. */
function convertProse(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '`') {
      const run = /^`+/.exec(text.slice(i))![0];
      const close = text.indexOf(run, i + run.length);
      const end = close < 0 ? i + run.length : close + run.length;
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (c === '\\') {
      const next = text[i + 1];
      if (next === '(' || next === '[') {
        const closer = next === '(' ? '\\)' : '\\]';
        const close = text.indexOf(closer, i + 2);
        if (close > i + 2) {
          out += formula(text.slice(i, close + 2), text.slice(i + 2, close), next === '[');
          i = close + 2;
          continue;
        }
      }
      // An escaped character (`\$` stays a literal dollar for the Markdown renderer).
      out += text.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '$') {
      const found = text[i + 1] === '$' ? displayDollars(text, i) : inlineDollars(text, i);
      if (found) {
        out += formula(text.slice(i, found.end), found.body, found.display);
        i = found.end;
        continue;
      }
      const run = text[i + 1] === '$' ? 2 : 1;
      out += text.slice(i, i + run);
      i += run;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

function displayDollars(text: string, at: number): { body: string; end: number; display: boolean } | undefined {
  const close = text.indexOf('$$', at + 2);
  if (close <= at + 2) return undefined;
  const body = text.slice(at + 2, close);
  return body.trim() ? { body, end: close + 2, display: true } : undefined;
}

/**
 * Inline `$…$` as Pandoc reads it: the opening `$` is followed by a non-space, the closing one follows
 * a non-space and is not followed by a digit, and no blank line lies between. So "$5 and $10" and
 * "$5-$10" stay prices. The body must also look like math, so "$PATH:$HOME" stays shell text.
 */
function inlineDollars(text: string, at: number): { body: string; end: number; display: boolean } | undefined {
  if (!text[at + 1] || /\s/.test(text[at + 1])) return undefined;
  for (let j = at + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') {
      j++;
      continue;
    }
    if (c === '\n' && text[j + 1] === '\n') return undefined;
    if (c !== '$') continue;
    if (/\s/.test(text[j - 1]) || /\d/.test(text[j + 1] ?? '')) continue;
    const body = text.slice(at + 1, j);
    return looksLikeMath(body) ? { body, end: j + 1, display: false } : undefined;
  }
  return undefined;
}

function looksLikeMath(body: string): boolean {
  return /[\\^_=<>+]/.test(body) || /^[A-Za-z](?:'+)?$/.test(body) || /^[A-Za-z]\([A-Za-z0-9, ]*\)$/.test(body);
}

/** One formula: its Unicode form, or the source unchanged when it has none. */
function formula(source: string, body: string, display: boolean): string {
  let text: string;
  try {
    text = convertMath(body);
  } catch (e) {
    if (e instanceof NotSimple) return source;
    throw e;
  }
  if (!text) return source;
  // A display formula stands on its own line; Markdown must not read its `*`, `_` or `#` as markup.
  const safe = text.replace(/[*_#]/g, (m) => `\\${m}`);
  return display ? `\n${safe}\n` : safe;
}

/** LaTeX math → Unicode; throws NotSimple for what has no plain form. */
export function convertMath(body: string): string {
  const parser = new MathParser(body);
  const text = parser.sequence(undefined);
  return text.replace(/ {2,}/g, (m) => (m.length >= 4 ? m : ' ')).trim();
}

class MathParser {
  private i = 0;

  constructor(private readonly src: string) {}

  /** Reads until `closer` (a `}` or the end); the closer is consumed. */
  sequence(closer: '}' | undefined): string {
    let out = '';
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (c === closer) {
        this.i++;
        return out;
      }
      out += this.atom();
    }
    if (closer) throw new NotSimple('unclosed group');
    return out;
  }

  private atom(): string {
    const c = this.src[this.i];
    if (c === '{') {
      this.i++;
      return this.sequence('}');
    }
    if (c === '}' || c === '&') throw new NotSimple(`unexpected ${c}`);
    if (c === '^' || c === '_') {
      this.i++;
      return script(this.argument(), c === '^' ? SUPERSCRIPTS : SUBSCRIPTS, c);
    }
    if (c === '\\') return this.command();
    this.i++;
    if (c === '*') return '∗';
    if (c === "'") return '′';
    if (c === '\n' || c === '\t') return ' ';
    return c;
  }

  /** One argument: a group, a command, or a single character (`x^2`, `\frac12`). */
  private argument(): string {
    this.skipSpaces();
    const c = this.src[this.i];
    if (c === undefined) throw new NotSimple('missing argument');
    if (c === '{') {
      this.i++;
      return this.sequence('}');
    }
    if (c === '\\') return this.command().trim();
    this.i++;
    return c;
  }

  private skipSpaces(): void {
    while (this.src[this.i] === ' ' || this.src[this.i] === '\n') this.i++;
  }

  private command(): string {
    this.i++;
    const word = /^[A-Za-z]+/.exec(this.src.slice(this.i))?.[0];
    if (!word) {
      const ch = this.src[this.i++];
      if (ch !== undefined && ch in ESCAPES) return ESCAPES[ch];
      throw new NotSimple(`\\${ch ?? ''}`);
    }
    this.i += word.length;
    if (word in SYMBOLS) return SPACED.has(word) ? ` ${SYMBOLS[word]} ` : SYMBOLS[word];
    if (OPERATOR_NAMES.has(word)) return word === 'bmod' || word === 'mod' ? ' mod ' : word;
    if (IGNORED.has(word)) return '';
    if (PLAIN_WRAPPERS.has(word)) return this.argument();
    if (word === 'frac' || word === 'dfrac' || word === 'tfrac') return fraction(this.argument(), this.argument());
    if (word === 'sqrt') return this.root();
    if (word in FONT_ALPHABETS) return restyle(this.argument(), FONT_ALPHABETS[word]);
    if (word in ACCENTS) return accent(this.argument(), ACCENTS[word]);
    if (word === 'not') return `${this.argument().trim()}\u0338`;
    throw new NotSimple(`\\${word}`);
  }

  private root(): string {
    this.skipSpaces();
    let index = '';
    if (this.src[this.i] === '[') {
      const close = this.src.indexOf(']', this.i);
      if (close < 0) throw new NotSimple('unclosed root index');
      index = new MathParser(this.src.slice(this.i + 1, close)).sequence(undefined).trim();
      this.i = close + 1;
    }
    const radicand = this.argument().trim();
    const sign =
      index === '' || index === '2'
        ? '√'
        : index === '3'
          ? '∛'
          : index === '4'
            ? '∜'
            : `${script(index, SUPERSCRIPTS, '^')}√`;
    return sign + (isAtomic(radicand) ? radicand : `(${radicand})`);
  }
}

/** Text that reads as one unit without parentheses: a number, a name, a symbol with scripts. */
function isAtomic(text: string): boolean {
  return /^[\p{L}\p{N}.′\u0300-\u036f\u20d0-\u20ff⁰-₟ᵃ-ᶿ]+$/u.test(text.trim()) || /^\(.*\)$/.test(text.trim());
}

function fraction(numerator: string, denominator: string): string {
  const a = numerator.trim();
  const b = denominator.trim();
  const vulgar = VULGAR_FRACTIONS[`${a}/${b}`];
  if (vulgar) return vulgar;
  return `${isAtomic(a) ? a : `(${a})`}/${isAtomic(b) ? b : `(${b})`}`;
}

/** Sub- or superscript characters when every character has one; else `x_(i+1)`-style. */
function script(text: string, table: Map<string, string>, mark: string): string {
  const body = text.trim();
  if (!body) return '';
  let mapped = '';
  for (const ch of body) {
    const m = table.get(ch);
    if (m === undefined) {
      mapped = '';
      break;
    }
    mapped += m;
  }
  if (mapped) return mapped;
  return isAtomic(body) && [...body].length === 1 ? `${mark}${body}` : `${mark}(${body})`;
}

function restyle(text: string, letter: (c: string) => string | undefined): string {
  let out = '';
  for (const ch of text) {
    if (ch === ' ') continue;
    const m = letter(ch);
    if (m === undefined) throw new NotSimple(`no styled form of ${ch}`);
    out += m;
  }
  return out;
}

function accent(text: string, mark: string): string {
  const chars = [...text.trim()];
  if (chars.length !== 1) throw new NotSimple('accent over more than one character');
  return chars[0] + mark;
}
