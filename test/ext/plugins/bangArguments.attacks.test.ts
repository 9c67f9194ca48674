// The user's arguments in a plugin command's `` !`cmd` `` line or ```` ```! ```` block (docs/plugins.md, "Arguments in !`cmd` lines";
// issue 43's corpus). Each row: {name, setup: the line as a command file writes it, attack: the argument text,
// check}. Every row runs through the real bash, as root and as an unprivileged user:
//   1. filled the way the line reads (the text put in place), the attack creates the canary — it is real;
//   2. where `unfixed` says so, also with the previous expansion (a single-quoted word, whatever the context);
//   3. with Jarvis's expansion: the canary is never created, and either the line runs with the argument as one
//      word of data (the legitimate argument prints as given) or it is refused with the reason.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandPluginCommandParts, type PluginCommand } from '../../../src/ext/plugins/pluginCommands';
import { tokenizeArguments } from '../../../src/ext/skills/skillArguments';
import { runAsUser, sandboxTestUsers, shareWithUsers } from '../../helpers/sandboxUsers';
import { tempDir } from '../../helpers/files';

interface Row {
  name: string;
  /** The `` !`cmd` `` line's text (or a ```` ```! ```` block's lines), as the command file has it. */
  setup: string;
  /** What the user types after the command; `CANARY` is replaced by the canary's path. */
  attack: string;
  /** Whether the previous expansion (a single-quoted word in every context) let it run too. */
  unfixed: boolean;
  /** `runs`: the line runs and prints `legit` as given; `refused`: not run, the reason matching. */
  check: { runs: string } | { refused: RegExp };
  /** A harmless argument for the same line and what the line must print for it; absent where the line can never
   * take an argument (it would run it as code), so it is refused for every argument. */
  legit?: [string, string];
}

const rows: Row[] = [
  {
    name: 'unquoted $ARGUMENTS, command substitution',
    setup: 'echo $ARGUMENTS',
    attack: '$(touch CANARY)',
    unfixed: false,
    check: { runs: '$(touch CANARY)' },
    legit: ['fix the parser', 'fix the parser'],
  },
  {
    name: 'unquoted $ARGUMENTS, a second command after ;',
    setup: 'echo $ARGUMENTS',
    attack: 'x; touch CANARY',
    unfixed: false,
    check: { runs: 'x; touch CANARY' },
    legit: ['a b', 'a b'],
  },
  {
    name: "double-quoted $ARGUMENTS, command substitution (the issue's line)",
    setup: 'echo "$ARGUMENTS"',
    attack: '$(touch CANARY)',
    unfixed: true,
    check: { runs: '$(touch CANARY)' },
    legit: ['PR #42: "quotes" and \'apostrophes\'', 'PR #42: "quotes" and \'apostrophes\''],
  },
  {
    name: 'double-quoted $ARGUMENTS, backquotes',
    setup: 'echo "Title: $ARGUMENTS."',
    attack: '`touch CANARY`',
    unfixed: true,
    check: { runs: 'Title: `touch CANARY`.' },
    legit: ['ok', 'Title: ok.'],
  },
  {
    name: 'double-quoted $ARGUMENTS, closing the quote and chaining',
    setup: 'echo "$ARGUMENTS"',
    attack: '"; touch CANARY; echo "',
    unfixed: true,
    check: { runs: '"; touch CANARY; echo "' },
    legit: ['x', 'x'],
  },
  {
    name: 'double-quoted $ARGUMENTS, a line break and a new command',
    setup: 'echo "$ARGUMENTS"',
    attack: 'one"\ntouch CANARY\necho "two',
    unfixed: true,
    check: { runs: 'one"\ntouch CANARY\necho "two' },
    legit: ['line', 'line'],
  },
  {
    name: 'single-quoted $1, closing the quote',
    setup: "echo '$1'",
    attack: "x';touch${IFS}CANARY;'",
    unfixed: false,
    check: { runs: "x';touch${IFS}CANARY;'" },
    legit: ['word', 'word'],
  },
  {
    name: "ANSI-C quoted $'…$1…'",
    setup: "echo $'tag: $1'",
    attack: "x';touch${IFS}CANARY;'",
    unfixed: false,
    check: { runs: "tag: x';touch${IFS}CANARY;'" },
    legit: ['v1', 'tag: v1'],
  },
  {
    name: 'double quotes inside a command substitution',
    setup: 'echo "$(echo "[$ARGUMENTS]")"',
    attack: '$(touch CANARY)',
    unfixed: true,
    check: { runs: '[$(touch CANARY)]' },
    legit: ['in', '[in]'],
  },
  {
    name: 'here-string',
    setup: 'cat <<<"$ARGUMENTS"',
    attack: '$(touch CANARY)',
    unfixed: true,
    check: { runs: '$(touch CANARY)' },
    legit: ['hello', 'hello'],
  },
  {
    name: 'two arguments in two quoting contexts',
    setup: 'printf "%s|%s\\n" "$1" \'$2\'',
    attack: "$(touch${IFS}CANARY) ';touch${IFS}CANARY;'",
    unfixed: true,
    check: { runs: '$(touch${IFS}CANARY)|;touch${IFS}CANARY;' },
    legit: ['a b', 'a|b'],
  },
  {
    name: 'arithmetic expansion',
    setup: 'echo $((1 + $1))',
    attack: 'a[$(touch${IFS}CANARY)]',
    unfixed: true,
    check: { refused: /\$1 must be a whole number there \(arithmetic/ },
    legit: ['41', '42'],
  },
  {
    name: '[[ -eq ]] evaluates a quoted operand as arithmetic',
    setup: '[[ "$1" -eq 3 ]] && echo three || echo other',
    attack: 'a[$(touch${IFS}CANARY)]',
    unfixed: true,
    check: { refused: /must be a whole number there \(`\[\[ … -eq … \]\]`/ },
    legit: ['3', 'three'],
  },
  {
    name: 'a variable name read evaluates its subscript',
    setup: 'read -r "$1" <<< value && echo read',
    attack: 'a[$(touch${IFS}CANARY)]',
    unfixed: true,
    check: { refused: /must be a plain name there/ },
    legit: ['answer', 'read'],
  },
  {
    name: 'printf -v into a name',
    setup: 'printf -v "$1" %s x && echo set',
    attack: 'a[$(touch${IFS}CANARY)]',
    unfixed: true,
    check: { refused: /must be a plain name there \(`printf -v`/ },
    legit: ['out', 'set'],
  },
  {
    name: 'declare -i',
    setup: 'declare -i n="$1"; echo $n',
    attack: 'a[$(touch${IFS}CANARY)]',
    unfixed: true,
    check: { refused: /must be a whole number there \(`declare -i`/ },
    legit: ['7', '7'],
  },
  {
    name: 'eval of the arguments',
    setup: 'eval echo $ARGUMENTS',
    attack: '$(touch CANARY)',
    unfixed: true,
    check: { refused: /`eval` would run it as shell code/ },
  },
  {
    name: 'bash -c with the argument in its program text',
    setup: 'bash -c "echo $1"',
    attack: '$(touch${IFS}CANARY)',
    unfixed: true,
    check: { refused: /part of the program text `bash` runs/ },
  },
  {
    name: 'a ```! block: the argument on the line after a comment',
    setup: '# say what was asked\necho $ARGUMENTS',
    attack: '$(touch CANARY)',
    unfixed: false,
    check: { runs: '$(touch CANARY)' },
    legit: ['fix the parser', 'fix the parser'],
  },
  {
    name: 'a ```! block: the argument in a here-document, whose body is expanded whatever its quotes',
    setup: 'cat <<EOF\nTopic: $ARGUMENTS\nEOF',
    attack: '$(touch CANARY)',
    unfixed: true,
    check: { refused: /follows a here-document/ },
  },
  {
    name: '${VAR:-$ARGUMENTS} inside double quotes',
    setup: 'echo "${UNSET_NAME:-$ARGUMENTS}"',
    attack: '$(touch CANARY)',
    unfixed: true,
    check: { refused: /inside \$\{…\}/ },
  },
  {
    name: 'python -c with the argument in its program text',
    setup: 'python3 -c "print(\'$ARGUMENTS\')"',
    attack: "');__import__('os').system('touch CANARY');print('",
    unfixed: false,
    check: { refused: /part of the program text `python3` runs/ },
  },
  {
    name: 'a backslash at the end of a word does not escape the closing quote',
    setup: 'echo "$1" "$2"',
    attack: 'x\\ ;touch${IFS}CANARY;#',
    unfixed: false,
    check: { runs: 'x\\ ;touch${IFS}CANARY;#' },
    legit: ['a b', 'a b'],
  },
];

const users = sandboxTestUsers('bang-args');

/** The line with each placeholder replaced by the text itself (how the line reads; the attack's proof). */
function textual(line: string, args: string): string {
  const words = tokenizeArguments(args);
  return line.replace(/\$ARGUMENTS(?![\w[])|\$([1-9]\d*)(?!\d)/g, (_m, n?: string) =>
    n === undefined ? args : (words[Number(n) - 1] ?? ''),
  );
}

/** The previous expansion: every placeholder a single-quoted word, whatever quotes it stood in. */
function previous(line: string, args: string): string {
  const quote = (t: string) => (t === '' ? '' : `'${t.split("'").join("'\\''")}'`);
  const words = tokenizeArguments(args);
  return line.replace(/\$ARGUMENTS(?![\w[])|\$([1-9]\d*)(?!\d)/g, (_m, n?: string) =>
    quote(n === undefined ? args : (words[Number(n) - 1] ?? '')),
  );
}

function jarvis(line: string, args: string) {
  const command: PluginCommand = {
    plugin: 'p',
    command: 'c',
    name: 'p:c',
    description: '',
    // A line of its own is written inline; several lines make a ```! block.
    body: line.includes('\n') ? `\`\`\`!\n${line}\n\`\`\`` : `!\`${line}\``,
    path: '/c.md',
  };
  const expanded = expandPluginCommandParts(command, args);
  if (!expanded.ok) throw new Error(expanded.message);
  return expanded.bangs[0];
}

describe.each(users)('a !`cmd` line with hostile arguments, run as $label', (user) => {
  it.each(rows)('$name', (row) => {
    const dir = tempDir('jarvis-bang-');
    shareWithUsers(dir);
    const canary = join(dir, 'pwned');
    const attack = row.attack.split('CANARY').join(canary);
    const bash = (command: string) => runAsUser(user, 'bash', ['-c', command], { cwd: dir });
    const fresh = () => rmSync(canary, { force: true });

    bash(textual(row.setup, attack));
    expect(existsSync(canary), `the attack works when the text is put in place: ${textual(row.setup, attack)}`).toBe(
      true,
    );
    fresh();
    bash(previous(row.setup, attack));
    expect(existsSync(canary), 'the previous expansion').toBe(row.unfixed);
    fresh();

    const span = jarvis(row.setup, attack);
    if ('refused' in row.check) {
      expect(span.refused).toMatch(row.check.refused);
    } else {
      expect(span.refused).toBeUndefined();
      const ran = bash(span.command);
      expect(ran.stdout.replace(/\n$/, '')).toBe(row.check.runs.split('CANARY').join(canary));
    }
    expect(existsSync(canary)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);

    // The legitimate argument: the line runs and prints what it should (or, for a line that runs its argument as
    // code, is refused for it too).
    const legit = jarvis(row.setup, row.legit?.[0] ?? 'harmless');
    if (!row.legit) return expect(legit.refused).toMatch('refused' in row.check ? row.check.refused : /^$/);
    expect(legit.refused).toBeUndefined();
    const ok = bash(legit.command);
    expect(ok.stdout.replace(/\n$/, ''), ok.stderr).toBe(row.legit[1]);
  });
});
