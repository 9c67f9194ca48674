// The authorization step of a computer-use call (engine/policy/desktopAuthorization.ts), run before the call's own
// approval: decided by rules and the session's earlier answer, else asked through the approval port with the
// question of what the agent will be able to do. Answered yes, it is remembered for the session (journalled).
import type { ToolResult } from '../../tools/defineTool';
import type { ApprovalPort } from '../policy/approvals';
import {
  AUTHORIZATION_TOOL,
  authorizationSubject,
  decideAuthorization,
  unauthorizedText,
} from '../policy/desktopAuthorization';
import type { PermissionRule } from '../policy/approvals';
import type { EngineEventBody } from './events';

export interface DesktopGateEnv {
  agentId: string;
  cwd: string;
  rules: readonly PermissionRule[];
  sessionApprovals: readonly string[];
  approvalPort?: ApprovalPort;
  signal: AbortSignal;
  emit(event: EngineEventBody): void;
  rememberApproval(pattern: string): void;
}

/** Undefined when the call may go on to its own approval; otherwise why it does not run. */
export async function authorizeDesktop(
  call: { callId: string; toolName: string; display: string },
  env: DesktopGateEnv,
  remembered: string[],
): Promise<{ result: ToolResult; rejected?: boolean } | undefined> {
  const subject = authorizationSubject(call.display);
  const decision = decideAuthorization({
    display: call.display,
    rules: env.rules,
    sessionApprovals: [...env.sessionApprovals, ...remembered],
    cwd: env.cwd,
  });
  if (decision.decision === 'allow') return undefined;
  const refused = (content: string, by: string, rejected?: boolean) => {
    env.emit({ type: 'approval_decision', callId: call.callId, subject, decision: 'deny', by });
    return { result: { content, isError: true }, ...(rejected ? { rejected } : {}) };
  };
  if (decision.decision === 'deny') {
    const why = decision.reason ? ` (${decision.reason})` : '';
    return refused(
      `Computer use on display ${call.display} is denied by a permission rule (${decision.by})${why}. Do not retry it.`,
      decision.by,
    );
  }
  if (!env.approvalPort) return refused(unauthorizedText(call.display), 'no one to ask');
  const reason = decision.reason ?? decision.by;
  env.emit({ type: 'approval_request', callId: call.callId, toolName: AUTHORIZATION_TOOL, subject, reason });
  const answer = await env.approvalPort.ask(
    {
      agentId: env.agentId,
      callId: call.callId,
      toolName: AUTHORIZATION_TOOL,
      subject,
      sessionPattern: subject,
      offers: ['session'],
      args: { display: call.display, tool: call.toolName },
      accesses: [],
      reason,
    },
    env.signal,
  );
  if (answer.decision === 'reject') {
    const said = answer.feedback ? ` and said: ${answer.feedback}` : '. Stop and wait for their next instruction.';
    return refused(
      `The user did not authorize computer use on display ${call.display}${said}`,
      'user',
      !answer.feedback,
    );
  }
  remembered.push(subject);
  env.rememberApproval(subject);
  env.emit({ type: 'approval_decision', callId: call.callId, subject, decision: 'allow', by: 'user' });
  return undefined;
}
