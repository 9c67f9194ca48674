// Computer use needs the session's authorization before its first call (docs/computer-use.md, "Consent and
// control"; docs/approvals.md, "Computer use"). The authorization is a subject of its own, `ComputerUse(<display>)`:
// a deny rule refuses computer use on that display, an allow rule authorizes it without asking (the only way in
// print and auto mode, where nobody can be asked), and otherwise the user is asked once — in every mode, yolo too —
// and the answer is remembered for the session.
import { patternMatches } from './permissionRules';
import { describeRule, type PermissionRule, type PolicyDecision } from './approvals';
import { COMPUTER_USE_SUBJECT } from '../../types/toolNames';

export const AUTHORIZATION_TOOL = COMPUTER_USE_SUBJECT;

export function authorizationSubject(display: string): string {
  return `${AUTHORIZATION_TOOL}(${display})`;
}

/** What the user is asked: which display, and what the agent will be able to do there. */
export function authorizationQuestion(display: string): string {
  return (
    `Authorize computer use on display ${display} for this session? The agent will be able to see everything on ` +
    'that screen (screenshots, window titles, the clipboard) and to move the pointer, click, drag, scroll, type and ' +
    'press keys in any application there, as you. In manual mode each click and keystroke still asks first; an ' +
    'orange marker by the pointer shows when it acts, and Esc (Ctrl-C) stops it. Never let it handle money, ' +
    'accounts or publishing.'
  );
}

export function decideAuthorization(input: {
  display: string;
  rules: readonly PermissionRule[];
  sessionApprovals: readonly string[];
  cwd: string;
}): PolicyDecision {
  const subject = authorizationSubject(input.display);
  const rule = (decision: PermissionRule['decision']) =>
    input.rules.find((r) => r.decision === decision && patternMatches(r.pattern, subject, input.cwd));
  const deny = rule('deny');
  if (deny) return { decision: 'deny', by: describeRule(deny), reason: deny.reason };
  if (input.sessionApprovals.includes(subject)) return { decision: 'allow', by: 'authorized for this session' };
  const allow = rule('allow');
  if (allow) return { decision: 'allow', by: describeRule(allow) };
  return { decision: 'ask', by: 'computer use authorization', reason: authorizationQuestion(input.display) };
}

/** Why a call was not run when nobody can authorize computer use (print mode, auto mode without a front end). */
export function unauthorizedText(display: string): string {
  const subject = authorizationSubject(display);
  return (
    `Computer use on display ${display} is not authorized for this session, and no one can be asked here. ` +
    `The user authorizes it with a permission rule: [[permission.rules]] decision = "allow" pattern = "${subject}" ` +
    '(docs/computer-use.md). Tell the user what you wanted to do instead.'
  );
}
