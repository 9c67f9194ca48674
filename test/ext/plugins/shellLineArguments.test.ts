// How an argument is written into a `` !`cmd` `` line (docs/plugins.md, "Arguments in !`cmd` lines"): per quoting
// context, checked through the real bash with random text made of the characters shells treat specially — what
// bash prints is exactly the text, and nothing it holds ever runs; then the places that are refused, and why.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { substituteShellLine, type ShellLineResult } from '../../../src/ext/plugins/shellLineArguments';
import { tempDir } from '../../helpers/files';

/** A deterministic generator (the same texts on every run, so a failure can be replayed). */
function* texts(count: number, seed = 7): Generator<string> {
  const alphabet = [
    "'",
    '"',
    '$',
    '(',
    ')',
    '`',
    ';',
    '&',
    '|',
    '<',
    '>',
    '\\',
    ' ',
    '\n',
    '\t',
    '#',
    '*',
    '?',
    '[',
    ']',
    '{',
    '}',
    '~',
    '!',
    '=',
    '%',
    'a',
    'Z',
    '1',
    'é',
    '$(touch P)',
    '`touch P`',
    "';touch P;'",
    '";touch P;"',
  ];
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31);
  for (let n = 0; n < count; n++) {
    let text = '';
    const length = 1 + (next() % 12);
    for (let k = 0; k < length; k++) text += alphabet[next() % alphabet.length];
    yield text;
  }
}

const CONTEXTS: Array<[string, string, (v: string) => string]> = [
  ['outside quotes', 'printf %s $ARGUMENTS', (v) => v],
  ['double quotes', 'printf %s "<$ARGUMENTS>"', (v) => `<${v}>`],
  ['single quotes', "printf %s '<$ARGUMENTS>'", (v) => `<${v}>`],
  ["ANSI-C $'…'", "printf %s $'<\\t$ARGUMENTS>'", (v) => `<\t${v}>`],
  ['double quotes inside $(…)', 'printf %s "$(printf %s "$ARGUMENTS")"', (v) => v.replace(/\n+$/, '')],
  ['right after a bare $', 'printf %s $$ARGUMENTS', (v) => v],
  ['right after an escaped $', 'printf %s \\$$ARGUMENTS', (v) => `$${v}`],
  ['inside <(…)', 'cat <(printf %s "$ARGUMENTS")', (v) => v],
  ['here-string', 'cat <<<"$ARGUMENTS"', (v) => `${v}\n`],
  ['three contexts in one word', 'printf %s "[$ARGUMENTS]"\'($ARGUMENTS)\'$ARGUMENTS', (v) => `[${v}](${v})${v}`],
  ['a ```! block, the line after a comment', '# print it\nprintf %s "$ARGUMENTS"', (v) => v],
];

describe('an argument is data in every quoting context (random texts through bash)', () => {
  it.each(CONTEXTS)('%s', (_name, line, expected) => {
    const dir = tempDir('jarvis-quote-');
    for (const text of texts(120)) {
      const value = text.split('P').join(join(dir, 'pwned'));
      const result = substituteShellLine(line, () => value);
      if (!('command' in result)) throw new Error(`refused ${JSON.stringify(value)}: ${result.refused}`);
      const ran = spawnSync('bash', ['-c', result.command], { cwd: dir, encoding: 'utf8' });
      expect(ran.stdout, `${JSON.stringify(value)} → ${result.command}\n${ran.stderr}`).toBe(expected(value));
      expect(existsSync(join(dir, 'pwned'))).toBe(false);
    }
  });
});

describe('where an argument goes', () => {
  const fill = (line: string, value = 'v'): ShellLineResult => substituteShellLine(line, () => value);
  const rows: Array<[string, string, string, ShellLineResult]> = [
    ['an empty argument outside quotes is no word at all', 'ls $1', '', { command: 'ls ' }],
    ['an escaped $ is no placeholder', 'echo \\$ARGUMENTS', 'v', { command: 'echo \\$ARGUMENTS' }],
    [
      '$ARGUMENTS[0] is not this form; $1x is $1 then x',
      'echo $ARGUMENTS[0] $1x',
      'v',
      { command: "echo $ARGUMENTS[0] 'v'x" },
    ],
    ['in a comment, without line breaks', 'echo hi # about $1', 'a\nb', { command: 'echo hi # about a b' }],
    ['a line break ends a comment (```! blocks)', '# about $1\necho $1', 'a b', { command: "# about a b\necho 'a b'" }],
    ['after a command substitution closed', 'echo "$(date)" $1', 'v', { command: `echo "$(date)" 'v'` }],
    ['a whole number in arithmetic', 'echo $(( $1 * 2 ))', '7', { command: 'echo $(( 7 * 2 ))' }],
    ['a plain name for read', 'read -r $1 <<< x', 'v', { command: 'read -r v <<< x' }],
    ['a prompt for read -p is data', 'read -p "$1" x', 'v', { command: `read -p ""'v'"" x` }],
    ['a value after = in local is data', 'f() { local x="$1"; }', 'v', { command: `f() { local x=""'v'""; }` }],
  ];
  it.each(rows)('%s', (_name, line, value, expected) => {
    expect(fill(line, value)).toEqual(expected);
  });

  const refusals: Array<[string, string, RegExp]> = [
    ['an unterminated double quote', 'echo "$1', /unterminated quote/],
    ['an unterminated single quote', "echo '$1", /unterminated quote/],
    ['an unclosed $(', 'echo $(echo $1', /unterminated quote or substitution/],
    ['a comment swallowing the ) of $(…)', 'echo $(echo # $1)', /unterminated/],
    ['${#…}', 'echo ${#1} ${x:-$1}', /inside \$\{…\}/],
    ['$[…] arithmetic', 'echo $[$1+1]', /whole number there \(arithmetic/],
    ['((…)) arithmetic', '(( $1 > 2 )) && echo big', /whole number there/],
    ['let', 'let n=$1+1', /whole number there \(`let`/],
    ['an array subscript before a command', 'a[$1]=x', /whole number there \(an array subscript/],
    ['an array subscript in a compound assignment', 'a=([$1]=x)', /whole number there \(an array subscript/],
    ['[ -v name ]', '[ -v "$1" ] && echo set', /plain name there \(`-v`/],
    ['declare name', 'declare "$1"', /plain name there \(`declare` reads it as a variable name/],
    ['unset name', 'unset "$1"', /plain name there/],
    ['source', 'source "$1"', /`source` would run it/],
    ['. (dot)', '. "$1"', /`\.` would run it/],
    ['trap', 'trap "$1" EXIT', /`trap` would run it/],
    ['sh -c after a wrapper', 'xargs -0 sh -c "echo $1"', /program text `sh`/],
    ['node -e', 'node -e "console.log(\'$1\')"', /program text `node`/],
    ['bash -lc', 'env X=1 bash -lc "echo $ARGUMENTS"', /program text `bash`/],
    ['a here-document body (```! blocks)', 'cat <<EOF\n$1\nEOF', /follows a here-document \(<<\)/],
    ['a here-document, delimiter quoted', "cat <<-'EOF'\n\t[$1]\nEOF", /follows a here-document/],
  ];
  it.each(refusals)('refused: %s', (_name, line, why) => {
    const result = fill(line, 'a[$(touch x)]');
    expect('refused' in result ? result.refused : result.command).toMatch(why);
  });

  it('a whole number or plain name the same places accept', () => {
    expect(fill('let n=$1+1', '41')).toEqual({ command: 'let n=41+1' });
    expect(fill('declare "$1"', 'name_1')).toEqual({ command: 'declare "name_1"' });
  });
});
