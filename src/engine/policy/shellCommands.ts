// Reads a Bash command line into the simple commands it would run, so that permission rules judge
// each program rather than the first words of the line (docs/approvals.md). It goes through lists
// (`&&`, `||`, `;`, `&`), pipes, subshells and groups, loops and conditionals, function bodies,
// command and process substitution, here-documents, wrappers (`sudo`, `env`, `xargs`, `find -exec`…)
// and the strings run by `bash -c` and `eval`, parsed again up to MAX_NESTING levels deep. Line
// continuations are joined first, as bash joins them (shellContinuations.ts); what runs code the parser
// does not read as a command is reported as unknowable (shellHazards.ts, gitCommands.ts), so allow rules
// fail closed (docs/approvals.md, "Fail closed").
import { loadBashParser, type BashParser, type SyntaxNode } from '../../platform/bashSyntax';
import { readGit } from './gitCommands';
import { joinLineContinuations } from './shellContinuations';
import { assignmentHazard, backquotedIn, commandHazards, declarationHazards, nodeHazard } from './shellHazards';
import { innerCommands, isWrapper, type ShellWord } from './shellWrappers';

export interface ShellCommand {
  /** The words as the program receives them, quotes removed; a word that expands keeps its source. */
  argv: string[];
  /** Indexes of words that expand when the line runs (`$HOME`, `$(…)`): argv holds their source text. */
  expanding?: number[];
  /** `NAME=value` words before the program: they can change what it does (`PATH=…`, `LD_PRELOAD=…`). */
  assignments: string[];
  /** Base name of the program (`/bin/rm` → `rm`); absent when only running the line would tell. */
  program?: string;
  /** The wrapper or construct it was found inside: `sudo`, `bash -c`, `xargs`, `find -exec`, `eval`. */
  via?: string;
  /** For git: the index in argv of its subcommand, past the global options (`git -C . push` → 3). */
  subcommandAt?: number;
}

export interface ShellWrite {
  /** The redirection target as written (quotes removed when literal). */
  target: string;
  literal: boolean;
}

export interface ShellAnalysis {
  commands: ShellCommand[];
  /** Files written through output redirections (`>`, `>>`, `&>`, `>|`, `<>`), `/dev/null` and the like left out. */
  writes: ShellWrite[];
  /** `$(…)`, backquotes, `<(…)` or `>(…)` appear; their commands are in `commands` too. */
  substitution: boolean;
  /** Why a program cannot be known before the line runs, or why part of it could not be read. */
  unknowable: string[];
  /** The line as bash reads it (line continuations joined), when that differs from what was written. */
  normalised?: string;
}

export const MAX_NESTING = 4;
export const MAX_COMMAND_CHARS = 65_536;

// A line made only of these characters is a list of plain words: no quoting, expansion, operator,
// redirection or comment, so splitting on blanks is exactly what the shell does.
const PLAIN_LINE = /^[A-Za-z0-9_ \t.,/:=@%+~^-]*$/;
const RESERVED = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'case',
  'esac',
  'while',
  'until',
  'for',
  'in',
  'select',
  'function',
  'time',
  'coproc',
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly', 'unset']);
const OUTPUT_OPERATORS = new Set(['>', '>>', '>|', '&>', '&>>', '>&', '<>']);
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

class NeedsParser extends Error {}

class Collector {
  readonly result: ShellAnalysis = { commands: [], writes: [], substitution: false, unknowable: [] };

  constructor(private readonly parser: BashParser | undefined) {}

  script(text: string, via: string | undefined, depth: number): void {
    if (depth > MAX_NESTING) {
      this.result.unknowable.push(`commands nested more than ${MAX_NESTING} levels deep (${via}) are not read`);
      return;
    }
    const joined = joinLineContinuations(text);
    if (joined.unmodelled) this.result.unknowable.push(joined.unmodelled);
    if (depth === 0 && joined.text !== text) this.result.normalised = joined.text;
    text = joined.text;
    const plain = plainWords(text);
    if (plain) {
      const at = plain.findIndex((w) => !ASSIGNMENT.test(w));
      const words = (at < 0 ? [] : plain.slice(at)).map((w) => ({ text: w, literal: true }));
      this.add(words, at < 0 ? plain : plain.slice(0, at), via, depth);
      return;
    }
    if (!this.parser) throw new NeedsParser();
    this.parser.parse(text, (root) => {
      this.walk(root, via, depth);
      if (root.hasError)
        this.result.unknowable.push(
          `part of ${via ? `the ${via} string` : 'the command'} could not be parsed (a syntax error, or syntax the parser does not know)`,
        );
    });
  }

  private add(words: ShellWord[], assignments: string[], via: string | undefined, depth: number): void {
    if (words.length === 0) {
      if (assignments.length > 0) this.result.commands.push({ argv: [], assignments, via });
      return;
    }
    const name = words[0];
    const program =
      name.literal && !/[*?[\]{}]/.test(name.text) ? name.text.slice(name.text.lastIndexOf('/') + 1) : undefined;
    const expanding = words.flatMap((w, i) => (w.literal ? [] : [i]));
    const git = program === 'git' ? readGit(words) : undefined;
    const at = git ? words.length - git.subcommand.length : 0;
    const command: ShellCommand = {
      argv: words.map((w) => w.text),
      ...(expanding.length > 0 ? { expanding } : {}),
      assignments,
      ...(program !== undefined ? { program } : {}),
      ...(via ? { via } : {}),
      ...(at > 1 ? { subcommandAt: at } : {}),
    };
    this.result.commands.push(command);
    this.result.unknowable.push(...commandHazards(command), ...(git?.hazards ?? []));
    for (const inner of git?.scripts ?? []) this.script(inner.script, inner.via, depth + 1);
    if (program === undefined) {
      this.result.unknowable.push(`the program ${name.text} is known only when the command runs`);
      return;
    }
    if (!isWrapper(program)) return;
    if (depth >= MAX_NESTING) {
      this.result.unknowable.push(`commands nested more than ${MAX_NESTING} levels deep (${program}) are not read`);
      return;
    }
    for (const inner of innerCommands(program, words)) {
      if (inner.kind === 'unknowable') this.result.unknowable.push(inner.reason);
      else if (inner.kind === 'command') this.add(inner.words, [], inner.via, depth + 1);
      else this.script(inner.script, inner.via, depth + 1);
    }
  }

  private walk(node: SyntaxNode, via: string | undefined, depth: number): void {
    const hazard = nodeHazard(node);
    if (hazard) this.result.unknowable.push(hazard);
    if (node.type === 'expansion' && node.text.includes('`')) {
      // The parser keeps backquotes inside `${X:-…}` as text; bash runs them, so they are read here.
      this.result.substitution = true;
      for (const inner of backquotedIn(node.text)) this.script(inner, 'backquotes in ${…}', depth + 1);
    }
    if (node.type === 'heredoc_redirect') this.hereDocBackquotes(node, depth);
    switch (node.type) {
      case 'command':
        this.command(node, via, depth);
        return;
      case 'declaration_command':
      case 'unset_command':
        this.declaration(node, via, depth);
        return;
      case 'variable_assignment': {
        this.result.commands.push({ argv: [], assignments: [node.text], ...(via ? { via } : {}) });
        const why = assignmentHazard(node.text);
        if (why) this.result.unknowable.push(why);
        break;
      }
      case 'command_substitution':
      case 'process_substitution':
        this.result.substitution = true;
        break;
      case 'file_redirect':
        this.redirect(node);
        break;
      case 'comment':
        return;
    }
    for (const child of node.namedChildren) if (child) this.walk(child, via, depth);
  }

  private command(node: SyntaxNode, via: string | undefined, depth: number): void {
    const assignments: string[] = [];
    const words: ShellWord[] = [];
    // Substitutions and redirections inside are read after the command itself, so it comes first.
    const inside: SyntaxNode[] = [];
    for (const child of node.namedChildren) {
      if (!child || child.type === 'comment') continue;
      if (child.type === 'variable_assignment') {
        assignments.push(child.text);
        inside.push(child);
      } else if (/_redirect$/.test(child.type)) {
        inside.push(child);
      } else {
        const text = decodeWord(child);
        words.push(text !== undefined ? { text, literal: true } : { text: child.text, literal: false });
        if (text === undefined) inside.push(child);
      }
    }
    this.add(words, assignments, via, depth);
    for (const child of inside) {
      // An assignment's value is walked, not the assignment: it is not a command of its own here.
      const parts = child.type === 'variable_assignment' ? child.namedChildren : [child];
      for (const part of parts) if (part) this.walk(part, via, depth);
    }
  }

  /** Backquotes in an unquoted here-document: bash runs them, the parser keeps them as text. */
  private hereDocBackquotes(node: SyntaxNode, depth: number): void {
    const start = node.namedChildren.find((c) => c?.type === 'heredoc_start');
    if (!start || /['"\\]/.test(start.text)) return;
    for (const body of node.namedChildren) {
      if (body?.type !== 'heredoc_body' || !body.text.includes('`')) continue;
      this.result.substitution = true;
      for (const inner of backquotedIn(body.text)) this.script(inner, 'backquotes in a here-document', depth + 1);
    }
  }

  /** `export A=1`, `local x`, `unset X`: builtins whose operands are assignments or names, shown as written. */
  private declaration(node: SyntaxNode, via: string | undefined, depth: number): void {
    const keyword = node.child(0)?.text ?? node.type;
    const operands = node.namedChildren.filter((c): c is SyntaxNode => c !== null && c.type !== 'comment');
    const expanding = operands.map((_, i) => i + 1);
    this.result.commands.push({
      argv: [keyword, ...operands.map((c) => c.text)],
      ...(expanding.length > 0 ? { expanding } : {}),
      assignments: [],
      program: keyword,
      ...(via ? { via } : {}),
    });
    this.result.unknowable.push(...declarationHazards(keyword, operands));
    for (const operand of operands) {
      if (operand.type !== 'variable_assignment') this.walk(operand, via, depth);
      else for (const part of operand.namedChildren) if (part) this.walk(part, via, depth);
    }
  }

  private redirect(node: SyntaxNode): void {
    const operator = node.children.find((c) => c && !c.isNamed && /^[<>&|]+$/.test(c.type))?.type;
    const destination = node.childForFieldName('destination');
    if (!operator || !destination || !OUTPUT_OPERATORS.has(operator)) return;
    if (destination.type === 'process_substitution') return;
    const target = decodeWord(destination);
    if ((operator === '>&' || operator === '<>') && target !== undefined && /^(\d+|-)$/.test(target)) return;
    if (target !== undefined && HARMLESS_TARGETS.test(target)) return;
    this.result.writes.push(
      target !== undefined ? { target, literal: true } : { target: destination.text, literal: false },
    );
  }
}

function plainWords(text: string): string[] | undefined {
  if (!PLAIN_LINE.test(text)) return undefined;
  const words = text.split(/[ \t]+/).filter((w) => w !== '');
  const first = words.find((w) => !ASSIGNMENT.test(w));
  // Declarations are read by the parser, which tells assignments from names and options (shellHazards.ts).
  return first !== undefined && (RESERVED.has(first) || DECLARATIONS.has(first)) ? undefined : words;
}

/** The value of a word with its quotes removed, or undefined when it expands at run time. */
export function decodeWord(node: SyntaxNode): string | undefined {
  const text = node.text;
  switch (node.type) {
    case 'command_name':
      return node.namedChildCount === 1 && node.namedChildren[0] ? decodeWord(node.namedChildren[0]) : undefined;
    case 'word':
      return text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
    case 'number':
      return text;
    case 'raw_string':
      return text.slice(1, -1);
    case 'ansi_c_string':
      return decodeAnsiC(text.slice(2, -1));
    case 'string':
      if (!node.namedChildren.every((c) => c?.type === 'string_content')) return undefined;
      return text.slice(text.indexOf('"') + 1, -1).replace(/\\([\\"$`\n])/g, (_, c: string) => (c === '\n' ? '' : c));
    case 'translated_string':
      return node.namedChildren[0] ? decodeWord(node.namedChildren[0]) : undefined;
    case 'concatenation': {
      let out = '';
      let at = node.startIndex;
      for (const part of node.namedChildren) {
        // A gap between parts would be syntax this decoder does not know: treat the word as dynamic.
        if (!part || part.startIndex !== at) return undefined;
        const value = decodeWord(part);
        if (value === undefined) return undefined;
        out += value;
        at = part.endIndex;
      }
      return at === node.endIndex ? out : undefined;
    }
    default:
      return undefined;
  }
}

const C_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Bash `$'…'` quoting: C escapes, octal, hex and Unicode code points. */
function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (match, esc: string) => {
      if (esc in C_ESCAPES) return C_ESCAPES[esc];
      if (/^[xuU]/.test(esc) && esc.length > 1) return String.fromCodePoint(parseInt(esc.slice(1), 16));
      if (/^[0-7]/.test(esc)) return String.fromCharCode(parseInt(esc, 8) & 0xff);
      if (esc.startsWith('c') && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
      return match;
    },
  );
}

/**
 * Reads `command` with `parser`; without one, only a line of plain words can be read and anything
 * else returns undefined. Lines longer than MAX_COMMAND_CHARS are not read at all.
 */
export function analyseShellCommandWith(command: string, parser: BashParser | undefined): ShellAnalysis | undefined {
  const collector = new Collector(parser);
  if (command.length > MAX_COMMAND_CHARS) {
    collector.result.unknowable.push(`the command is longer than ${MAX_COMMAND_CHARS} characters and is not read`);
    return collector.result;
  }
  try {
    collector.script(command, undefined, 0);
  } catch (err) {
    if (err instanceof NeedsParser) return undefined;
    throw err;
  }
  return collector.result;
}

/** Reads a command line, loading the Bash parser the first time a line needs more than word splitting. */
export async function analyseShellCommand(command: string): Promise<ShellAnalysis> {
  return analyseShellCommandWith(command, undefined) ?? analyseShellCommandWith(command, await loadBashParser())!;
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./~^-]+$/;

/** A command as a user would type it: assignments, then the words, quoted where needed. */
export function describeShellCommand(command: ShellCommand): string {
  return [
    ...command.assignments,
    ...command.argv.map((w, i) => (command.expanding?.includes(i) ? w : quoteWord(w))),
  ].join(' ');
}

export function quoteWord(word: string): string {
  return SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
