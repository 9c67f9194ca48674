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
  coproc: [],
  busybox: [],
  nice: ['n', '-adjustment'],
  ionice: ['c', 'n', 'p', 'P', 'u', '-class', '-classdata'],
  stdbuf: ['i', 'o', 'e', '-input', '-output', '-error'],
  time: ['f', 'o', '-format', '-output'],
  timeout: ['s', 'k', '-signal', '-kill-after'],
  sudo: ['u', 'g', 'C', 'D', 'h', 'p', 'r', 't', 'U', 'T', '-user', '-group', '-close-from', '-chdir', '-host', '-prompt', '-role', '-type', '-other-user', '-command-timeout'],
  doas: ['u', 'C'],
  xargs: ['I', 'L', 'n', 'P', 's', 'd', 'E', 'a', '-max-lines', '-max-args', '-max-procs', '-max-chars', '-delimiter', '-eof', '-arg-file', '-replace', '-process-slot-var'],
};

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish']);
const SHELL_LONG_OPTIONS = ['--rcfile', '--init-file'];
const FIND_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export function isWrapper(program: string): boolean {
  return program in WRAPPER_OPTIONS || program === 'env' || program === 'find' || program === 'eval' || program === 'source' || program === '.' || SHELLS.has(program);
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
    if (!script.literal) return [{ kind: 'unknowable', reason: `${program} -c runs ${script.text}, which is known only when it runs` }];
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
      if (!value || !value.literal) return [{ kind: 'unknowable', reason: 'env -S splits a string known only when it runs' }];
      const script = [attached !== '' ? attached : value.text, ...words.slice(i + (attached !== '' ? 1 : 2)).map((x) => x.text)].join(' ');
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
    if (end > start) inner.push({ kind: 'command', words: words.slice(start, end), via: `find ${words[i].text}` });
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
  if (program === 'eval') {
    const script = literalScript(words.slice(1));
    if (script === undefined) return [{ kind: 'unknowable', reason: 'eval runs a string that is known only when it runs' }];
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
  return [{ kind: 'command', words: rest, via: program }];
}
