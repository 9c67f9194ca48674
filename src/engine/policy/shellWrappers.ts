// Programs whose arguments are another command: `sudo rm x` runs `rm x`, `bash -c "rm x"` runs the
// script `rm x`, `find . -exec rm {} ;` runs `rm`. Permission rules must see the command inside, so
// each wrapper here says where its inner command starts. The list is in docs/approvals.md; a wrapper
// that is not on it hides its command from the rules, which that document says too.

/** One shell word: its value with quotes removed, or its source text when it expands at run time. */
export interface ShellWord {
  text: string;
  literal: boolean;
}

export type InnerCommand =
  | { kind: 'command'; words: ShellWord[]; via: string }
  | { kind: 'script'; script: string; via: string }
  | { kind: 'unknowable'; reason: string };

/** Options that take a value, per wrapper: `u` is `-u VALUE` / `-uVALUE`, `-user` is `--user VALUE`. */
const WRAPPER_OPTIONS: Record<string, readonly string[]> = {
  command: [],
  builtin: [],
  exec: ['a'],
  nohup: [],
  setsid: [],
  busybox: [],
  nice: ['n', '-adjustment'],
  ionice: ['c', 'n', 'p', 'P', 'u', '-class', '-classdata'],
  stdbuf: ['i', 'o', 'e', '-input', '-output', '-error'],
  time: ['f', 'o', '-format', '-output'],
  timeout: ['s', 'k', '-signal', '-kill-after'],
  sudo: [
    'u',
    'g',
    'C',
    'D',
    'h',
    'p',
    'r',
    't',
    'U',
    'T',
    '-user',
    '-group',
    '-close-from',
    '-chdir',
    '-host',
    '-prompt',
    '-role',
    '-type',
    '-other-user',
    '-command-timeout',
  ],
  doas: ['u', 'C'],
  xargs: [
    'I',
    'L',
    'n',
    'P',
    's',
    'd',
    'E',
    'a',
    '-max-lines',
    '-max-args',
    '-max-procs',
    '-max-chars',
    '-delimiter',
    '-eof',
    '-arg-file',
    '-replace',
    '-process-slot-var',
  ],
};

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish']);
const SHELL_LONG_OPTIONS = ['--rcfile', '--init-file'];
const FIND_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Programs that run a string later or under another name: read for deny rules, never covered by allow rules. */
const DEFERRED = new Set(['trap', 'alias']);

export function isWrapper(program: string): boolean {
  return (
    program in WRAPPER_OPTIONS ||
    DEFERRED.has(program) ||
    SHELLS.has(program) ||
    ['env', 'find', 'eval', 'source', '.', 'coproc'].includes(program)
  );
}

/** Words that `placeholder` (xargs -I, find -exec's `{}`) is replaced in are known only when the line runs. */
function replaced(words: readonly ShellWord[], placeholder: string): ShellWord[] {
  return words.map((w) => (w.literal && w.text.includes(placeholder) ? { text: w.text, literal: false } : w));
}

/** xargs's replacement string: `-I R`, `-IR`, `--replace[=R]`, `-i[R]` (`{}` when not given). */
function xargsPlaceholder(words: readonly ShellWord[], end: number): string | undefined {
  let found: string | undefined;
  for (let i = 1; i < end; i++) {
    const w = words[i].text;
    if (w === '-I') found = words[i + 1]?.text ?? '{}';
    else if (/^-I./.test(w)) found = w.slice(2);
    else if (/^--replace(=|$)/.test(w)) found = w.slice('--replace='.length) || '{}';
    else if (/^-i/.test(w)) found = w.slice(2) || '{}';
  }
  return found;
}

/** `trap ACTION SIGNAL…`: the action runs later; `trap`, `trap -p`, `trap - SIG` and `trap '' SIG` run nothing. */
function trapInner(words: readonly ShellWord[]): InnerCommand[] {
  let i = 1;
  while (i < words.length && /^-[lpP]+$/.test(words[i].text)) i++;
  if (words[i]?.text === '--') i++;
  const action = words[i];
  if (!action || action.text === '-' || action.text === '' || words.length - i === 1) return [];
  const reason = `trap ${action.text} (the command runs later, on a signal or at exit)`;
  const later: InnerCommand = { kind: 'unknowable', reason };
  return action.literal ? [later, { kind: 'script', script: action.text, via: 'trap' }] : [later];
}

/** `coproc [NAME] { …; }`: the words after the brace start a command; the compound is not fully read. */
function coprocInner(words: readonly ShellWord[]): InnerCommand[] {
  const open = words.findIndex((w, i) => i >= 1 && i <= 2 && (w.text === '{' || w.text === '('));
  if (open < 0) return words.length > 1 ? [{ kind: 'command', words: words.slice(1), via: 'coproc' }] : [];
  const body = words.slice(open + 1);
  const reason: InnerCommand = { kind: 'unknowable', reason: 'coproc with a compound command (not fully read)' };
  return body.length > 0 ? [reason, { kind: 'command', words: body, via: 'coproc' }] : [reason];
}

/**
 * Index of the first word after the options that start at `start`. Handles `--`, `--name=value`,
 * `--name value` for valued long options, and short clusters (`-xec`, `-uroot`, `-u root`).
 */
function skipOptions(words: readonly ShellWord[], start: number, valued: readonly string[]): number {
  let i = start;
  while (i < words.length) {
    const w = words[i].text;
    if (w === '--') return i + 1;
    if (!/^[-+]./.test(w) || !words[i].literal) return i;
    if (w.startsWith('--')) {
      i += !w.includes('=') && valued.includes(w.slice(1)) ? 2 : 1;
      continue;
    }
    const letters = w.slice(1);
    const at = [...letters].findIndex((l) => valued.includes(l));
    i += at >= 0 && at === letters.length - 1 ? 2 : 1;
  }
  return i;
}

function literalScript(words: readonly ShellWord[]): string | undefined {
  return words.every((w) => w.literal) ? words.map((w) => w.text).join(' ') : undefined;
}

function shellInner(program: string, words: readonly ShellWord[]): InnerCommand[] {
  let i = 1;
  let runsString = false;
  while (i < words.length && /^[-+]./.test(words[i].text)) {
    const w = words[i].text;
    if (w === '--') {
      i++;
      break;
    }
    const long = w.startsWith('--');
    if (!long && w.slice(1).includes('c')) runsString = true;
    const takesValue = long ? SHELL_LONG_OPTIONS.includes(w) : /[oO]$/.test(w);
    i += takesValue ? 2 : 1;
  }
  const rest = words.slice(i);
  if (runsString) {
    const script = rest[0];
    if (!script) return [{ kind: 'unknowable', reason: `${program} -c has no command string` }];
    if (!script.literal)
      return [{ kind: 'unknowable', reason: `${program} -c runs ${script.text}, which is known only when it runs` }];
    return [{ kind: 'script', script: script.text, via: `${program} -c` }];
  }
  if (rest.length > 0) return [{ kind: 'unknowable', reason: `${program} runs the script file ${rest[0].text}` }];
  if (words.slice(1).some((w) => w.text === '--version' || w.text === '--help')) return [];
  return [{ kind: 'unknowable', reason: `${program} reads the commands it runs from its input` }];
}

function envInner(words: readonly ShellWord[]): InnerCommand[] {
  let i = 1;
  while (i < words.length) {
    const w = words[i];
    if (w.text === '--') {
      i++;
      break;
    }
    if (w.literal && /^(-S|--split-string(=|$))/.test(w.text)) {
      const attached = w.text.startsWith('-S') ? w.text.slice(2) : w.text.slice('--split-string='.length);
      const value = attached !== '' ? w : words[i + 1];
      if (!value || !value.literal)
        return [{ kind: 'unknowable', reason: 'env -S splits a string known only when it runs' }];
      const script = [
        attached !== '' ? attached : value.text,
        ...words.slice(i + (attached !== '' ? 1 : 2)).map((x) => x.text),
      ].join(' ');
      return [{ kind: 'script', script, via: 'env -S' }];
    }
    if (w.text === '-' || /^-./.test(w.text)) {
      i = skipOptions(words, i, ['u', 'C', '-unset', '-chdir']) === i + 2 ? i + 2 : i + 1;
      continue;
    }
    break;
  }
  while (i < words.length && ASSIGNMENT.test(words[i].text)) i++;
  return i < words.length ? [{ kind: 'command', words: words.slice(i), via: 'env' }] : [];
}

function findInner(words: readonly ShellWord[]): InnerCommand[] {
  const inner: InnerCommand[] = [];
  for (let i = 1; i < words.length; i++) {
    if (!FIND_ACTIONS.has(words[i].text)) continue;
    const start = i + 1;
    let end = start;
    while (end < words.length && words[end].text !== ';' && words[end].text !== '+') end++;
    const via = `find ${words[i].text}`;
    if (end > start) inner.push({ kind: 'command', words: replaced(words.slice(start, end), '{}'), via });
    i = end;
  }
  return inner;
}

/** The commands that `words` (a command whose program is `program`) runs inside itself. */
export function innerCommands(program: string, words: readonly ShellWord[]): InnerCommand[] {
  if (SHELLS.has(program)) return shellInner(program, words);
  if (program === 'env') return envInner(words);
  if (program === 'find') return findInner(words);
  if (program === 'source' || program === '.') {
    return [{ kind: 'unknowable', reason: `${program} runs the commands in ${words[1]?.text ?? 'a file'}` }];
  }
  if (program === 'trap') return trapInner(words);
  if (program === 'coproc') return coprocInner(words);
  if (program === 'alias') {
    return words.slice(1).flatMap((w): InnerCommand[] => {
      const eq = w.text.indexOf('=');
      return w.literal && eq > 0 ? [{ kind: 'script', script: w.text.slice(eq + 1), via: 'alias' }] : [];
    });
  }
  if (program === 'eval') {
    const script = literalScript(words.slice(1));
    if (script === undefined)
      return [{ kind: 'unknowable', reason: 'eval runs a string that is known only when it runs' }];
    return script.trim() === '' ? [] : [{ kind: 'script', script, via: 'eval' }];
  }
  const valued = WRAPPER_OPTIONS[program];
  if (!valued) return [];
  let i = skipOptions(words, 1, valued);
  if (program === 'timeout') i++; // the duration
  if (program === 'sudo') while (i < words.length && ASSIGNMENT.test(words[i].text)) i++;
  const rest = words.slice(i);
  if (rest.length === 0) {
    return program === 'xargs' ? [{ kind: 'command', words: [{ text: 'echo', literal: true }], via: 'xargs' }] : [];
  }
  const placeholder = program === 'xargs' ? xargsPlaceholder(words, i) : undefined;
  return [{ kind: 'command', words: placeholder ? replaced(rest, placeholder) : rest, via: program }];
}
