// The user's arguments put into a command's `` !`cmd` `` line as data, never as shell (docs/plugins.md, "Arguments
// in !`cmd` lines"). The line is read the way bash reads it, with a stack of quoting contexts; each `$ARGUMENTS`
// or `$N` becomes a single-quoted word written for the context it stands in: as it is outside quotes, and with
// the surrounding `"…"`, `'…'` or `$'…'` closed before it and reopened after it. Some places make bash evaluate
// even a quoted word as code (shellLineRisks.ts): only a whole number (arithmetic) or a plain name (a variable
// name) goes there, and anything else is refused with the reason. A line bash would read differently than this
// reader can tell (an unterminated quote or substitution, a backquote, a placeholder after a here-document's `<<`)
// is refused too: fail closed. A ```` ```! ```` block is read the same way, its lines one after another.
import { placeRisk, type CommandWords } from './shellLineRisks';

/** `$ARGUMENTS` (all of the text) or `$N` (its N-th word, 1-based). */
export type ArgumentRef = { whole: true } | { index: number };

export type ShellLineResult = { command: string } | { refused: string };

const PLACEHOLDER = /\$ARGUMENTS(?![\w[])|\$([1-9]\d*)(?!\d)/y;

type Top = { kind: 'top'; parens: number; words: string[]; word: string; substitution: boolean };
type Frame =
  | Top
  | { kind: 'double' | 'single' | 'ansi' | 'comment' }
  | { kind: 'param'; depth: number }
  | { kind: 'arith'; parens: number; closer: '))' | ']' };

/** What one step of the reader does: copy `text`, and open a context or close the current one. */
type Step = { text: string; open?: Frame; close?: boolean; hereDocument?: boolean } | { refused: string };

const BACKQUOTE = { refused: 'the line has a backquote substitution, inside which arguments cannot be placed safely' };

/** One word for a POSIX shell: `'…'`, a `'` inside as `'\''`. Empty stays empty (nothing was given). */
export function shellQuote(text: string): string {
  return text === '' ? '' : `'${text.split("'").join("'\\''")}'`;
}

const newTop = (substitution: boolean): Top => ({ kind: 'top', parens: 0, words: [], word: '', substitution });

/**
 * `template` with each placeholder replaced by `valueOf(ref)` as data; or which placeholder could not go where it
 * stands, and why (nothing of the line then runs).
 */
export function substituteShellLine(template: string, valueOf: (ref: ArgumentRef) => string): ShellLineResult {
  const stack: Frame[] = [newTop(false)];
  const top = (): Top => stack.findLast((f): f is Top => f.kind === 'top')!;
  let out = '';
  let i = 0;
  // A here-document's body (the lines of a ```! block after `<<`) expands `$(…)` whatever quotes it holds.
  let hereDocument = false;
  while (i < template.length) {
    const frame = stack[stack.length - 1];
    PLACEHOLDER.lastIndex = i;
    const hit = PLACEHOLDER.exec(template);
    if (hit) {
      const ref: ArgumentRef = hit[1] === undefined ? { whole: true } : { index: Number(hit[1]) };
      if (hereDocument) return { refused: `${hit[0]} follows a here-document (<<), whose body is expanded as shell` };
      const command: CommandWords = { words: top().words, word: top().word, rest: template.slice(i + hit[0].length) };
      const placed = place(stack, command, ref, valueOf(ref));
      if ('refused' in placed) return placed;
      // After a bare `$`, a quote would open `$'…'` (escapes decoded, and `\'` no end): an empty '' goes first.
      if (placed.text.startsWith("'") && stack[stack.length - 1].kind === 'top' && /(^|[^\\])(\\\\)*\$$/.test(out))
        out += "''";
      out += placed.text;
      top().word += placed.text;
      i += hit[0].length;
      continue;
    }
    const step = read(stack, frame, template, i);
    if ('refused' in step) return step;
    if (frame.kind !== 'top') top().word += step.text;
    else if (step.open) frame.word += step.text;
    if (step.hereDocument) hereDocument = true;
    if (step.open) stack.push(step.open);
    if (step.close) stack.pop();
    out += step.text;
    i += step.text.length;
  }
  const open = stack.filter((f) => f.kind !== 'comment');
  if (open.length > 1)
    return { refused: 'the line has an unterminated quote or substitution, so where the arguments go is unclear' };
  return { command: out };
}

/** The text that stands for `ref` where the stack says it is, or why it may not go there. */
function place(
  stack: readonly Frame[],
  command: CommandWords,
  ref: ArgumentRef,
  value: string,
): { text: string } | { refused: string } {
  const name = 'whole' in ref ? '$ARGUMENTS' : `$${ref.index}`;
  const kinds = stack.map((f) => f.kind);
  const inner = kinds[kinds.length - 1];
  // A comment runs nothing; only a line break would end it.
  if (inner === 'comment') return { text: value.replace(/[\r\n]+/g, ' ') };
  if (kinds.includes('param'))
    return {
      refused: `${name} is inside \${…}, where bash reads the argument's quotes as text and runs what is inside`,
    };
  const risk = kinds.includes('arith')
    ? ({ kind: 'integer', why: 'arithmetic evaluates it as code' } as const)
    : placeRisk(command);
  if (risk?.kind === 'code') return { refused: `${name} cannot go there: ${risk.why}` };
  if (risk?.kind === 'integer' && !/^-?\d+$/.test(value))
    return { refused: `${name} must be a whole number there (${risk.why}); ${JSON.stringify(value)} is not one` };
  if (risk?.kind === 'name' && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(value))
    return { refused: `${name} must be a plain name there (${risk.why}); ${JSON.stringify(value)} is not one` };
  if (risk) return { text: value };
  const word = shellQuote(value);
  if (!word) return { text: '' };
  if (inner === 'double') return { text: `"${word}"` };
  if (inner === 'single') return { text: `'${word}'` };
  if (inner === 'ansi') return { text: `'${word}$'` };
  return { text: word };
}

function read(stack: readonly Frame[], frame: Frame, t: string, i: number): Step {
  const c = t[i];
  const next = t[i + 1] ?? '';
  switch (frame.kind) {
    case 'single':
      return c === "'" ? { text: c, close: true } : { text: c };
    case 'comment':
      // A line break ends the comment (a ```! block has several lines); the top context then reads it.
      return c === '\n' ? { text: '', close: true } : { text: c };
    case 'ansi':
      if (c === '\\') return { text: c + next };
      return c === "'" ? { text: c, close: true } : { text: c };
    case 'double':
      if (c === '\\') return { text: c + next };
      if (c === '"') return { text: c, close: true };
      return expansion(t, i) ?? { text: c };
    case 'param':
      if (c === '\\') return { text: c + next };
      if (c === '}' && frame.depth === 0) return { text: c, close: true };
      if (c === '}') frame.depth--;
      if (c === '{') frame.depth++;
      if (c === "'") return { text: c, open: { kind: 'single' } };
      if (c === '"') return { text: c, open: { kind: 'double' } };
      return expansion(t, i) ?? { text: c };
    case 'arith':
      if (frame.closer === '))' && c === ')' && next === ')' && frame.parens === 0) return { text: '))', close: true };
      if (frame.closer === ']' && c === ']' && frame.parens === 0) return { text: c, close: true };
      if (c === '(') frame.parens++;
      if (c === ')') frame.parens--;
      return expansion(t, i) ?? { text: c };
    case 'top':
      return readUnquoted(stack, frame, t, i);
  }
}

/** `$((`, `$(`, `${`, `$[` and backquotes: where expansions are read (everywhere but inside single quotes). */
function expansion(t: string, i: number): Step | undefined {
  if (t[i] === '`') return BACKQUOTE;
  if (t[i] !== '$') return undefined;
  const next = t[i + 1];
  if (next === '(' && t[i + 2] === '(') return { text: '$((', open: { kind: 'arith', parens: 0, closer: '))' } };
  if (next === '(') return { text: '$(', open: newTop(true) };
  if (next === '{') return { text: '${', open: { kind: 'param', depth: 0 } };
  if (next === '[') return { text: '$[', open: { kind: 'arith', parens: 0, closer: ']' } };
  return undefined;
}

/** Outside quotes: words are collected per simple command (shellLineRisks.ts reads them). */
function readUnquoted(stack: readonly Frame[], frame: Top, t: string, i: number): Step {
  const c = t[i];
  const next = t[i + 1] ?? '';
  const endWord = () => {
    if (frame.word) frame.words.push(frame.word);
    frame.word = '';
  };
  if (c === '\\') {
    frame.word += c + next;
    return { text: c + next };
  }
  if (c === "'") return { text: c, open: { kind: 'single' } };
  if (c === '"') return { text: c, open: { kind: 'double' } };
  if (c === '$' && next === "'") return { text: "$'", open: { kind: 'ansi' } };
  if (c === '$' && next === '"') return { text: '$"', open: { kind: 'double' } };
  if (c === '<' && next === '<') return t[i + 2] === '<' ? { text: '<<<' } : { text: '<<', hereDocument: true };
  const opened = expansion(t, i);
  if (opened) return opened;
  if (c === '#' && frame.word === '') return { text: c, open: { kind: 'comment' } };
  if (c === ' ' || c === '\t') {
    endWord();
    return { text: c };
  }
  if (c === '(' && next === '(' && frame.word === '') {
    return { text: '((', open: { kind: 'arith', parens: 0, closer: '))' } };
  }
  if ((c === '<' || c === '>') && next === '(') {
    endWord();
    return { text: c + next, open: newTop(true) };
  }
  if (c === ')' && frame.parens === 0 && frame.substitution && stack.length > 1) return { text: c, close: true };
  if (';&|()\n'.includes(c)) {
    if (c === '(') frame.parens++;
    if (c === ')') frame.parens = Math.max(0, frame.parens - 1);
    endWord();
    frame.words = [];
    return { text: c };
  }
  frame.word += c;
  return { text: c };
}
