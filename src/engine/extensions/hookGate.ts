// `[[hooks]]` as a handler of the extension gate (docs/hooks.md): each gate point and each observed
// engine event becomes a hook event with its payload. Blocking events (PreToolUse, UserPromptSubmit,
// Stop) wait for their hooks; every other event is fire-and-forget, and the session's end waits for
// whatever is still running so that no hook is cut off when the process exits.
import type { ClaudeTranscript } from '../../ext/hooks/claudeTranscript';
import { runHooks, type HookEventName, type HookOutcome, type HookSpec } from '../../ext/hooks/hookRunner';
import type { EngineEvent } from '../loop/events';
import type { GateContext, GateHandler } from './extensionGate';

export interface HookGateOptions {
  hooks: readonly HookSpec[];
  /** The environment hook commands start from (the session's); default process.env. */
  env?: Readonly<NodeJS.ProcessEnv>;
  /** The session title now (it can change during the session). */
  title(): string;
  /** The main agent's profile name (SessionStart `profile`). */
  profile: string;
  /** Where hook warnings go (a notice in the UI, stderr in print mode). */
  warn(text: string): void;
  /** Where a Claude Code hook's `systemMessage` goes (an info notice). */
  inform?(text: string): void;
  /** What Claude Code hooks read besides the session (docs/hooks.md, "Claude Code hooks"). */
  claude?: { transcript: ClaudeTranscript; permissionMode(): string; projectDir: string };
  /** SessionHeartbeat period; the timer exists only when a SessionHeartbeat hook is configured. */
  heartbeatMs?: number;
}

/** PostToolUse `tool_output` is cut to this many characters (SPEC §8.3). */
export const HOOK_TOOL_OUTPUT_CHARS = 2_000;
const HEARTBEAT_MS = 60_000;

export function hookGateHandler(opts: HookGateOptions): GateHandler & { close(): Promise<void> } {
  const configured = new Set(opts.hooks.map((h) => h.event));
  const pending = new Set<Promise<unknown>>();
  // Every gate point names the session; events observed between them use the last one seen.
  let where: Pick<GateContext, 'sessionId' | 'cwd'> = { sessionId: '', cwd: process.cwd() };
  const session = () => ({ sessionId: where.sessionId, sessionTitle: opts.title(), cwd: where.cwd });
  const seen = (ctx: GateContext) => {
    where = { sessionId: ctx.sessionId, cwd: ctx.cwd };
  };
  const startedAt = Date.now();
  let heartbeat: NodeJS.Timeout | undefined;
  /** SessionStart output, given to the model with the first prompt. */
  let startContext: string[] = [];

  // What a Claude Code hook answered that Jarvis cannot apply is said once, not at every call.
  const said = new Set<string>();
  const claude = opts.claude;
  const claudeFacts = () => {
    const problem = claude!.transcript.sync();
    if (problem && !said.has(problem)) opts.warn(problem);
    if (problem) said.add(problem);
    return {
      sessionId: where.sessionId,
      cwd: where.cwd,
      transcriptPath: claude!.transcript.path,
      permissionMode: claude!.permissionMode(),
    };
  };
  const run = async (
    event: HookEventName,
    subject: string,
    fields: Record<string, unknown>,
    signal?: AbortSignal,
    claudeFields?: Record<string, unknown>,
  ): Promise<HookOutcome | undefined> => {
    if (!configured.has(event)) return undefined;
    const outcome = await runHooks(opts.hooks, event, subject, fields, {
      session: session(),
      ...(opts.env ? { env: opts.env } : {}),
      signal,
      ...(claude ? { claude: { facts: claudeFacts, projectDir: claude.projectDir, fields: claudeFields } } : {}),
    });
    for (const w of outcome.warnings) opts.warn(w);
    for (const note of outcome.notes) {
      if (said.has(note)) continue;
      said.add(note);
      opts.warn(note);
    }
    for (const m of outcome.messages) (opts.inform ?? opts.warn)(m);
    return outcome;
  };
  /** PreToolUse additionalContext of a call that runs, given to the model with its result. */
  const pendingFeedback = new Map<string, string>();
  const claudeAfterTool = opts.hooks.some(
    (h) => h.dialect === 'claude' && (h.event === 'PostToolUse' || h.event === 'PostToolUseFailure'),
  );
  const fire = (event: HookEventName, subject: string, fields: Record<string, unknown>): void => {
    if (!configured.has(event)) return;
    const p = run(event, subject, fields).finally(() => pending.delete(p));
    pending.add(p);
  };

  return {
    name: 'hooks',
    async onSessionStart(facts, ctx) {
      seen(ctx);
      const outcome = await run('SessionStart', facts.source, {
        source: facts.source,
        model: facts.model,
        profile: opts.profile,
      });
      startContext = outcome?.context ?? [];
      if (configured.has('SessionHeartbeat')) {
        // A heartbeat whose hooks are still running is not fired again: slow hooks never pile up.
        let beating: Promise<unknown> | undefined;
        heartbeat = setInterval(() => {
          if (beating) return;
          beating = run('SessionHeartbeat', '', { uptime_ms: Date.now() - startedAt }).finally(() => {
            pending.delete(beating!);
            beating = undefined;
          });
          pending.add(beating);
        }, opts.heartbeatMs ?? HEARTBEAT_MS);
        heartbeat.unref();
      }
    },
    async onPromptSubmit(prompt, ctx) {
      seen(ctx);
      const outcome = await run(
        'UserPromptSubmit',
        prompt.text,
        { prompt: prompt.text, is_steer: prompt.isSteer },
        ctx.signal,
      );
      if (outcome?.block || outcome?.halt) return { block: outcome.block ?? outcome.halt! };
      const context = [...startContext, ...(outcome?.context ?? [])];
      startContext = [];
      return context.length ? { addContext: context.join('\n\n') } : undefined;
    },
    async beforeToolCall(call, ctx) {
      seen(ctx);
      const outcome = await run(
        'PreToolUse',
        call.toolName,
        { tool_name: call.toolName, tool_input: call.args, tool_call_id: call.callId },
        ctx.signal,
      );
      const feedback = outcome?.feedback.join('\n\n');
      if (outcome?.block || outcome?.halt) {
        const block = [outcome.block ?? outcome.halt!, feedback].filter(Boolean).join('\n\n');
        return { block, ...(outcome.halt !== undefined ? { halt: outcome.halt } : {}) };
      }
      if (feedback) pendingFeedback.set(call.callId, feedback);
      if (outcome?.decision) return { approval: outcome.decision.permissionDecision, reason: outcome.decision.reason };
      return undefined;
    },
    async afterToolCall(call, outcome, ctx) {
      const cut = outcome.text.slice(0, HOOK_TOOL_OUTPUT_CHARS);
      const fields = { tool_name: call.toolName, tool_input: call.args, tool_call_id: call.callId, tool_output: cut };
      const event: HookEventName = outcome.isError ? 'PostToolUseFailure' : 'PostToolUse';
      const all = outcome.isError ? { ...fields, error: cut } : fields;
      const before = pendingFeedback.get(call.callId);
      pendingFeedback.delete(call.callId);
      // Claude Code hooks after a tool may answer (feedback, "continue": false), so the call waits for them.
      if (!claudeAfterTool) {
        fire(event, call.toolName, all);
        return before ? { feedback: before } : undefined;
      }
      const after = await run(event, call.toolName, all, ctx.signal, { tool_output: outcome.text });
      const feedback = [before, ...(after?.feedback ?? [])].filter(Boolean).join('\n\n');
      return { ...(feedback ? { feedback } : {}), ...(after?.halt !== undefined ? { halt: after.halt } : {}) };
    },
    async beforeStop(facts, ctx) {
      const outcome = await run('Stop', '', { stop_hook_active: facts.continued, turn_id: facts.turnId }, ctx.signal);
      // `"continue": false` wins over a block (Claude Code): the turn ends.
      return outcome?.block && outcome.halt === undefined ? { continueWith: outcome.block } : undefined;
    },
    onSessionEnd(facts) {
      if (heartbeat) clearInterval(heartbeat);
      fire('SessionEnd', facts.reason, { reason: facts.reason });
    },
    beforeCompaction(facts) {
      fire('PreCompact', facts.trigger, { trigger: facts.trigger, token_count: facts.tokenCount });
    },
    afterCompaction(facts) {
      fire('PostCompact', facts.trigger, {
        trigger: facts.trigger,
        estimated_token_count: facts.estimatedTokenCount,
        ...(facts.error ? { error: facts.error } : {}),
      });
    },
    observe(event: EngineEvent) {
      observed(event, fire);
    },
    async close() {
      if (heartbeat) clearInterval(heartbeat);
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}

/** The fire-and-forget events that come from the engine's event stream. */
function observed(
  event: EngineEvent,
  fire: (event: HookEventName, subject: string, fields: Record<string, unknown>) => void,
): void {
  switch (event.type) {
    case 'turn_start':
      fire('TurnStarted', event.origin, {
        turn_id: event.turnId,
        origin_kind: event.origin,
        origin_name: event.origin,
        prompt: event.prompt,
      });
      break;
    case 'turn_end':
      if (event.reason === 'interrupted' || event.reason === 'cancelled')
        fire('Interrupt', '', { reason: 'user', turn_id: event.turnId });
      else if (event.reason === 'failed')
        fire('StopFailure', errorType(event.error), { error: event.error ?? 'unknown error', turn_id: event.turnId });
      break;
    case 'approval_request':
      fire('PermissionRequest', event.toolName, {
        tool_name: event.toolName,
        tool_call_id: event.callId,
        subject: event.subject,
        reason: event.reason,
      });
      break;
    case 'prompt_queued':
      fire('UserPromptQueued', event.text, { prompt: event.text, queue_length: event.queueLength });
      break;
    case 'task_change': {
      const kind = event.task.kind === 'bash' ? 'process' : event.task.kind === 'subagent' ? 'agent' : event.task.kind;
      if (event.change === 'started')
        fire('TaskStarted', kind, {
          task_id: event.task.id,
          description: event.task.description,
          detached: true,
          kind,
          status: event.task.status,
        });
      else {
        const type = `task.${event.task.status}`;
        fire('Notification', type, {
          type,
          task_id: event.task.id,
          kind,
          status: event.task.status,
          description: event.task.description,
          message: event.task.statusMessage,
        });
      }
      break;
    }
    case 'subagent':
      if (event.change === 'started')
        fire('SubagentStart', event.agentName, {
          agent_name: event.agentName,
          agent_id: event.childId,
          prompt: event.prompt,
        });
      else
        fire('SubagentStop', event.agentName, {
          agent_name: event.agentName,
          agent_id: event.childId,
          response: event.response.slice(0, HOOK_TOOL_OUTPUT_CHARS),
          status: event.status,
        });
      break;
    case 'approval_decision':
      fire('PermissionResult', toolOf(event.subject), {
        tool_call_id: event.callId,
        subject: event.subject,
        decision: event.decision,
        decided_by: event.by,
      });
      break;
    default:
      break;
  }
}

/** `Bash(npm test)` → `Bash`: the matcher subject of permission events is the tool name. */
function toolOf(subject: string): string {
  const at = subject.indexOf('(');
  return at > 0 ? subject.slice(0, at) : subject;
}

/** A short error class for StopFailure's matcher (`rate_limit`, `network`, `provider`…). */
function errorType(error: string | undefined): string {
  const text = error ?? '';
  if (/\b429\b|rate limit/i.test(text)) return 'rate_limit';
  if (/\b5\d\d\b|overloaded/i.test(text)) return 'server_error';
  if (/\b40[13]\b|auth|api key/i.test(text)) return 'authentication';
  if (/ECONN|ENOTFOUND|network|fetch failed|timed? ?out/i.test(text)) return 'network';
  return 'error';
}
