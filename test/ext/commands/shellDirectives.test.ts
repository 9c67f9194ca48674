// Which text of a command file runs in the shell (docs/plugins.md, "Shell lines in commands"): Claude Code's rule —
// a `!` at a line start or after whitespace, right before a backquoted span — with code spans paired the Markdown
// way, so prose that merely contains `!` and backquotes never becomes a command.
import { describe, expect, it } from 'vitest';
import { findShellDirectives } from '../../../src/ext/commands/shellDirectives';

const commands = (text: string) => findShellDirectives(text).map((d) => `${d.form}:${d.command}`);

describe('findShellDirectives', () => {
  const table: Array<[string, string, string[]]> = [
    ['a line of its own', '!`git status`', ['inline:git status']],
    ['after a label', 'Status: !`git status --short`', ['inline:git status --short']],
    [
      'in a list item',
      '- Diff: !`git diff HEAD`\n- Branch: !`git branch --show-current`',
      ['inline:git diff HEAD', 'inline:git branch --show-current'],
    ],
    ['the issue prose: a ! inside a code span', 'Look for `ERR!`, or `FATAL` in the log.', []],
    ['a code span that is only a bang', 'Add `!` after type/scope: feat!: …', []],
    ['prose between two spans (Claude Code #56361)', 'wrapped with `if !` to surface (IMP-5). uses `find_x` per', []],
    ['no word boundary before !', 'say hello!`echo hi` now', []],
    ['punctuation before !', 'see (!`ls`) here', []],
    ['an escaped bang', 'literally \\!`ls` here', []],
    ['a span of two backquotes', 'run ``!`ls` `` by hand', []],
    ['a double-backquote span after !', '!``ls``', []],
    ['an example in a fenced block', 'Example:\n```bash\n!`rm -rf build`\n```\nDone.', []],
    ['an example in a tilde fence', '~~~\n!`rm -rf build`\n~~~', []],
    ['an unclosed fence hides the rest', '```\n!`ls`', []],
    ['empty command', 'x !` ` y', []],
    ['a command never spans lines', '!`echo a\necho b`', []],
    ['a ```! block', 'Setup:\n```!\n"$ROOT/setup.sh" --x\n```\nGo.', ['block:"$ROOT/setup.sh" --x']],
    ['a ```! block with two lines', '```!\nmkdir -p out\ntouch out/x\n```', ['block:mkdir -p out\ntouch out/x']],
    ['an unclosed ```! block runs nothing', '```!\nrm -rf build\n', []],
    ['~~~! is an ordinary fence', '~~~!\nls\n~~~', []],
    ['a bang span inside a ```! block is part of the block', '```!\necho !`x`\n```', ['block:echo !`x`']],
    ['after a tab and at a line start', 'a\t!`pwd`\n!`date`', ['inline:pwd', 'inline:date']],
    ['a span that closes on the next line is text', 'a `b\n!`ls` c', []],
    ['a blank line ends an open span', 'a `b\n\n!`ls`', ['inline:ls']],
    ['no bang at all', 'Plain `code` text.', []],
  ];
  it.each(table)('%s', (_what, text, expected) => {
    expect(commands(text)).toEqual(expected);
  });

  it('spans cover the directive exactly, so a replacement keeps the text around it', () => {
    const text = 'A !`one` B\n```!\ntwo\n```\nC';
    const found = findShellDirectives(text);
    expect(found.map((d) => text.slice(d.start, d.end))).toEqual(['!`one`', '```!\ntwo\n```']);
    expect(found.map((d) => text.slice(d.commandStart, d.commandStart + d.command.length))).toEqual(['one', 'two']);
  });
});
