// One step's tool calls, from the loop's side (docs/architecture.md, "The data path"): hand the batch to
// toolBatch.ts with this agent's permissions and its extensions' points, then journal the snapshots, the file history
// and every call's result — a result for every call id even when the batch itself failed.
import type { Message, ToolCall } from '../../llm/types';
import type { AgentDeps, PermissionState } from './agentDeps';
import type { EngineEventBody } from './events';
import type { Agent } from './loop';
import { TurnCancelled } from './modelStep';
import { runToolCalls, type ToolBatchResult } from './toolBatch';
import type { RepeatedCallStreak, RepeatVerdict } from './turnLimits';
import type { TurnExtensions } from './turnExtension';

export class ToolStep {
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
  ): Promise<{ batch: ToolBatchResult; repeats: RepeatVerdict }> {
    const { session } = this.deps;
    let batch: ToolBatchResult;
    try {
      batch = await this.runBatch(calls, signal, permissions);
    } catch (e) {
      // Every call id gets a result whatever failed, or the next request would be refused by the provider.
      const why = e instanceof Error ? e.message : String(e);
      for (const call of calls) session.commit({ type: 'message', message: unfinishedCall(call, why) });
      throw e;
    }
    for (const snapshot of batch.snapshots) session.commit({ type: 'file_snapshot', snapshot });
    this.deps.fileHistory?.record(batch.changes, batch.commands);
    // Repeats are judged (and warned about, in the results) before the results are journalled.
    const repeats = repeatStreak.add(calls, batch.invalid, batch.messages);
    for (const message of batch.messages) session.commit({ type: 'message', message });
    if (signal.aborted) throw new TurnCancelled('cancelled');
    return { batch, repeats };
  }

  private runBatch(calls: ToolCall[], signal: AbortSignal, permissions: PermissionState): Promise<ToolBatchResult> {
    const { session } = this.deps;
    const { extensions, agent } = this;
    return runToolCalls(calls, {
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
      emit: (e) => this.emit(e),
      rememberApproval: (pattern) => session.commit({ type: 'session_approval', pattern }),
      ...(extensions.watchesToolCalls
        ? {
            beforeToolCall: (call) => extensions.beforeToolCall(call, agent.gateContext(signal)),
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
