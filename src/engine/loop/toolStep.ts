// One step's tool calls, from the loop's side (docs/architecture.md, "The data path"): hand the batch to
// toolBatch.ts with this agent's permissions and its extensions' points, then journal the snapshots, the file history
// and every call's result — a result for every call id even when the batch itself failed.
import { randomBytes } from 'node:crypto';
import type { Message, ToolCall } from '../../llm/types';
import type { PermissionRule } from '../policy/approvals';
import type { AgentDeps, PermissionState } from './agentDeps';
import type { EngineEventBody } from './events';
import type { Agent } from './loop';
import { TurnCancelled } from './modelStep';
import { resultsInCallOrder, splitDuplicateCalls } from './duplicateCalls';
import { runToolCalls, type ToolBatchResult } from './toolBatch';
import type { RepeatedCallStreak, RepeatVerdict } from './turnLimits';
import type { TurnExtensions } from './turnExtension';

/** How a call run for the user ended (docs/plugins.md, "Claude Code plugins"). */
export interface UserCallResult {
  /** `ran`: the tool ran (its result may still be an error); otherwise why it did not. */
  outcome: 'ran' | 'denied' | 'declined' | 'not_run';
  /** The tool's result as the model would have seen it, or the refusal. */
  text: string;
  isError: boolean;
  /** For `denied`: what refused it (`rule deny Bash(cat *) (config.toml:3)`, `outside the sandbox (auto mode)`). */
  by?: string;
}

export class ToolStep {
  /** Turn-scoped pre-approvals (`allowed-tools` of the command or skill behind this turn; preApproval.ts). */
  private grants: PermissionRule[] = [];

  constructor(
    private readonly deps: AgentDeps,
    private readonly agent: Agent,
    private readonly extensions: TurnExtensions,
    private readonly emit: (event: EngineEventBody) => void,
  ) {}

  async run(
    calls: ToolCall[],
    signal: AbortSignal,
    repeatStreak: RepeatedCallStreak,
    permissions: PermissionState,
  ): Promise<{ batch: ToolBatchResult; repeats: RepeatVerdict; ran: ToolCall[] }> {
    const { session } = this.deps;
    // Identical calls of one response run once; the others are answered from its result (duplicateCalls.ts).
    const split = splitDuplicateCalls(calls);
    for (const [id, original] of split.duplicates) {
      const call = calls.find((c) => c.id === id)!;
      this.emit({ type: 'tool_call', call, subject: `${call.name} (duplicate of ${original.id})` });
    }
    let batch: ToolBatchResult;
    try {
      batch = await this.runBatch(split.unique, signal, permissions);
    } catch (e) {
      // Every call id gets a result whatever failed, or the next request would be refused by the provider.
      const why = e instanceof Error ? e.message : String(e);
      for (const call of calls) session.commit({ type: 'message', message: unfinishedCall(call, why) });
      throw e;
    }
    for (const snapshot of batch.snapshots) session.commit({ type: 'file_snapshot', snapshot });
    this.deps.fileHistory?.record(batch.changes, batch.commands);
    // Repeats are judged (and warned about, in the results) before the results are journalled.
    const repeats = repeatStreak.add(split.unique, batch.invalid, batch.messages);
    const messages = resultsInCallOrder(calls, batch.messages, split);
    for (const message of messages) {
      if (message.role === 'tool' && split.duplicates.has(message.toolCallId)) this.emitDuplicate(message);
      session.commit({ type: 'message', message });
    }
    if (signal.aborted) throw new TurnCancelled('cancelled');
    return { batch: { ...batch, messages }, repeats, ran: split.unique };
  }

  private emitDuplicate(message: Extract<Message, { role: 'tool' }>): void {
    const text = message.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('\n');
    this.emit({
      type: 'tool_result',
      callId: message.toolCallId,
      toolName: message.toolName,
      text,
      isError: !!message.isError,
      summary: 'duplicate, not run again',
    });
  }

  /** A turn starts with the pre-approvals its request carries (none: cleared). */
  beginTurn(grants: readonly PermissionRule[] | undefined): void {
    this.grants = [...(grants ?? [])];
  }

  /** A skill loaded in this turn adds its `allowed-tools` for the rest of the turn. */
  grant(rules: readonly PermissionRule[]): void {
    this.grants.push(...rules);
  }

  /**
   * One tool call made for the user (a command's `` !`cmd` `` line) on the model's path: rules, the approval
   * panel, the sandbox, hooks and file history. Its result is not a message of the conversation (no model call
   * made it): what it did is journalled as a notice, and the caller puts the text where the user asked.
   */
  async runForUser(
    call: { name: string; args: Record<string, unknown> },
    signal: AbortSignal,
    permissions: PermissionState,
    grants: readonly PermissionRule[],
  ): Promise<UserCallResult> {
    const id = `user_${randomBytes(5).toString('hex')}`;
    const toolCall: ToolCall = { id, name: call.name, arguments: JSON.stringify(call.args) };
    let denial: { by: string } | undefined;
    let allowed = false;
    const emit = (event: EngineEventBody) => {
      if (event.type === 'approval_decision' && event.callId === id) {
        if (event.decision === 'deny') denial = { by: event.by };
        else allowed = true;
      }
      this.emit(event);
    };
    // Only the grants of the command being expanded: a running turn's own never reach another prompt.
    const batch = await this.runBatch([toolCall], signal, permissions, emit, grants);
    const { session } = this.deps;
    for (const snapshot of batch.snapshots) session.commit({ type: 'file_snapshot', snapshot });
    this.deps.fileHistory?.record(batch.changes, batch.commands);
    const message = batch.messages[0];
    if (message.role !== 'tool') throw new Error(`the result of ${call.name} is not a tool result`);
    const text = message.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('\n');
    const isError = !!message.isError;
    const ran = allowed && !text.startsWith('Not run:');
    const outcome: UserCallResult['outcome'] = denial
      ? denial.by === 'user'
        ? 'declined'
        : 'denied'
      : ran
        ? 'ran'
        : 'not_run';
    const what = outcome === 'ran' ? (isError ? 'ran and failed' : 'ran') : outcome.replace('_', ' ');
    const subject = `${call.name} ${JSON.stringify(call.args)}`;
    session.commit({
      type: 'notice',
      level: 'info',
      text: `For the user: ${subject} ${what}${denial ? ` (${denial.by})` : ''}`,
    });
    return { outcome, text, isError, ...(denial && outcome === 'denied' ? { by: denial.by } : {}) };
  }

  private runBatch(
    calls: ToolCall[],
    signal: AbortSignal,
    permissions: PermissionState,
    emit: (event: EngineEventBody) => void = (e) => this.emit(e),
    grants: readonly PermissionRule[] = this.grants,
  ): Promise<ToolBatchResult> {
    const { session } = this.deps;
    const { extensions, agent } = this;
    return runToolCalls(calls, {
      preApproved: grants,
      agentId: agent.id,
      tools: this.deps.tools,
      cwd: this.deps.cwd,
      services: this.deps.services,
      guard: session.guard,
      fileHistory: this.deps.fileHistory,
      mode: permissions.mode,
      rules: this.deps.rules,
      sessionApprovals: permissions.sessionApprovals,
      swarmMode: !!permissions.swarmMode,
      approvalPort: this.deps.approvalPort,
      workspace: this.deps.workspace,
      isSensitivePath: this.deps.isSensitivePath,
      checkToolCall: (call) => extensions.checkToolCall(call, agent),
      signal,
      emit,
      rememberApproval: (pattern) => session.commit({ type: 'session_approval', pattern }),
      ...(extensions.watchesToolCalls
        ? {
            beforeToolCall: (call) => extensions.beforeToolCall(call, agent.gateContext(signal)),
            beforeToolRun: (call) => extensions.beforeToolRun(call, agent.gateContext(signal)),
            afterToolCall: (call, outcome) => extensions.afterToolCall(call, outcome, agent.gateContext(signal)),
          }
        : {}),
    });
  }
}

/** The result of a call whose batch failed before its results were known. */
function unfinishedCall(call: ToolCall, why: string): Message {
  const text =
    `${call.name} may or may not have run: handling this step's tool calls failed (${why}). ` +
    'Check its effects before retrying.';
  return { role: 'tool', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text }], isError: true };
}
