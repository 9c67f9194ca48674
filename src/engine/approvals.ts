// The approval policy: an ordered chain of small policies, the first decisive answer wins.
//   deny rules → auto mode → remembered session approvals → ask rules → allow rules →
//   sensitive paths → VCS control paths → yolo → tool default → ask
// Front ends answer "ask" through an ApprovalPort; print mode has none (it runs in auto mode).
import type { ToolAccess, ToolDisplay } from '../tools/defineTool';
import { patternMatches } from './permissionRules';
import type { PermissionMode } from './records';

export interface PermissionRule {
  decision: 'allow' | 'deny' | 'ask';
  pattern: string;
  scope?: string;
  reason?: string;
}

export interface ApprovalRequest {
  /** The agent asking (`main`, or a subagent's id): a front end says which agent wants to act. */
  agentId?: string;
  callId: string;
  toolName: string;
  subject: string;
  /** What "approve for this session" would remember. */
  sessionPattern: string;
  args: unknown;
  accesses: ToolAccess[];
  /** Why a human is asked, in words ("writes a file", "reads a sensitive file"). */
  reason: string;
  preview?: ToolDisplay;
}

export type ApprovalAnswer =
  | { decision: 'approve' }
  | { decision: 'approve_session' }
  | { decision: 'reject'; feedback?: string };

export interface ApprovalPort {
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
}

export type PolicyDecision = { decision: 'allow' | 'deny' | 'ask'; by: string; reason?: string };

export interface PolicyInput {
  toolName: string;
  subject: string;
  accesses: readonly ToolAccess[];
  defaultApproval: 'auto' | 'ask';
  mode: PermissionMode;
  rules: readonly PermissionRule[];
  sessionApprovals: readonly string[];
  cwd: string;
  isSensitivePath(path: string): boolean;
}

const VCS_CONTROL = /\/\.(git|hg|svn|jj|sl|bzr)(\/|$)/;
const SHELL_META = /[;&|`$<>()\n]/;

function firstRule(rules: readonly PermissionRule[], decision: PermissionRule['decision'], subject: string, cwd: string): PermissionRule | undefined {
  return rules.find((r) => r.decision === decision && patternMatches(r.pattern, subject, cwd));
}

/** The first rule of any decision that matches, in file order: "first match wins" for deny rules. */
function sessionApproved(input: PolicyInput): boolean {
  return input.sessionApprovals.some((pattern) => {
    if (pattern === input.subject) return true;
    // A remembered command prefix never covers a compound command.
    if (input.toolName === 'Bash' && SHELL_META.test(input.subject.slice(5, -1))) return false;
    return patternMatches(pattern, input.subject, input.cwd);
  });
}

export function decideApproval(input: PolicyInput): PolicyDecision {
  const deny = firstRule(input.rules, 'deny', input.subject, input.cwd);
  if (deny) return { decision: 'deny', by: `rule deny ${deny.pattern}`, reason: deny.reason };
  if (input.mode === 'auto') return { decision: 'allow', by: 'auto mode' };
  if (sessionApproved(input)) return { decision: 'allow', by: 'approved for this session' };
  const ask = firstRule(input.rules, 'ask', input.subject, input.cwd);
  if (ask) return { decision: 'ask', by: `rule ask ${ask.pattern}`, reason: ask.reason };
  const allow = firstRule(input.rules, 'allow', input.subject, input.cwd);
  if (allow) return { decision: 'allow', by: `rule allow ${allow.pattern}` };
  const paths = input.accesses.flatMap((a) => (a.kind === 'exec' ? [] : [a.path]));
  const sensitive = paths.find((p) => input.isSensitivePath(p));
  if (sensitive) return { decision: 'ask', by: 'sensitive file', reason: `${sensitive} may hold secrets` };
  const vcs = input.accesses.find((a) => a.kind === 'write' && VCS_CONTROL.test(a.path));
  if (vcs && vcs.kind === 'write') return { decision: 'ask', by: 'version-control internals', reason: `${vcs.path} is inside a version-control folder` };
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
    if (!['allow', 'deny', 'ask'].includes(r.decision)) problems.push(`permission.rules[${i}].decision: expected allow, deny or ask, got "${r.decision}"`);
    if (!/^[^()\s]+(\(.*\))?$/s.test(r.pattern.trim())) problems.push(`permission.rules[${i}].pattern: expected Tool or Tool(argument-glob), got "${r.pattern}"`);
  });
  return problems;
}
