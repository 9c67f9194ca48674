// Places in a bash command where even a quoted word is evaluated as code (docs/plugins.md, "Arguments in !`cmd`
// lines"), checked for each `$ARGUMENTS`/`$N` of a `` !`cmd` `` line by shellLineArguments.ts: what `eval`,
// `source` and an interpreter's program text run; arithmetic (`let`, `[[ a -eq b ]]`, `declare -i`, an array
// subscript), which runs `$(…)` found in an `a[…]` of its operand; and variable names (`read x`, `printf -v x`,
// `[[ -v x ]]`, `declare x`), which are evaluated the same way when they carry a subscript.

/** The simple command a placeholder stands in: the words before it, its own word so far, the line after it. */
export interface CommandWords {
  words: readonly string[];
  word: string;
  rest: string;
}

/** `code`: refused; `integer`: only a whole number may go there; `name`: only a plain variable name. */
export type PlaceRisk = { kind: 'code' | 'integer' | 'name'; why: string };

const SHELLS = /^(?:sh|bash|dash|zsh|ksh|mksh|fish|busybox)$/;
const INTERPRETERS = /^(?:python[\d.]*|node|nodejs|deno|bun|perl|ruby|php|lua|osascript|pwsh|powershell)$/;
/** Options that make the next word (or the rest of the line) program text. */
const PROGRAM_OPTION = /^-[A-Za-z]*[ceEp]$|^--(?:eval|command|exec|print)$/;
const EVALUATING = new Set(['eval', 'source', '.', 'trap', 'alias', 'bind', 'fc']);
const DECLARATIONS = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);
/** Builtins whose operands are variable names. */
const NAME_TAKERS = new Set(['read', 'unset', 'getopts', 'mapfile', 'readarray', 'wait']);
/** `read` options whose value is data, not a name. */
const READ_DATA_OPTIONS = new Set(['-p', '-d', '-i', '-n', '-N', '-t', '-u']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;
const ARITHMETIC_OPERATOR = /(?:^|\s)-(?:eq|ne|lt|le|gt|ge)(?=\s|$)/;

const unquoted = (word: string) => word.replace(/["'\\]/g, '');
const baseName = (word: string) => unquoted(word).replace(/^.*\//, '');

export function placeRisk({ words, word, rest }: CommandWords): PlaceRisk | undefined {
  const names = words.map(baseName);
  const first = names[0] ?? '';
  const previous = names[names.length - 1] ?? '';
  const evaluator = names.find((n) => EVALUATING.has(n));
  if (evaluator) return { kind: 'code', why: `\`${evaluator}\` would run it as shell code` };
  const program = names.findIndex((n) => SHELLS.test(n) || INTERPRETERS.test(n));
  if (program >= 0 && names.slice(program + 1).some((n) => PROGRAM_OPTION.test(n)))
    return { kind: 'code', why: `it would be part of the program text \`${names[program]}\` runs` };
  if (first === 'let') return { kind: 'integer', why: '`let` evaluates it as arithmetic' };
  const test = first === '[[' || first === '[' || first === 'test';
  if (first === '[[' && ARITHMETIC_OPERATOR.test(`${words.join(' ')} ${word} ${rest.split(']]')[0]}`))
    return { kind: 'integer', why: '`[[ … -eq … ]]` evaluates its operands as arithmetic' };
  if (test && previous === '-v') return { kind: 'name', why: '`-v` evaluates a subscript of the name it tests' };
  if (first === 'printf' && previous === '-v') return { kind: 'name', why: '`printf -v` assigns to that name' };
  if (DECLARATIONS.has(first)) {
    if (names.slice(1).some((n) => /^-[A-Za-z]*i/.test(n)))
      return { kind: 'integer', why: `\`${first} -i\` evaluates values as arithmetic` };
    if (!word.includes('=')) return { kind: 'name', why: `\`${first}\` reads it as a variable name` };
  }
  if (NAME_TAKERS.has(first) && !(first === 'read' && READ_DATA_OPTIONS.has(previous)))
    return { kind: 'name', why: `\`${first}\` reads it as a variable name` };
  // `a[$1]=x` before a command (or alone), and `[$1]=x` inside `a=( … )`: an indexed array's subscript is arithmetic.
  const assigning = words.every((w) => ASSIGNMENT.test(unquoted(w)));
  if (assigning && /^(?:[A-Za-z_][A-Za-z0-9_]*)?\[[^\]]*$/.test(unquoted(word)))
    return { kind: 'integer', why: 'an array subscript is evaluated as arithmetic' };
  return undefined;
}
