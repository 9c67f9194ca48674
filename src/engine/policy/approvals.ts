// The approval policy: an ordered chain of small policies, the first decisive answer wins.
//   deny rules → auto mode (sensitive or outside-workspace paths refused unless an allow rule
//   names them) → swarm mode (AgentSwarm only) → remembered session approvals → ask rules →
//   allow rules → sensitive paths → paths outside the workspace → VCS control paths → yolo →
//   tool default → ask
// Front ends answer "ask" through an ApprovalPort; print mode has none (it runs in auto mode).
// Bash calls are judged on the simple commands the line runs, read by a real shell parser
// (shellCommands.ts; the rule semantics are in bashRules.ts and docs/approvals.md).
import { isAbsolute, resolve } from 'node:path';
import type { BoundaryFacts, ToolAccess, ToolDisplay } from '../../tools/defineTool';
import { bashAllowCoverage, firstBashDenyArgumentRule, firstBashRuleMatchingAny } from './bashRules';
import { parseSubject, patternMatches } from './permissionRules';
import type { PermissionMode } from '../session/records';
import {
  analyseShellCommand,
  analyseShellCommandWith,
  describeShellCommand,
  type ShellAnalysis,
} from './shellCommands';
import { firstOutsideWorkspace, type Workspace } from './workspace';
import { coversConfinement } from './sessionApprovals';

export interface PermissionRule {
  decision: 'allow' | 'deny' | 'ask';
  pattern: string;
  scope?: string;
  reason?: string;
  /** Where the rule was written (`~/.jarvis/config.toml:12`), shown with every decision it makes. */
  source?: string;
}

export interface ApprovalRequest {
  /** The agent asking (`main`, or a subagent's id): a front end says which agent wants to act. */
  agentId?: string;
  callId: string;
  toolName: string;
  subject: string;
  /** What "approve for this session" would remember. */
  sessionPattern: string;
  /**
   * The approvals the user may give (default both): a computer-use input action is approved one call at a time
   * (`['once']`), the computer-use authorization only for the whole session (`['session']`) (docs/approvals.md).
   */
  offers?: ReadonlyArray<'once' | 'session'>;
  args: unknown;
  accesses: ToolAccess[];
  /** Why a human is asked, in words ("writes a file", "reads a sensitive file"). */
  reason: string;
  /** For Bash: the simple commands the line runs, as parsed (`git status`, `touch PWNED`). */
  commands?: string[];
  /** For Bash: the line as bash reads it (line continuations joined), when that differs from what was written. */
  normalised?: string;
  preview?: ToolDisplay;
}

/**
 * A human's (or a program's) answer. `approve` may carry `updatedArgs`: the call runs with these arguments instead,
 * checked against the tool's schema and judged again (a deny still stands; docs/sdk.md "canUseTool"). `reject` with
 * `feedback` tells the model and lets the turn go on, unless `endTurn`; without feedback the turn stops.
 */
export type ApprovalAnswer =
  | { decision: 'approve'; updatedArgs?: Record<string, unknown> }
  | { decision: 'approve_session' }
  | { decision: 'reject'; feedback?: string; endTurn?: boolean };

export interface ApprovalPort {
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
}

export type PolicyDecision = {
  decision: 'allow' | 'deny' | 'ask';
  by: string;
  reason?: string;
  /** For Bash: the simple commands the line runs, as parsed, each with the wrapper it was found in. */
  commands?: string[];
  /** For Bash: the line as bash reads it, when that differs from what was written (shellCommands.ts). */
  normalised?: string;
};

export interface PolicyInput {
  toolName: string;
  subject: string;
  accesses: readonly ToolAccess[];
  defaultApproval: 'auto' | 'ask';
  mode: PermissionMode;
  rules: readonly PermissionRule[];
  sessionApprovals: readonly string[];
  /** Swarm mode (`/swarm`, SPEC §6.7): AgentSwarm is approved without asking. */
  swarmMode?: boolean;
  cwd: string;
  /** The folders the session works in (workspace.ts): cwd, --add-dir folders, the session's scratch folder; skill folders to read. */
  workspace: Workspace;
  isSensitivePath(path: string): boolean;
  /** The parsed Bash line (shellAnalysisFor); a line left unparsed is judged as unreadable. */
  shell?: ShellAnalysis;
  /**
   * For a call that starts a program (docs/trust-boundary.md): where it runs — a session approval covers it only for
   * the same sandbox — whether it asks to leave the sandbox (auto mode refuses that unless an allow rule covers it),
   * and the folder it runs in when that is outside the session's writable roots (asked; refused in auto mode).
   */
  boundary?: BoundaryFacts;
  /** `allowed-tools` of the command or skill that started this turn (preApproval.ts): turn-scoped allow patterns. */
  preApproved?: readonly PermissionRule[];
}

const VCS_CONTROL = /\/\.(git|hg|svn|jj|sl|bzr)(\/|$)/;
const SHELL_META = /[;&|`$<>()\n]/;
const UNREAD: ShellAnalysis = {
  commands: [],
  writes: [],
  substitution: false,
  unknowable: ['the command was not parsed'],
};

function firstRule(
  rules: readonly PermissionRule[],
  decision: PermissionRule['decision'],
  subject: string,
  cwd: string,
): PermissionRule | undefined {
  return rules.find((r) => r.decision === decision && patternMatches(r.pattern, subject, cwd));
}

/** How a decision names the rule that made it: `rule deny Bash(rm *) (~/.jarvis/config.toml:4)`. */
export function describeRule(rule: PermissionRule): string {
  return `rule ${rule.decision} ${rule.pattern}${rule.source ? ` (${rule.source})` : ''}`;
}

/** How the policy names its own refusals of sensitive and outside-workspace paths in auto mode. */
const SENSITIVE_IN_AUTO = 'sensitive file (auto mode)';
const OUTSIDE_IN_AUTO = 'outside the workspace (auto mode)';

/** How the policy names its refusal of a write into files only their own tools write (workspace.guardedWrite). */
const GUARDED_FILES = 'guarded files';

/** A deny that extensions and hooks cannot turn into allow or ask: a deny rule's, auto mode's refusal of a guarded path, a guarded file's. */
export function isBindingDeny(d: PolicyDecision): boolean {
  return (
    d.decision === 'deny' &&
    (d.by.startsWith('rule deny') || d.by === SENSITIVE_IN_AUTO || d.by === OUTSIDE_IN_AUTO || d.by === GUARDED_FILES)
  );
}

/** Programs that only read the files they are given: naming a guarded file is fine for them. */
const READING_PROGRAMS = new Set([
  'cat',
  'ls',
  'head',
  'tail',
  'less',
  'more',
  'wc',
  'grep',
  'rg',
  'stat',
  'file',
  'jq',
  'diff',
  'tree',
  'du',
  'realpath',
  'readlink',
  'echo',
  'printf',
  'test',
  '[',
]);

/**
 * The reason a call may not run because it writes a guarded file (every mode, any rule): a write
 * access there, a Bash redirection into it, or a Bash command other than a plain reader that names it.
 */
function guardedWriteReason(input: PolicyInput, shell?: ShellAnalysis): string | undefined {
  const guard = input.workspace.guardedWrite;
  if (!guard) return undefined;
  for (const a of input.accesses) if (a.kind === 'write' && guard(a.path)) return guard(a.path);
  if (!shell) return undefined;
  const at = (word: string) => guard(isAbsolute(word) ? word : resolve(input.cwd, word));
  for (const w of shell.writes) if (at(w.target)) return at(w.target);
  for (const c of shell.commands) {
    if (c.program && READING_PROGRAMS.has(c.program)) continue;
    for (const [i, word] of c.argv.entries()) {
      if (i === 0 || c.expanding?.includes(i)) continue;
      const path = word.includes('=') ? word.slice(word.indexOf('=') + 1) : word;
      if (path && at(path)) return at(path);
    }
  }
  return undefined;
}

function pathsOf(input: PolicyInput): string[] {
  return input.accesses.flatMap((a) => (a.kind === 'exec' ? [] : [a.path]));
}

/**
 * The path that makes a call need a human: a sensitive file first, then one outside the workspace —
 * which includes a file with more than one hard link, whose other names may be anywhere (`linked`).
 */
function guardedPath(input: PolicyInput): { kind: 'sensitive' | 'outside'; path: string; why: string } | undefined {
  const sensitive = pathsOf(input).find((p) => input.isSensitivePath(p));
  if (sensitive) return { kind: 'sensitive', path: sensitive, why: `${sensitive} may hold secrets` };
  const linked = input.accesses.find((a) => a.kind !== 'exec' && a.linked);
  if (linked && linked.kind !== 'exec') {
    const why =
      `${linked.path} has more than one hard link, so it counts as outside the workspace ` +
      '(its other names may be anywhere)';
    return { kind: 'outside', path: linked.path, why };
  }
  const outside = firstOutsideWorkspace(input.accesses, input.workspace);
  if (outside === undefined) return undefined;
  return { kind: 'outside', path: outside, why: `${outside} is outside the workspace (${workspaceWords(input)})` };
}

function workspaceWords(input: PolicyInput): string {
  return `${input.workspace.roots.join(', ')}; more folders can be added with --add-dir`;
}

/** Auto mode has no one to ask: a guarded path is refused unless an allow rule names the call. */
function decideAuto(input: PolicyInput): PolicyDecision {
  const guard = guardedPath(input);
  if (!guard) return { decision: 'allow', by: 'auto mode' };
  const allow = firstRule(input.rules, 'allow', input.subject, input.cwd);
  if (allow) return { decision: 'allow', by: describeRule(allow) };
  if (guard.kind === 'sensitive') {
    return {
      decision: 'deny',
      by: SENSITIVE_IN_AUTO,
      reason: `${guard.path} may hold secrets (keys, passwords, credentials); auto mode reads or writes such files only when a permission rule allows it`,
    };
  }
  return {
    decision: 'deny',
    by: OUTSIDE_IN_AUTO,
    reason: `${guard.why}; auto mode touches files outside it only when --add-dir or a permission rule allows it`,
  };
}

function sessionApproved(input: PolicyInput): boolean {
  // A sensitive file is approved for the session only by name, never by the folder pattern of another file.
  if (pathsOf(input).some((p) => input.isSensitivePath(p))) return input.sessionApprovals.includes(input.subject);
  return input.sessionApprovals.some((entry) => {
    // An approval given for a program run inside the sandbox never covers running it outside (sessionApprovals.ts).
    const pattern = coversConfinement(entry, input.boundary?.confinement);
    if (pattern === undefined) return false;
    if (pattern === input.subject) return true;
    // A remembered command prefix never covers a compound command.
    if (input.toolName === 'Bash' && SHELL_META.test(input.subject.slice(5, -1))) return false;
    if (patternMatches(pattern, input.subject, input.cwd)) return true;
    // `Bash(sleep *)` also covers a bare `sleep`, as a Bash rule does (bashRules.ts).
    return input.toolName === 'Bash' && patternMatches(pattern, `${input.subject.slice(0, -1)} )`, input.cwd);
  });
}

/** Parses the command of a Bash call (loading the parser on first need); undefined for other tools. */
export async function shellAnalysisFor(toolName: string, subject: string): Promise<ShellAnalysis | undefined> {
  const command = toolName === 'Bash' ? parseSubject(subject).arg : undefined;
  if (command === undefined) return undefined;
  // A parser that cannot load must not stop the turn: the line is then judged as unreadable.
  return analyseShellCommand(command).catch((err: unknown) => ({
    ...UNREAD,
    unknowable: [err instanceof Error ? err.message : String(err)],
  }));
}

function bashAnalysis(input: PolicyInput, command: string): ShellAnalysis {
  return input.shell ?? analyseShellCommandWith(command, undefined) ?? UNREAD;
}

/** What the approval panel and `jarvis policy test` show: each simple command, then each file written. */
function listCommands(analysis: ShellAnalysis): string[] {
  return [
    ...analysis.commands.map((c) => describeShellCommand(c) + (c.via ? `   (via ${c.via})` : '')),
    ...analysis.writes.map((w) => `> ${w.target}   (writes a file)`),
  ];
}

export function decideApproval(input: PolicyInput): PolicyDecision {
  const command = input.toolName === 'Bash' ? parseSubject(input.subject).arg : undefined;
  const shell = command === undefined ? undefined : bashAnalysis(input, command);
  const guarded = guardedWriteReason(input, shell);
  const joined = shell?.normalised !== undefined ? { normalised: shell.normalised } : {};
  const commands = shell ? { commands: listCommands(shell), ...joined } : {};
  if (guarded) return { decision: 'deny', by: GUARDED_FILES, reason: guarded, ...commands };
  if (command === undefined || !shell) return decideByChain(input);
  return { ...decideBash(input, command, shell), ...commands };
}

function decideBash(input: PolicyInput, command: string, shell: ShellAnalysis): PolicyDecision {
  const deny = firstBashRuleMatchingAny(input.rules, 'deny', command, shell, input.cwd);
  if (deny) return { decision: 'deny', by: describeRule(deny.rule), reason: refusedPart(deny.part, deny.rule.reason) };
  const unchecked = shell.unknowable.length > 0 ? firstBashDenyArgumentRule(input.rules) : undefined;
  if (unchecked) {
    // Named after the deny rule it protects, so the refusal holds like any rule deny (hooks cannot lift it).
    const reason = `${shell.unknowable[0]}, so the Bash deny rules cannot be checked against it`;
    return { decision: input.mode === 'manual' ? 'ask' : 'deny', by: describeRule(unchecked), reason };
  }
  const outside = input.boundary?.outsideRoots;
  if (outside !== undefined) return decideOutsideRoots(input, outside);
  if (input.mode === 'auto' && input.boundary?.escalation) return decideUnsandboxedAuto(input, shell);
  if (input.mode === 'auto') return { decision: 'allow', by: 'auto mode' };
  if (sessionApproved(input)) return { decision: 'allow', by: 'approved for this session' };
  const ask = firstBashRuleMatchingAny(input.rules, 'ask', command, shell, input.cwd);
  if (ask) return { decision: 'ask', by: describeRule(ask.rule), reason: refusedPart(ask.part, ask.rule.reason) };
  const allow = bashAllowCoverage(input.rules, shell, input.cwd);
  if (allow.covered) return { decision: 'allow', by: describeRule(allow.rule) };
  const decision = decideWithoutRules(input);
  const granted = preApprovedBash(input, decision, shell);
  if (granted) return granted;
  return decision.decision === 'ask' && allow.why ? { ...decision, reason: allow.why } : decision;
}

/**
 * A turn's pre-approval (docs/approvals.md, "Pre-approved by a command or skill") answers only what the tool's
 * own default would have asked: never a deny, an ask rule, a sensitive or outside path, or an unsandboxed call.
 */
function preApprovable(input: PolicyInput, decision: PolicyDecision): boolean {
  return decision.decision === 'ask' && decision.by === 'tool default' && !input.boundary?.escalation;
}

function preApprovedBash(
  input: PolicyInput,
  decision: PolicyDecision,
  shell: ShellAnalysis,
): PolicyDecision | undefined {
  if (!input.preApproved?.length || !preApprovable(input, decision)) return undefined;
  const cover = bashAllowCoverage(input.preApproved, shell, input.cwd);
  return cover.covered ? { decision: 'allow', by: describeRule(cover.rule) } : undefined;
}

/**
 * A command whose working folder is outside the session's writable roots (docs/trust-boundary.md "The working
 * folder"): it never makes that folder writable, and running there at all is asked in manual mode and refused in auto
 * mode — no session approval, allow rule or `auto_allow` answers it; yolo mode runs it.
 */
function decideOutsideRoots(input: PolicyInput, folder: string): PolicyDecision {
  const where = `it runs in ${folder}, outside the workspace (${workspaceWords(input)})`;
  if (input.mode === 'yolo') return { decision: 'allow', by: 'yolo mode' };
  if (input.mode === 'auto') {
    return {
      decision: 'deny',
      by: OUTSIDE_IN_AUTO,
      reason: `${where}; auto mode runs commands only inside the workspace. Run it from a folder of the workspace`,
    };
  }
  return {
    decision: 'ask',
    by: 'outside the workspace',
    reason: `${where}; approving runs it there, with that folder still read-only inside the sandbox`,
  };
}

/** Outside the sandbox in auto mode: only an allow rule covering every command lets it run (docs/sandbox.md). */
function decideUnsandboxedAuto(input: PolicyInput, shell: ShellAnalysis): PolicyDecision {
  const allow = bashAllowCoverage(input.rules, shell, input.cwd);
  if (allow.covered) return { decision: 'allow', by: describeRule(allow.rule) };
  return {
    decision: 'deny',
    by: 'outside the sandbox (auto mode)',
    reason:
      'the command asked to run outside the command sandbox (dangerously_unsandboxed), which auto mode does not ' +
      'allow unless an allow rule covers it; run it inside the sandbox, or ask the user',
  };
}

function refusedPart(part: string | undefined, reason: string | undefined): string | undefined {
  return [part && `it ${part}`, reason].filter(Boolean).join('; ') || undefined;
}

function decideByChain(input: PolicyInput): PolicyDecision {
  const deny = firstRule(input.rules, 'deny', input.subject, input.cwd);
  if (deny) return { decision: 'deny', by: describeRule(deny), reason: deny.reason };
  if (input.mode === 'auto') return decideAuto(input);
  if (input.swarmMode && input.toolName === 'AgentSwarm') return { decision: 'allow', by: 'swarm mode' };
  if (sessionApproved(input)) return { decision: 'allow', by: 'approved for this session' };
  const ask = firstRule(input.rules, 'ask', input.subject, input.cwd);
  if (ask) return { decision: 'ask', by: describeRule(ask), reason: ask.reason };
  const allow = firstRule(input.rules, 'allow', input.subject, input.cwd);
  if (allow) return { decision: 'allow', by: describeRule(allow) };
  const decision = decideWithoutRules(input);
  const granted =
    preApprovable(input, decision) && firstRule(input.preApproved ?? [], 'allow', input.subject, input.cwd);
  return granted ? { decision: 'allow', by: describeRule(granted) } : decision;
}

/** The chain after the rules: sensitive paths → outside the workspace → VCS control paths → yolo → tool default → ask. */
function decideWithoutRules(input: PolicyInput): PolicyDecision {
  const guard = guardedPath(input);
  if (guard?.kind === 'sensitive') return { decision: 'ask', by: 'sensitive file', reason: guard.why };
  if (guard?.kind === 'outside') return { decision: 'ask', by: 'outside the workspace', reason: guard.why };
  const vcs = input.accesses.find((a) => a.kind === 'write' && VCS_CONTROL.test(a.path));
  if (vcs && vcs.kind === 'write')
    return {
      decision: 'ask',
      by: 'version-control internals',
      reason: `${vcs.path} is inside a version-control folder`,
    };
  if (input.mode === 'yolo') return { decision: 'allow', by: 'yolo mode' };
  if (input.defaultApproval === 'auto') return { decision: 'allow', by: 'tool default' };
  return { decision: 'ask', by: 'tool default', reason: defaultAskReason(input) };
}

/** Why manual mode asks, in the user's words. */
function defaultAskReason(input: PolicyInput): string {
  if (input.accesses.some((a) => a.kind === 'exec')) return `${input.toolName} runs a command; manual mode asks first`;
  if (input.accesses.some((a) => a.kind === 'write')) return `${input.toolName} changes files; manual mode asks first`;
  return `${input.toolName} asks for approval in manual mode`;
}

export function validateRules(rules: readonly PermissionRule[]): string[] {
  const problems: string[] = [];
  rules.forEach((r, i) => {
    if (!['allow', 'deny', 'ask'].includes(r.decision))
      problems.push(`permission.rules[${i}].decision: expected allow, deny or ask, got "${r.decision}"`);
    if (!/^[^()\s]+(\(.*\))?$/s.test(r.pattern.trim()))
      problems.push(`permission.rules[${i}].pattern: expected Tool or Tool(argument-glob), got "${r.pattern}"`);
  });
  return problems;
}
