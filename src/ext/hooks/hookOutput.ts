// What a hook that exited 0 said on stdout (docs/hooks.md): plain text (context for the model, for the
// events that take context) or a JSON object with a decision. Both JSON shapes in use are read:
// `{"permissionDecision": "deny", "reason": "…"}` and the nested
// `{"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "…"}}`, plus
// `{"decision": "block" | "approve", "reason": "…"}` and `additionalContext`.

export interface HookDecision {
  permissionDecision: 'allow' | 'deny' | 'ask';
  reason?: string;
}

export interface ParsedHookStdout {
  decision?: HookDecision;
  /** Text to give the model (for events that take context). */
  context?: string;
  /** The output was meant as JSON but could not be used. */
  warning?: string;
}

const DECISIONS = new Set(['allow', 'deny', 'ask']);

export function parseHookStdout(stdout: string): ParsedHookStdout {
  const text = stdout.trim();
  if (!text) return {};
  if (!text.startsWith('{')) return { context: text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return {
      context: text,
      warning: `stdout starts like JSON but does not parse (${(e as Error).message}); used as plain text`,
    };
  }
  if (!isRecord(value)) return { context: text };
  const nested = isRecord(value.hookSpecificOutput) ? value.hookSpecificOutput : {};
  const known = ['permissionDecision', 'decision', 'additionalContext', 'reason'].some(
    (k) => k in value || k in nested,
  );
  if (!known) return { context: text };

  const result: ParsedHookStdout = {};
  const context = stringField(nested.additionalContext) ?? stringField(value.additionalContext);
  if (context) result.context = context;
  const raw = nested.permissionDecision ?? value.permissionDecision;
  const reason =
    stringField(nested.permissionDecisionReason) ??
    stringField(value.permissionDecisionReason) ??
    stringField(value.reason);
  if (raw !== undefined) {
    if (typeof raw === 'string' && DECISIONS.has(raw))
      result.decision = { permissionDecision: raw as HookDecision['permissionDecision'], reason };
    else result.warning = `permissionDecision ${JSON.stringify(raw)} is not "allow", "deny" or "ask"`;
  } else if (value.decision === 'block') {
    result.decision = { permissionDecision: 'deny', reason };
  } else if (value.decision === 'approve') {
    result.decision = { permissionDecision: 'allow', reason };
  } else if (value.decision !== undefined) {
    result.warning = `decision ${JSON.stringify(value.decision)} is not "block" or "approve"`;
  }
  return result;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringField(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}
