// Line continuations are joined as bash joins them (docs/approvals.md, "Fail closed"): checked against
// real bash, which prints the words it read, and against the cases where bash keeps the backslash.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { analyseShellCommand } from '../../../src/engine/policy/shellCommands';
import { joinLineContinuations } from '../../../src/engine/policy/shellContinuations';

const NL = (s: string) => s.replace(/⏎/g, '\n');

/** The words bash passes to printf for `printf '[%s]\n' <words>`, one per bracketed line. */
function bashWords(words: string): string[] {
  const r = spawnSync('bash', ['-c', `printf '[%s]\\n' ${words}`], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  expect(r.status, r.stderr).toBe(0);
  return [...r.stdout.matchAll(/\[([^\]]*)\]\n/g)].map((m) => m[1]);
}

// Only printf with literal words: running them in bash is harmless, and bash says what it read.
const AGAINST_BASH = [
  'r\\⏎m -f x',
  '"a\\⏎b" c',
  "'a\\⏎b' c",
  "$'a\\⏎b' c",
  'a \\⏎b',
  'a\\⏎ b',
  'a \\\\⏎',
  '"x$\\⏎{HOME:+y}"',
  'a"b\\⏎c"d',
  'x\\⏎\\⏎y',
];

describe('line continuations', () => {
  it.each(AGAINST_BASH)('reads %j into the words bash reads', async (written) => {
    const line = NL(`printf '[%s]\\n' ${written}`);
    const shell = await analyseShellCommand(line);
    const printf = shell.commands.find((c) => c.program === 'printf');
    expect(printf).toBeDefined();
    const ours = printf!.argv.slice(2).map((w, i) => (printf!.expanding?.includes(i + 2) ? undefined : w));
    const theirs = bashWords(NL(written));
    expect(ours.length).toBe(theirs.length);
    // A word that expands (`${HOME:+y}`) has no value before it runs: only literal words are compared.
    ours.forEach((w, i) => {
      if (w !== undefined) expect(w).toBe(theirs[i]);
    });
  });

  it('removes a continuation between words without reporting it', () => {
    expect(joinLineContinuations(NL('ls \\⏎  -la'))).toEqual({ text: 'ls   -la' });
    expect(joinLineContinuations(NL('git status\\⏎; git log'))).toEqual({ text: 'git status; git log' });
  });

  it('reports a continuation inside a word, double quotes, backquotes or $( … )', () => {
    for (const written of ['r\\⏎m -f x', 'ls "$\\⏎(id)"', 'ls `i\\⏎d`', 'ls $(i\\⏎d)', 'ls $\\⏎(id)', 'x;\\⏎;']) {
      expect(joinLineContinuations(NL(written)).unmodelled, written).toMatch(/backslash-newline inside a word/);
    }
    expect(joinLineContinuations(NL('ls "$\\⏎(id)"')).text).toBe('ls "$(id)"');
  });

  it('keeps the backslash where bash keeps it, and still reports it', () => {
    expect(joinLineContinuations(NL("echo 'a\\⏎b'"))).toMatchObject({
      text: NL("echo 'a\\⏎b'"),
      unmodelled: expect.any(String),
    });
    expect(joinLineContinuations(NL("echo $'a\\⏎b'")).text).toBe(NL("echo $'a\\⏎b'"));
    expect(joinLineContinuations(NL("cat <<'EOF'⏎x\\⏎EOF⏎rm -f y⏎EOF")).text).toBe(
      NL("cat <<'EOF'⏎x\\⏎EOF⏎rm -f y⏎EOF"),
    );
  });

  it('joins an unquoted here-document body before looking for its delimiter, as bash does', () => {
    const joined = joinLineContinuations(NL('cat <<EOF⏎x\\⏎EOF⏎touch y⏎EOF⏎echo after'));
    expect(joined.text).toBe(NL('cat <<EOF⏎xEOF⏎touch y⏎EOF⏎echo after'));
    expect(joined.unmodelled).toBeDefined();
  });

  it('does not treat a backslash at the end of a comment as a continuation', () => {
    expect(joinLineContinuations(NL('ls # note \\⏎rm -f x'))).toEqual({ text: NL('ls # note \\⏎rm -f x') });
  });

  it('treats an escaped backslash before a newline as a backslash and a newline', () => {
    expect(joinLineContinuations(NL('echo a\\\\⏎rm -f x'))).toEqual({ text: NL('echo a\\\\⏎rm -f x') });
  });

  it('keeps the line as written when it has no continuation', () => {
    expect(joinLineContinuations('git status && ls')).toEqual({ text: 'git status && ls' });
  });

  it('gives the joined line to the approval panel only when it differs', async () => {
    expect((await analyseShellCommand(NL('r\\⏎m -f x'))).normalised).toBe('rm -f x');
    expect((await analyseShellCommand('rm -f x')).normalised).toBeUndefined();
  });
});
