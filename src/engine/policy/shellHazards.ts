// Shell features that run code the parser never reads as a command (docs/approvals.md, "Fail closed"):
// aliases, traps, `hash -p`, variables that make a shell or git run a program, and arithmetic or
// indirection that evaluates a variable's value (`a[$(cmd)]` inside a value runs `cmd`). Each finding
// is a reason the line is not fully modelled: allow rules never cover it, and where a Bash deny rule
// exists it is treated as possibly that program.
import type { SyntaxNode } from '../../platform/bashSyntax';
import type { ShellCommand } from './shellCommands';

/** Variables whose value a shell, a dynamic loader, a pager or git runs as code or uses to pick a program. */
const CODE_VARIABLE = new RegExp(
  '^(BASH_ENV|ENV|PS[0-4]|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|PATH|BASH_LOADABLES_PATH|BASH_FUNC_.*|BASH_CMDS|' +
    'BASH_ALIASES|LD_[A-Z_]+|GCONV_PATH|' +
    'PAGER|MANPAGER|EDITOR|VISUAL|LESS|LESSOPEN|LESSCLOSE|SSH_ASKPASS|SUDO_ASKPASS|BROWSER|GIT_.+)$',
);
/** git variables that only label or trace what git does. */
const HARMLESS_GIT_VARIABLE = /^GIT_((AUTHOR|COMMITTER)_(NAME|EMAIL|DATE)|TERMINAL_PROMPT|OPTIONAL_LOCKS|TRACE\w*)$/;

/** Builtins whose operands are variable names (a subscript in a name is evaluated, commands and all). */
const NAME_TAKERS = new Set(['read', 'mapfile', 'readarray', 'getopts', 'unset', 'printf', 'wait']);
/** Programs whose `NAME=value` operands set variables for the command they run. */
const ASSIGNING = new Set(['env', 'sudo', 'doas']);
const ARITH_TEST = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

const ARITHMETIC = 'arithmetic on a variable can run a command hidden in its value';
const SUBSCRIPT = 'an array subscript is arithmetic, which can run a command hidden in a value';
const NAME_TEST = 'testing a variable name evaluates its subscript, commands and all';

export function isCodeVariable(name: string): boolean {
  return CODE_VARIABLE.test(name) && !HARMLESS_GIT_VARIABLE.test(name);
}

/** `NAME=…`, `NAME+=…` or `NAME[…]=…` when NAME is a code variable: the reason, else undefined. */
export function assignmentHazard(word: string): string | undefined {
  if (word.startsWith('BASH_FUNC_')) return `setting ${word.split('=')[0]} (an exported function that a shell runs)`;
  const name = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/.exec(word)?.[1];
  if (name === undefined || !isCodeVariable(name)) return undefined;
  return `setting ${name} (it makes the shell, git or another program run a command the rules do not see)`;
}

/** Reasons `c` (already read into words) runs code that no rule reads. */
export function commandHazards(c: ShellCommand): string[] {
  const out = c.assignments.flatMap((a) => assignmentHazard(a) ?? []);
  const program = c.program;
  if (program === undefined) return out;
  const args = c.argv.slice(1);
  const has = (re: RegExp) => args.some((w) => re.test(w));
  if (program === 'alias' && args.length > 0) out.push('alias (it makes a name run other commands later)');
  if (program === 'hash' && has(/^-[a-z]*p/)) out.push('hash -p (it makes a name run another program)');
  if (program === 'enable' && args.length > 0) out.push('enable (it loads or switches shell builtins)');
  if (program === 'shopt' && has(/^(expand_aliases|extdebug)$/)) {
    out.push(`shopt ${args.join(' ')} (it changes what later commands run)`);
  }
  if (program === 'let') out.push(`let (${ARITHMETIC})`);
  if ((program === 'mapfile' || program === 'readarray') && has(/^-[a-zA-Z]*C/)) {
    out.push(`${program} -C (it runs a callback command for the lines it reads)`);
  }
  if (ASSIGNING.has(program)) out.push(...args.flatMap((w) => assignmentHazard(w) ?? []));
  if ((program === 'test' || program === '[') && has(/^-[vR]$/)) out.push(`${program} -v (${NAME_TEST})`);
  if (NAME_TAKERS.has(program) && (program !== 'printf' || args.includes('-v'))) out.push(...nameHazards(c, program));
  return out;
}

/** `read NAME`, `printf -v NAME`…: a name known at run time, a command in its subscript, or a code variable. */
function nameHazards(c: ShellCommand, program: string): string[] {
  const args = c.argv.slice(1);
  const at = program === 'printf' ? [args.indexOf('-v') + 1] : args.flatMap((w, i) => (w.startsWith('-') ? [] : [i]));
  const literal = (i: number) => !c.expanding?.includes(i + 1);
  const names = at.flatMap((i) => (args[i] === undefined ? [] : [{ name: args[i], literal: literal(i) }]));
  const out: string[] = [];
  const hidden = names.find((n) => !n.literal || /\[.*[$`]/.test(n.name));
  if (hidden) out.push(`${program} ${hidden.name} (a name known at run time, or a subscript that runs a command)`);
  const code = names.find((n) => n.literal && program !== 'unset' && isCodeVariable(n.name.replace(/\[.*$/, '')));
  if (code) out.push(`${program} ${code.name} (it sets a variable that makes a program run a command)`);
  return out;
}

/**
 * Reasons a declaration (`export`, `declare`, `local`, `readonly`, `typeset`) hides code: it sets a code
 * variable, names a variable only known at run time, or makes later assignments arithmetic (`-i`) or
 * indirect (`-n`).
 */
export function declarationHazards(keyword: string, operands: readonly SyntaxNode[]): string[] {
  const out: string[] = [];
  for (const operand of operands) {
    if (operand.type === 'word' && /^-[a-zA-Z]*[in]/.test(operand.text)) {
      out.push(`${keyword} ${operand.text} (later values are evaluated as arithmetic or as variable names)`);
    } else if (operand.type === 'variable_assignment') {
      const why = assignmentHazard(operand.text);
      if (why) out.push(why);
      const name = operand.childForFieldName('name') ?? operand.namedChildren[0];
      const subscript = name?.type === 'subscript' && !/^[A-Za-z_]\w*\[[0-9]+\]$/.test(name.text);
      if (subscript) out.push(`${operand.text} (${SUBSCRIPT})`);
    } else if (operand.type !== 'word' && operand.type !== 'variable_name') {
      out.push(`${keyword} ${operand.text} (a variable name known only at run time)`);
    }
  }
  return out;
}

/**
 * The commands in backquotes inside `text` (an expansion or an unquoted here-document body, where the
 * parser keeps them as text), to be read for deny rules. `\`` is a literal backquote, as in bash.
 */
export function backquotedIn(text: string): string[] {
  const found: string[] = [];
  let inside: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      const next = text[i + 1] ?? '';
      if (inside !== undefined) inside += /[`\\$]/.test(next) ? next : c + next;
      i++;
    } else if (c === '`') {
      if (inside === undefined) inside = '';
      else {
        found.push(inside);
        inside = undefined;
      }
    } else if (inside !== undefined) {
      inside += c;
    }
  }
  // An unclosed backquote is a syntax error to bash; what follows it is still read, so nothing hides there.
  if (inside !== undefined) found.push(inside);
  return found;
}

/** Reasons a syntax node hides code: an expansion or arithmetic the parser does not fully read. */
export function nodeHazard(node: SyntaxNode): string | undefined {
  const text = node.text;
  switch (node.type) {
    case 'expansion':
      return expansionHazard(text);
    case 'arithmetic_expansion':
      return namesIn(node) ? `${text} (${ARITHMETIC})` : undefined;
    case 'compound_statement':
      return text.startsWith('((') && namesIn(node) ? `${text} (${ARITHMETIC})` : undefined;
    case 'c_style_for_statement':
      return `for (( … )) (${ARITHMETIC})`;
    case 'test_command':
      return testHazard(node);
    default:
      return undefined;
  }
}

/** Whether arithmetic `node` refers to a variable (command substitutions in it are read on their own). */
function namesIn(node: SyntaxNode): boolean {
  let text = node.text;
  for (const sub of node.descendantsOfType('command_substitution')) if (sub) text = text.replace(sub.text, '');
  return /[A-Za-z_]/.test(text.replace(/^\$\(\(|^\$\[/, ''));
}

function expansionHazard(text: string): string | undefined {
  if (text.includes('`')) return `${text} (backquotes inside a parameter expansion)`;
  if (text.startsWith('${!')) return `${text} (indirect expansion evaluates the named variable, subscripts and all)`;
  const m = /^\$\{#?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[([^\]]*)\])?(.*)\}$/s.exec(text);
  if (!m) return `${text} (a parameter expansion the rules do not read)`;
  const [, name, , subscript, rest] = m;
  if (subscript !== undefined && !/^([0-9]+|@|\*)$/.test(subscript)) return `${text} (${SUBSCRIPT})`;
  if (/^:[^-=+?]/.test(rest) && /[A-Za-z_$]/.test(rest)) {
    return `${text} (a substring offset is arithmetic, which can run a command hidden in a value)`;
  }
  if (/^:?=/.test(rest) && isCodeVariable(name)) return `${text} (it sets ${name}, which makes a program run commands)`;
  if (/^@P/.test(rest)) return `${text} (prompt expansion of a value runs the commands in it)`;
  return undefined;
}

function testHazard(node: SyntaxNode): string | undefined {
  const operators = node.descendantsOfType('test_operator').filter((n): n is SyntaxNode => n !== null);
  const [open, close] = node.text.startsWith('[[') ? ['[[', ']]'] : ['[', ']'];
  for (const op of operators) {
    if (op.text === '-v' || op.text === '-R') return `${open} ${op.text} … ${close} (${NAME_TEST})`;
    // `[` compares integers only; `[[` evaluates both sides as arithmetic.
    if (open === '[' || !ARITH_TEST.has(op.text)) continue;
    const operands = op.parent?.namedChildren.filter((n) => n !== null && n.type !== 'test_operator') ?? [];
    if (operands.some((n) => n?.type !== 'number')) {
      return `[[ … ${op.text} … ]] (an arithmetic comparison evaluates values, which can hide a command)`;
    }
  }
  return undefined;
}
