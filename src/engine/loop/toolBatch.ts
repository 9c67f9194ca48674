// Runs the tool calls of one model response: prepare and validate each, decide approval for each in
// order (asking the front end where needed), then execute — in parallel, except that a call waits for
// every earlier call whose accesses conflict with its own. Results come back paired by call id, in
// the order the model made the calls.
import type { Message, ToolCall } from '../../llm/types';
import type { ToolAccess, ToolResult, ToolServices } from '../../tools/defineTool';
import {
  decideApproval,
  isBindingDeny,
  shellAnalysisFor,
  type ApprovalPort,
  type PermissionRule,
  type PolicyDecision,
} from '../policy/approvals';
import type { EngineEventBody } from './events';
import {
  toolResultText,
  type AfterToolCallVerdict,
  type ToolCallFacts,
  type ToolCallOutcome,
  type ToolCallVerdict,
} from './turnExtension';
import type { FileSnapshot, FileStateGuard } from '../session/fileGuard';
import type { CommandRun, FileChange } from '../session/fileHistory';
import type { FileHistoryRecorder } from '../session/fileHistoryRecorder';
import { sessionApprovalPattern } from '../policy/permissionRules';
import { sessionApprovalEntry } from '../policy/sessionApprovals';
import type { PermissionMode } from '../session/records';
import {
  accessesConflict,
  executeToolCall,
  prepareToolCall,
  type PreparedToolCall,
  type ToolLookup,
  type ToolRunEnv,
} from './toolRunner';
import type { Workspace } from '../policy/workspace';
import { authorizeDesktop } from './desktopGate';

export interface ToolBatchEnv {
  /** The agent whose calls these are (approval requests name it). */
  agentId: string;
  tools: ToolLookup;
  cwd: string;
  services: ToolServices;
  guard: FileStateGuard;
  fileHistory?: FileHistoryRecorder;
  mode: PermissionMode;
  rules: readonly PermissionRule[];
  sessionApprovals: readonly string[];
  /** Turn-scoped pre-approvals (`allowed-tools`; engine/policy/preApproval.ts). */
  preApproved?: readonly PermissionRule[];
  /** Swarm mode: AgentSwarm is approved without asking. */
  swarmMode?: boolean;
  approvalPort?: ApprovalPort;
  /** The folders the session works in (workspace.ts). */
  workspace: Workspace;
  isSensitivePath(path: string): boolean;
  /** Constraints outside the permission system (plan mode, budgets); a string refuses the call. */
  checkToolCall?(call: {
    toolName: string;
    subject: string;
    accesses: readonly ToolAccess[];
    args: unknown;
  }): string | undefined;
  signal: AbortSignal;
  emit(event: EngineEventBody): void;
  rememberApproval(pattern: string): void;
  /** The extension gate, bound to this agent and turn (absent: no extensions). */
  beforeToolCall?(call: ToolCallFacts): Promise<ToolCallVerdict>;
  beforeToolRun?(call: ToolCallFacts): Promise<void>;
  /** Extensions' work after a tool: a result the model receives instead, feedback for it, the turn's end. */
  afterToolCall?(call: ToolCallFacts, outcome: ToolCallOutcome): Promise<AfterToolCallVerdict | void>;
}

export interface ToolBatchResult {
  messages: Message[];
  snapshots: FileSnapshot[];
  /** What the calls did to files and which commands they ran, in completion order (for rewind). */
  changes: FileChange[];
  commands: CommandRun[];
  /** Per call, in order: true when it was malformed, unknown or schema-invalid (it never ran). */
  invalid: boolean[];
  /** The user rejected a call without feedback: the turn should stop. */
  rejected: boolean;
  /** A hook ended the turn (`"continue": false`): why, for the user. */
  halted?: string;
}

/** `replaced`: the approval changed the call's arguments; the call runs as prepared again from them. */
type Gate =
  { run: true; replaced?: PreparedToolCall } | { run: false; result: ToolResult; rejected?: boolean; halt?: string };

function factsOf(p: PreparedToolCall): ToolCallFacts {
  return {
    callId: p.call.id,
    toolName: p.call.name,
    subject: p.subject,
    args: p.args,
    accesses: p.accesses,
    readOnly: !!p.tool?.readOnly,
  };
}

/**
 * An extension's rewrite of the policy's decision: a deny rule always stands; otherwise the
 * extension's deny, ask or allow replaces what the policy said (docs/extensions.md).
 */
function applyRewrite(decision: PolicyDecision, verdict: ToolCallVerdict): PolicyDecision {
  const rewrite = verdict.approval;
  if (!rewrite || isBindingDeny(decision)) return decision;
  const { commands, normalised } = decision;
  const reason = rewrite.reason ?? decision.reason;
  return {
    decision: rewrite.decision,
    by: rewrite.by,
    reason,
    commands,
    ...(normalised !== undefined ? { normalised } : {}),
  };
}

/** Manual mode asks before a computer-use action in words about the desktop, not as "runs a command". */
function desktopReason(p: PreparedToolCall, decision: PolicyDecision): PolicyDecision {
  const desktop = p.tool?.desktop;
  if (!desktop || decision.decision !== 'ask' || decision.by !== 'tool default') return decision;
  const what = desktop.action === 'input' ? 'acts on' : 'looks at';
  return {
    ...decision,
    reason: `${p.tool!.name} ${what} the desktop on display ${desktop.display}; manual mode asks first`,
  };
}

/** What the model is told about a refused call: which rule or policy refused it, and why. */
function denialText(subject: string, decision: PolicyDecision, byPolicy: boolean): string {
  if (byPolicy && !decision.by.startsWith('rule ')) return `${subject} is refused: ${decision.reason ?? decision.by}.`;
  const why = decision.reason ? ` (${decision.reason})` : '';
  return `${subject} is denied by ${byPolicy ? `a permission rule (${decision.by})` : decision.by}${why}.`;
}

/** The policy's decision for a prepared call (every mode, rule and path check; docs/approvals.md). */
async function judge(
  p: PreparedToolCall & { tool: NonNullable<PreparedToolCall['tool']> },
  env: ToolBatchEnv,
  remembered: string[],
) {
  return decideApproval({
    toolName: p.tool.name,
    subject: p.subject,
    accesses: p.accesses,
    defaultApproval: p.defaultApproval ?? p.tool.approvalFor?.(p.args) ?? p.tool.defaultApproval,
    ...(p.boundary ? { boundary: p.boundary } : {}),
    mode: env.mode,
    rules: env.rules,
    sessionApprovals: [...env.sessionApprovals, ...remembered],
    ...(env.preApproved?.length ? { preApproved: env.preApproved } : {}),
    swarmMode: env.swarmMode,
    cwd: env.cwd,
    workspace: env.workspace,
    isSensitivePath: env.isSensitivePath,
    shell: await shellAnalysisFor(p.tool.name, p.subject),
  });
}

/**
 * The approver answered with other arguments: the call is prepared again from them (schema, subject, accesses) and
 * judged again. It runs unless that judgement denies it (a deny rule, a guarded file, a constraint): the approver
 * already said yes to exactly these arguments, so an `ask` is answered.
 */
async function rewritten(
  p: PreparedToolCall,
  args: Record<string, unknown>,
  env: ToolBatchEnv,
  runEnv: ToolRunEnv,
  remembered: string[],
): Promise<Gate> {
  const again = prepareToolCall({ ...p.call, arguments: JSON.stringify(args) }, env.tools, runEnv);
  if (again.error || !again.tool) {
    const why = again.error ?? 'the tool is not available';
    return {
      run: false,
      result: { content: `Not run: the approval changed the arguments, and ${why}`, isError: true },
    };
  }
  const refusal = env.checkToolCall?.({
    toolName: again.tool.name,
    subject: again.subject,
    accesses: again.accesses,
    args: again.args,
  });
  if (refusal) return { run: false, result: { content: refusal, isError: true } };
  const decision = await judge({ ...again, tool: again.tool }, env, remembered);
  if (decision.decision === 'deny') {
    const by = decision.by;
    env.emit({ type: 'approval_decision', callId: p.call.id, subject: again.subject, decision: 'deny', by });
    const text = `${denialText(again.subject, decision, true)} (the arguments were changed when it was approved)`;
    return { run: false, result: { content: text, isError: true } };
  }
  env.emit({ type: 'approval_decision', callId: p.call.id, subject: again.subject, decision: 'allow', by: 'user' });
  return { run: true, replaced: again };
}

async function approve(
  p: PreparedToolCall,
  env: ToolBatchEnv,
  runEnv: ToolRunEnv,
  remembered: string[],
): Promise<Gate> {
  if (p.error || !p.tool) return { run: false, result: { content: p.error ?? 'invalid call', isError: true } };
  const verdict = env.beforeToolCall ? await env.beforeToolCall(factsOf(p)) : {};
  if (verdict.block !== undefined) {
    env.emit({ type: 'approval_decision', callId: p.call.id, subject: p.subject, decision: 'deny', by: 'extension' });
    return {
      run: false,
      result: { content: `${p.subject} was blocked before it ran: ${verdict.block}`, isError: true },
      ...(verdict.halt !== undefined ? { halt: verdict.halt } : {}),
    };
  }
  const refusal = env.checkToolCall?.({
    toolName: p.tool.name,
    subject: p.subject,
    accesses: p.accesses,
    args: p.args,
  });
  if (refusal) return { run: false, result: { content: refusal, isError: true } };
  const policy = await judge({ ...p, tool: p.tool }, env, remembered);
  const decision = desktopReason(p, applyRewrite(policy, verdict));
  if (decision.decision === 'deny') {
    env.emit({ type: 'approval_decision', callId: p.call.id, subject: p.subject, decision: 'deny', by: decision.by });
    return {
      run: false,
      result: {
        content: `${denialText(p.subject, decision, decision === policy)} Do not retry it; find another way or ask the user.`,
        isError: true,
      },
    };
  }
  if (p.tool.desktop) {
    const call = { callId: p.call.id, toolName: p.tool.name, display: p.tool.desktop.display };
    const refused = await authorizeDesktop(call, env, remembered);
    if (refused) return { run: false, ...refused };
  }
  if (decision.decision === 'allow') {
    env.emit({ type: 'approval_decision', callId: p.call.id, subject: p.subject, decision: 'allow', by: decision.by });
    return { run: true };
  }
  if (!env.approvalPort) {
    return {
      run: false,
      result: {
        content: `${p.subject} needs the user's approval, and no one can approve it in this mode. Tell the user what you wanted to do instead.`,
        isError: true,
      },
    };
  }
  // A sensitive file is remembered by name: approving .env must not approve the folder's other secrets.
  // A program's approval names the sandbox it was given for (policy/sessionApprovals.ts).
  const sessionPattern = sessionApprovalEntry(
    decision.by === 'sensitive file' ? p.subject : sessionApprovalPattern(p.subject),
    p.boundary,
  );
  // A computer-use action that acts (clicks, keys) is approved one at a time; looking may be approved for the session.
  const onceOnly = p.tool.desktop?.action === 'input';
  env.emit({
    type: 'approval_request',
    callId: p.call.id,
    toolName: p.tool.name,
    subject: p.subject,
    reason: decision.reason ?? decision.by,
  });
  const answer = await env.approvalPort.ask(
    {
      agentId: env.agentId,
      callId: p.call.id,
      toolName: p.tool.name,
      subject: p.subject,
      sessionPattern,
      args: p.args,
      accesses: p.accesses,
      reason: decision.reason ?? decision.by,
      ...(onceOnly ? { offers: ['once'] as const } : {}),
      commands: decision.commands,
      ...(decision.normalised !== undefined ? { normalised: decision.normalised } : {}),
      ...(p.preview ? { preview: p.preview } : {}),
    },
    env.signal,
  );
  if (answer.decision === 'reject') {
    env.emit({ type: 'approval_decision', callId: p.call.id, subject: p.subject, decision: 'deny', by: 'user' });
    const text = answer.feedback
      ? `The user rejected this call and said: ${answer.feedback}`
      : 'The user rejected this call. Stop and wait for their next instruction.';
    return { run: false, result: { content: text, isError: true }, rejected: !answer.feedback || !!answer.endTurn };
  }
  if (answer.decision === 'approve' && answer.updatedArgs !== undefined)
    return rewritten(p, answer.updatedArgs, env, runEnv, remembered);
  if (answer.decision === 'approve_session' && !onceOnly) {
    remembered.push(sessionPattern);
    env.rememberApproval(sessionPattern);
  }
  env.emit({ type: 'approval_decision', callId: p.call.id, subject: p.subject, decision: 'allow', by: 'user' });
  return { run: true };
}

/**
 * Deciding a call's approval threw (a front end's approval dialog failed, a rule or a hook broke): the
 * call does not run, and both the user and the model hear what failed — unless the turn was cancelled.
 */
function approvalFailed(p: PreparedToolCall, env: ToolBatchEnv, error: unknown): Gate {
  if (env.signal.aborted) {
    return { run: false, result: { content: 'Not run: the turn was interrupted.', isError: true } };
  }
  const why = error instanceof Error ? error.message : String(error);
  const notice = `Could not decide whether ${p.subject} may run: ${why}. The call was not run.`;
  env.emit({ type: 'notice', level: 'error', text: notice });
  const content =
    `Not run: deciding whether ${p.subject} may run failed (${why}). This is not a refusal; ` +
    'you may try the call again, and tell the user if it keeps failing.';
  return { run: false, result: { content, isError: true } };
}

const resultText = toolResultText;

export async function runToolCalls(calls: ToolCall[], env: ToolBatchEnv): Promise<ToolBatchResult> {
  const runEnv: ToolRunEnv = {
    cwd: env.cwd,
    services: env.services,
    guard: env.guard,
    fileHistory: env.fileHistory,
    onProgress: (callId, progress) => env.emit({ type: 'tool_progress', callId, progress }),
    agentId: env.agentId,
    warn: (text) => env.emit({ type: 'notice', level: 'warning', text }),
  };
  // JSON Schema tools compile their validators on their first call (src/tools/jsonSchemaTool.ts).
  await Promise.all(calls.map((c) => env.tools.get(c.name)?.prepare?.()));
  const prepared = calls.map((c) => prepareToolCall(c, env.tools, runEnv));
  for (const p of prepared) env.emit({ type: 'tool_call', call: p.call, subject: p.subject });

  const remembered: string[] = [];
  const gates: Gate[] = [];
  let rejected = false;
  for (const p of prepared) {
    if (rejected || env.signal.aborted) {
      gates.push({
        run: false,
        result: {
          content: rejected
            ? 'Not run: the user rejected an earlier call in this step.'
            : 'Not run: the turn was interrupted.',
          isError: true,
        },
      });
      continue;
    }
    const gate = await approve(p, env, runEnv, remembered).catch((e: unknown) => approvalFailed(p, env, e));
    if (!gate.run && gate.rejected) rejected = true;
    if (gate.run && gate.replaced) prepared[prepared.indexOf(p)] = gate.replaced;
    gates.push(gate);
  }

  const snapshots: FileSnapshot[] = [];
  const changes: FileChange[] = [];
  const commands: CommandRun[] = [];
  const running: Array<Promise<ToolResult>> = [];
  const halts: Array<string | undefined> = prepared.map(() => undefined);
  prepared.forEach((p, i) => {
    const gate = gates[i];
    if (!gate.run) {
      running.push(Promise.resolve(gate.result));
      return;
    }
    // Computer-use calls act on one screen: each waits for the ones before it, so looking follows acting in order.
    const desktop = (j: number) => !!p.tool?.desktop && !!prepared[j].tool?.desktop;
    const waitFor = running.filter(
      (_, j) => gates[j].run && (accessesConflict(prepared[j].accesses, p.accesses) || desktop(j)),
    );
    running.push(
      Promise.allSettled(waitFor).then(async () => {
        if (env.signal.aborted) return { content: 'Not run: the turn was interrupted.', isError: true };
        await env.beforeToolRun?.(factsOf(p));
        const outcome = await executeToolCall(p, runEnv, env.signal);
        snapshots.push(...outcome.snapshots);
        changes.push(...outcome.changes);
        if (outcome.command) commands.push(outcome.command);
        // Work after the call (diagnostics, hooks) is done before a call that conflicts with it starts.
        const { result } = outcome;
        if (!env.afterToolCall) return result;
        const after = await env.afterToolCall(factsOf(p), {
          text: resultText(result),
          isError: !!result.isError,
          result,
        });
        if (after?.halt !== undefined) halts[i] = after.halt;
        const final = after?.result ?? result;
        return after?.feedback ? withFeedback(final, after.feedback) : final;
      }),
    );
  });
  const results = await Promise.all(running);
  // A gate's reason to end the turn first, then the first call's (in call order) whose work after it gave one.
  const halted: string | undefined = [
    ...gates.flatMap((g) => (!g.run && g.halt !== undefined ? [g.halt] : [])),
    ...halts.filter((h): h is string => h !== undefined),
  ][0];

  const messages: Message[] = prepared.map((p, i) => {
    const result = results[i];
    const content =
      typeof result.content === 'string' ? [{ type: 'text' as const, text: result.content }] : result.content;
    env.emit({
      type: 'tool_result',
      callId: p.call.id,
      toolName: p.call.name,
      text: resultText(result),
      isError: !!result.isError,
      summary: result.summary,
      display: result.display,
      ...(result.diagnostics ? { diagnostics: result.diagnostics } : {}),
    });
    return {
      role: 'tool',
      toolCallId: p.call.id,
      toolName: p.call.name,
      content,
      ...(result.isError ? { isError: true } : {}),
    };
  });
  const invalid = prepared.map((p) => p.error !== undefined);
  return { messages, snapshots, changes, commands, invalid, rejected, ...(halted !== undefined ? { halted } : {}) };
}

/** A result with what a hook said after it (docs/hooks.md, "Claude Code hooks"), for the model to read with it. */
function withFeedback(result: ToolResult, feedback: string): ToolResult {
  const note = `\n\n[hook feedback]\n${feedback}`;
  if (typeof result.content === 'string') return { ...result, content: `${result.content}${note}` };
  return { ...result, content: [...result.content, { type: 'text', text: note.trimStart() }] };
}
