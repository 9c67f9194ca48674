// What a Claude Code hook's answer means (docs/hooks.md, "Claude Code hooks"), event by event, as Claude Code
// defines it. Exit 2 blocks PreToolUse (stderr to the model), UserPromptSubmit (stderr to the user) and Stop (stderr
// is what the model goes on with); after a tool (PostToolUse, PostToolUseFailure) it is feedback the model reads with
// the result. Exit 0 with JSON: `decision` / `reason`, `hookSpecificOutput.permissionDecision` and
// `permissionDecisionReason`, `additionalContext`, `continue: false` with `stopReason` (the turn ends; the user reads
// why), `systemMessage` (shown to the user), `suppressOutput` (Jarvis never shows a hook's stdout anyway). A field
// Jarvis cannot apply (`updatedInput`…) is a warning, never silently dropped.
import type { HookEventName, HookRun } from './hookRunner';

export interface ClaudeAnswer {
  /** PreToolUse, UserPromptSubmit: why it is blocked; Stop: what the model goes on with. */
  block?: string;
  /** PreToolUse: the approval rewrite. */
  decision?: { permissionDecision: 'allow' | 'ask'; reason?: string };
  /** UserPromptSubmit, SessionStart: context for the model. */
  context?: string;
  /** PreToolUse, PostToolUse, PostToolUseFailure: text the model reads with the call's result. */
  feedback?: string;
  /** `continue: false`: the turn ends, for this reason (shown to the user). */
  halt?: string;
  /** `systemMessage`: shown to the user. */
  message?: string;
  warnings: string[];
}

const TOOL_AFTER: ReadonlySet<HookEventName> = new Set(['PostToolUse', 'PostToolUseFailure']);
const CONTEXT_EVENTS: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'SessionStart']);
const TOP_LEVEL = new Set([
  'continue',
  'stopReason',
  'suppressOutput',
  'systemMessage',
  'decision',
  'reason',
  'hookSpecificOutput',
]);
const SPECIFIC = new Set(['hookEventName', 'permissionDecision', 'permissionDecisionReason', 'additionalContext']);

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** Exit 2: stderr goes where Claude Code sends it for this event. */
function exitTwo(event: HookEventName, stderr: string, label: string): ClaudeAnswer {
  const reason = stderr.trim() || `blocked by ${label}`;
  if (event === 'PreToolUse' || event === 'UserPromptSubmit' || event === 'Stop')
    return { block: reason, warnings: [] };
  if (TOOL_AFTER.has(event)) return { feedback: reason, warnings: [] };
  return { warnings: [`${label} exited 2: ${reason}`] };
}

/** `decision: "block"` and `additionalContext` mean different things per event. */
function applyDecision(event: HookEventName, json: Record<string, unknown>, answer: ClaudeAnswer): void {
  const reason = text(json.reason);
  if (json.decision === undefined) return;
  if (json.decision === 'block') {
    if (TOOL_AFTER.has(event)) answer.feedback = reason ?? 'a hook flagged this result';
    else if (event === 'PreToolUse' || event === 'UserPromptSubmit' || event === 'Stop') answer.block = reason ?? '';
    else answer.warnings.push(`"decision": "block" has no effect on ${event} (ignored)`);
  } else if (json.decision === 'approve' && event === 'PreToolUse') {
    answer.decision = { permissionDecision: 'allow', reason };
  } else {
    answer.warnings.push(`"decision": ${JSON.stringify(json.decision)} is not understood for ${event} (ignored)`);
  }
}

function applySpecific(event: HookEventName, specific: Record<string, unknown>, answer: ClaudeAnswer): void {
  for (const key of Object.keys(specific))
    if (!SPECIFIC.has(key)) answer.warnings.push(`hookSpecificOutput.${key} is not applied by Jarvis (ignored)`);
  const decision = specific.permissionDecision;
  const reason = text(specific.permissionDecisionReason);
  if (decision !== undefined) {
    if (event !== 'PreToolUse')
      answer.warnings.push(`permissionDecision only counts for PreToolUse (ignored on ${event})`);
    else if (decision === 'deny') answer.block = reason ?? '';
    else if (decision === 'allow' || decision === 'ask') answer.decision = { permissionDecision: decision, reason };
    else
      answer.warnings.push(`permissionDecision ${JSON.stringify(decision)} is not "allow", "deny" or "ask" (ignored)`);
  }
  const context = text(specific.additionalContext);
  if (!context) return;
  if (CONTEXT_EVENTS.has(event)) answer.context = context;
  else if (event === 'PreToolUse' || TOOL_AFTER.has(event))
    answer.feedback = [answer.feedback, context].filter(Boolean).join('\n');
  else if (event === 'Stop') answer.block ??= context;
  else answer.warnings.push(`additionalContext has no effect on ${event} (ignored)`);
}

/** Reads one finished run of a Claude Code hook that exited 0 or 2 (others are the runner's warnings). */
export function claudeAnswer(event: HookEventName, run: HookRun, label: string): ClaudeAnswer {
  if (run.exitCode === 2) return exitTwo(event, run.stderr, label);
  const out = run.stdout.trim();
  const answer: ClaudeAnswer = { warnings: [] };
  if (!out) return answer;
  let json: unknown;
  if (out.startsWith('{')) {
    try {
      json = JSON.parse(out);
    } catch (e) {
      answer.warnings.push(`stdout starts like JSON but does not parse (${(e as Error).message})`);
    }
  }
  if (!isObject(json)) {
    // Plain text is context where Claude Code makes it context, and otherwise only Claude Code's verbose log.
    if (CONTEXT_EVENTS.has(event)) answer.context = out;
    return answer;
  }
  for (const key of Object.keys(json))
    if (!TOP_LEVEL.has(key)) answer.warnings.push(`"${key}" is not applied by Jarvis (ignored)`);
  if (json.continue === false) answer.halt = text(json.stopReason) ?? `${label} said "continue": false`;
  const message = text(json.systemMessage);
  if (message) answer.message = message;
  applyDecision(event, json, answer);
  if (isObject(json.hookSpecificOutput)) applySpecific(event, json.hookSpecificOutput, answer);
  else if (json.hookSpecificOutput !== undefined)
    answer.warnings.push('"hookSpecificOutput" must be an object (ignored)');
  // A block without a reason (hookify denies that way) tells the model what the user is shown, not just "blocked".
  if (answer.block === '' && answer.message) answer.block = answer.message;
  return answer;
}
