// Permission rules against a parsed Bash command line (docs/approvals.md). A restricting rule (deny,
// ask) holds when it matches *any* simple command the line runs, or a file it writes; an allow rule
// approves the line only when *every* simple command and every written file is covered, and nothing
// in it is decided at run time (a substitution, a program held in a variable).
import { isAbsolute, resolve } from 'node:path';
import type { PermissionRule } from './approvals';
import { globToRegExp, parsePattern, patternMatches, toolMatches } from './permissionRules';
import { describeShellCommand, quoteWord, type ShellAnalysis, type ShellCommand } from './shellCommands';

export interface BashRuleMatch {
  rule: PermissionRule;
  /** What of the line the rule matched (`runs rm -f x`, `writes .env`); absent when it matched the whole line. */
  part?: string;
}

/** `why` says, in the user's words, what no allow rule covers (absent when there are no Bash allow rules). */
export type BashAllowCoverage = { covered: true; rule: PermissionRule } | { covered: false; why?: string };

const WRITE_TOOLS = ['Write', 'Edit'];

/** `Bash(git *)` → the glob `git *`; null for a bare `Bash` (every command); undefined for other tools. */
function bashGlob(rule: PermissionRule): RegExp | null | undefined {
  const p = parsePattern(rule.pattern);
  if (!toolMatches(p.tool, 'Bash')) return undefined;
  return p.arg === undefined ? null : globToRegExp(p.arg);
}

/** The words of `c` from index `from`, quoted as a user would type them. */
function typedWords(c: ShellCommand, from: number): string[] {
  return c.argv.slice(from).map((w, i) => (c.expanding?.includes(i + from) ? w : quoteWord(w)));
}

/**
 * How a command may be written in an allow rule: as typed (assignments and program path kept), each also with a
 * space after it, so `Bash(git status *)` (and Claude's `Bash(git status:*)`) holds for a bare `git status`
 * as docs/approvals.md says.
 */
function allowForms(c: ShellCommand): string[] {
  return [describeShellCommand(c), [...c.assignments, ...c.argv].join(' ')].flatMap((f) => [f, `${f} `]);
}

/**
 * A restricting rule also matches the command without its assignments, by its program's base name, and
 * for git from its subcommand on (`git -C . push` is `git push`). Each form is also tried with a space
 * after it, so `Bash(git push *)` holds against a bare `git push`.
 */
function restrictForms(c: ShellCommand): string[] {
  const named =
    c.program !== undefined
      ? [[c.program, ...typedWords(c, 1)].join(' '), [c.program, ...c.argv.slice(1)].join(' ')]
      : [];
  const at = c.subcommandAt;
  const sub =
    c.program !== undefined && at !== undefined
      ? [
          [c.program, ...typedWords(c, at)],
          [c.program, ...c.argv.slice(at)],
        ]
      : [];
  const forms = [
    ...allowForms(c),
    typedWords(c, 0).join(' '),
    c.argv.join(' '),
    ...named,
    ...sub.map((w) => w.join(' ')),
  ];
  return [...forms, ...forms.map((f) => `${f} `)];
}

function writePath(target: string, cwd: string): string {
  return isAbsolute(target) ? target : resolve(cwd, target.replace(/^~(?=\/|$)/, process.env.HOME ?? '~'));
}

function writeMatches(rule: PermissionRule, target: string, cwd: string): boolean {
  const path = writePath(target, cwd);
  return WRITE_TOOLS.some((tool) => patternMatches(rule.pattern, `${tool}(${path})`, cwd));
}

/** The first rule with `decision`, in file order, that matches the line, one of its commands or a written file. */
export function firstBashRuleMatchingAny(
  rules: readonly PermissionRule[],
  decision: 'deny' | 'ask',
  command: string,
  analysis: ShellAnalysis,
  cwd: string,
): BashRuleMatch | undefined {
  for (const rule of rules) {
    if (rule.decision !== decision) continue;
    const glob = bashGlob(rule);
    if (glob === undefined) {
      const write = analysis.writes.find((w) => w.literal && writeMatches(rule, w.target, cwd));
      if (write) return { rule, part: `writes ${write.target}` };
      continue;
    }
    if (glob === null || glob.test(command)) return { rule };
    const joined = analysis.normalised;
    if (joined !== undefined && glob.test(joined)) return { rule, part: `runs ${joined}` };
    const hit = analysis.commands.find((c) => restrictForms(c).some((form) => glob.test(form)));
    if (hit) return { rule, part: `runs ${describeShellCommand(hit)}` };
  }
  return undefined;
}

/** The first Bash deny rule with an argument: one that a line whose programs cannot all be known escapes. */
export function firstBashDenyArgumentRule(rules: readonly PermissionRule[]): PermissionRule | undefined {
  return rules.find((r) => r.decision === 'deny' && bashGlob(r) instanceof RegExp);
}

export function bashAllowCoverage(
  rules: readonly PermissionRule[],
  analysis: ShellAnalysis,
  cwd: string,
): BashAllowCoverage {
  const allows = rules.filter((r) => r.decision === 'allow');
  const everything = allows.find((r) => bashGlob(r) === null);
  if (everything) return { covered: true, rule: everything };
  const globs = allows.flatMap((rule) => {
    const glob = bashGlob(rule);
    return glob ? [{ rule, glob }] : [];
  });
  if (globs.length === 0) return { covered: false };
  if (analysis.unknowable.length > 0)
    return { covered: false, why: `${analysis.unknowable[0]}, which allow rules never cover` };
  if (analysis.substitution)
    return {
      covered: false,
      why: 'the line has a command substitution ($(…), `…`, <(…)), which allow rules never cover',
    };
  let first: PermissionRule | undefined;
  for (const c of analysis.commands) {
    const forms = allowForms(c);
    const by = globs.find(({ glob }) => forms.some((form) => glob.test(form)));
    if (!by) return { covered: false, why: `the allow rules do not cover ${describeShellCommand(c)}` };
    first ??= by.rule;
  }
  for (const w of analysis.writes) {
    const by = w.literal
      ? allows.find((r) => WRITE_TOOLS.includes(parsePattern(r.pattern).tool) && writeMatches(r, w.target, cwd))
      : undefined;
    if (!by) return { covered: false, why: `the allow rules do not cover the redirection into ${w.target}` };
  }
  return first ? { covered: true, rule: first } : { covered: false };
}
