// Runs the `[[hooks]]` commands that match one event (docs/hooks.md): each in its own process group
// through the user's shell, the event's JSON payload on stdin, all matching hooks in parallel, an
// identical command once. A hook answers with its exit code (2 blocks, with stderr as the reason) or a
// JSON object on stdout. Anything else — another exit code, a crash, a timeout, garbage on stdout — is
// a warning and otherwise allows: hooks fail open, because a broken hook must never stop the user's work.
import { nonInteractiveEnv, releasePipes, spawnShell, terminateGroup, waitForExit } from '../../platform/processes';
import type { HookConfig } from '../../store/configSchema';
import { claudeAnswer } from './claudeHookOutput';
import { runHookCallback, type HookCallback } from './hookCallback';
import { claudeMatcherMatches, claudePayload, type ClaudeSessionFacts } from './claudeHookPayload';
import { parseHookStdout, type HookDecision } from './hookOutput';

export type HookEventName = HookConfig['event'];

/** Events whose hooks can stop what is about to happen (SPEC §8.2); every other event is fire-and-forget. */
export const BLOCKING_EVENTS: ReadonlySet<HookEventName> = new Set(['PreToolUse', 'UserPromptSubmit', 'Stop']);

/** Events whose hooks' stdout becomes context the model reads. */
const CONTEXT_EVENTS: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'SessionStart']);

/** One configured hook. Plugin hooks carry their own working directory and environment. */
export interface HookSpec {
  event: HookEventName;
  /** A regular expression searched in the event's subject (the tool name…); absent = every subject. */
  matcher?: string;
  command: string;
  /** Seconds. */
  timeout: number;
  /** Working directory; the session's project directory when absent. */
  cwd?: string;
  env?: Record<string, string>;
  /** Where it was configured, for warnings ("config.toml", "plugin acme"). */
  origin?: string;
  /**
   * `claude`: written in Claude Code's format (a plugin's hooks.json, `.claude/settings*.json`): Claude Code's
   * matcher rule, payload, `CLAUDE_PROJECT_DIR` and answers (claudeHookConfig.ts and its neighbours).
   */
  dialect?: 'claude';
  /** A function of the program (the SDK's `hooks`, hookCallback.ts) run instead of `command`, which then labels it. */
  callback?: HookCallback;
}

/** What every payload carries (SPEC §8.2), besides the event's own fields. */
export interface HookSessionInfo {
  sessionId: string;
  sessionTitle: string;
  cwd: string;
}

export interface HookRunOptions {
  session: HookSessionInfo;
  /** The environment hook commands start from: the session's (engine/runtime/runtimeShape.ts `env`); default process.env. */
  env?: Readonly<NodeJS.ProcessEnv>;
  /** For Claude Code hooks: the facts of their payload (read only when one runs) and the project folder. */
  claude?: { facts(): ClaudeSessionFacts; projectDir: string; fields?: Record<string, unknown> };
  /** Stops every running hook of this call (the turn was cancelled). */
  signal?: AbortSignal;
  /** How long a timed-out hook gets between SIGTERM and SIGKILL. */
  killGraceMs?: number;
}

/** How one hook process ended. */
export interface HookRun {
  command: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** It could not start, or was killed by a signal it did not ask for. */
  failure?: string;
}

/** The merged answer of every hook that ran for one event. */
export interface HookOutcome {
  /** Set when a hook blocked (exit 2 or a deny decision); the reasons of every blocking hook, joined. */
  block?: string;
  /** PreToolUse: the strictest decision any hook gave (deny > ask > allow), with its reason. */
  decision?: { permissionDecision: 'allow' | 'ask'; reason?: string };
  /** Text for the model (UserPromptSubmit, SessionStart), one entry per hook, in configuration order. */
  context: string[];
  /** Failed or misbehaving hooks, one line each, for the user. */
  warnings: string[];
  runs: HookRun[];
  /** Claude Code hooks after a tool (or PreToolUse's additionalContext): text the model reads with the result. */
  feedback: string[];
  /** A Claude Code hook said `"continue": false`: the turn ends, for this reason. */
  halt?: string;
  /** `systemMessage` of Claude Code hooks: shown to the user. */
  messages: string[];
  /** What a Claude Code hook answered that Jarvis cannot apply: said once per session, not per call. */
  notes: string[];
}

const MAX_CAPTURE_CHARS = 64 * 1024;
const DEFAULT_KILL_GRACE_MS = 3_000;

/** True when `hook` applies to `event` with this subject (the tool name, the prompt, `startup`…). */
export function hookMatches(hook: HookSpec, event: HookEventName, subject: string): boolean {
  if (hook.event !== event) return false;
  if (hook.dialect === 'claude') return claudeMatcherMatches(hook.matcher, event, subject);
  if (hook.matcher === undefined || hook.matcher === '') return true;
  try {
    return new RegExp(hook.matcher).test(subject);
  } catch {
    return false; // config validation rejects bad patterns; a plugin's may still slip through
  }
}

/** The JSON a hook reads on stdin: snake_case base fields, then the event's own fields. */
export function hookPayload(
  event: HookEventName,
  session: HookSessionInfo,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  return {
    hook_event_name: event,
    session_id: session.sessionId,
    session_title: session.sessionTitle,
    client_type: 'jarvis_code_cli',
    cwd: session.cwd,
    ...fields,
  };
}

/**
 * Runs every hook of `hooks` that matches, in parallel, and merges their answers. Resolves when all
 * have finished (or been stopped); never rejects.
 */
export async function runHooks(
  hooks: readonly HookSpec[],
  event: HookEventName,
  subject: string,
  fields: Record<string, unknown>,
  opts: HookRunOptions,
): Promise<HookOutcome> {
  const outcome: HookOutcome = { context: [], warnings: [], runs: [], feedback: [], messages: [], notes: [] };
  const seen = new Set<string>();
  const chosen = hooks.filter((h) => {
    if (!hookMatches(h, event, subject)) return false;
    const key = `${h.dialect ?? ''}\0${h.cwd ?? ''}\0${h.command}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (!chosen.length) return outcome;
  let jarvisInput: string | undefined;
  let claudeInput: string | undefined;
  const inputOf = (hook: HookSpec): string => {
    if (hook.dialect !== 'claude' || !opts.claude)
      return (jarvisInput ??= JSON.stringify(hookPayload(event, opts.session, fields)));
    const claude = opts.claude;
    return (claudeInput ??= JSON.stringify(claudePayload(event, claude.facts(), { ...fields, ...claude.fields })));
  };
  const runs = await Promise.all(chosen.map((hook) => runOne(hook, inputOf(hook), opts)));
  const blocks: string[] = [];
  let decision: HookOutcome['decision'];
  runs.forEach((run, i) => {
    const hook = chosen[i];
    outcome.runs.push(run);
    const label = `${event} hook \`${shorten(hook.command)}\`${hook.origin ? ` (${hook.origin})` : ''}`;
    if (run.failure || run.timedOut) {
      outcome.warnings.push(
        `${label} ${run.timedOut ? `timed out after ${hook.timeout}s and was stopped` : run.failure} (ignored)`,
      );
      return;
    }
    if (hook.dialect === 'claude' && (run.exitCode === 0 || run.exitCode === 2)) {
      const answer = claudeAnswer(event, run, label);
      for (const w of answer.warnings) outcome.notes.push(`${label}: ${w}`);
      if (answer.block !== undefined) blocks.push(answer.block || `blocked by ${label}`);
      if (answer.decision)
        if (!decision || (answer.decision.permissionDecision === 'ask' && decision.permissionDecision === 'allow'))
          decision = answer.decision;
      if (answer.context) outcome.context.push(answer.context);
      if (answer.feedback) outcome.feedback.push(answer.feedback);
      if (answer.message) outcome.messages.push(answer.message);
      outcome.halt ??= answer.halt;
      return;
    }
    if (run.exitCode === 2) {
      const reason = run.stderr.trim() || `blocked by ${label}`;
      if (BLOCKING_EVENTS.has(event)) blocks.push(reason);
      else outcome.warnings.push(`${label} exited 2, but ${event} cannot be blocked (ignored)`);
      return;
    }
    if (run.exitCode !== 0) {
      const detail = firstLine(run.stderr);
      outcome.warnings.push(`${label} exited ${run.exitCode}${detail ? `: ${detail}` : ''} (ignored)`);
      return;
    }
    const parsed = parseHookStdout(run.stdout);
    if (parsed.warning) outcome.warnings.push(`${label}: ${parsed.warning} (ignored)`);
    applyDecision(parsed.decision, event, label, blocks, outcome.warnings, (d) => {
      if (!decision || (d.permissionDecision === 'ask' && decision.permissionDecision === 'allow')) decision = d;
    });
    if (CONTEXT_EVENTS.has(event) && parsed.context) outcome.context.push(parsed.context);
  });
  if (blocks.length) outcome.block = blocks.join('\n');
  else if (decision) outcome.decision = decision;
  return outcome;
}

function applyDecision(
  decision: HookDecision | undefined,
  event: HookEventName,
  label: string,
  blocks: string[],
  warnings: string[],
  rewrite: (d: NonNullable<HookOutcome['decision']>) => void,
): void {
  if (!decision) return;
  if (decision.permissionDecision === 'deny') {
    if (BLOCKING_EVENTS.has(event)) blocks.push(decision.reason?.trim() || `blocked by ${label}`);
    else warnings.push(`${label} answered "deny", but ${event} cannot be blocked (ignored)`);
    return;
  }
  if (event === 'PreToolUse') rewrite({ permissionDecision: decision.permissionDecision, reason: decision.reason });
  else warnings.push(`${label} answered "${decision.permissionDecision}", which only PreToolUse hooks can (ignored)`);
}

async function runOne(hook: HookSpec, input: string, opts: HookRunOptions): Promise<HookRun> {
  if (hook.callback) return runHookCallback(hook.callback, hook.command, input, hook.timeout, opts.signal);
  const run: HookRun = { command: hook.command, exitCode: null, stdout: '', stderr: '', timedOut: false };
  if (opts.signal?.aborted) return { ...run, failure: 'was not started: the turn was cancelled' };
  const claude = hook.dialect === 'claude' && opts.claude ? { CLAUDE_PROJECT_DIR: opts.claude.projectDir } : {};
  const env = nonInteractiveEnv(opts.env ?? process.env, {
    JARVIS_PROJECT_DIR: opts.session.cwd,
    ...claude,
    ...hook.env,
  });
  const child = spawnShell(hook.command, { cwd: hook.cwd ?? opts.session.cwd, env, stdin: 'pipe' });
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (run.stdout = capped(run.stdout + d)));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (run.stderr = capped(run.stderr + d)));
  // A hook that never reads stdin closes it early; the write error that follows is expected.
  child.stdin?.on('error', () => {});
  child.stdin?.end(input);

  let stopping: Promise<unknown> | undefined;
  const stop = () => {
    if (!stopping && child.pid)
      stopping = terminateGroup(child.pid, { graceMs: opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS });
  };
  const timer = setTimeout(() => {
    run.timedOut = true;
    stop();
  }, hook.timeout * 1000);
  const onAbort = () => stop();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const exit = await waitForExit(child);
    if (exit.error) return { ...run, failure: `could not start: ${exit.error.message}` };
    await releasePipes(child, 200);
    // Children the hook left behind in its group are stopped too: the hook is over.
    if (child.pid && !stopping) stop();
    await stopping;
    run.exitCode = exit.code;
    if (!run.timedOut && exit.signal)
      run.failure = opts.signal?.aborted ? 'was stopped: the turn was cancelled' : `was killed by ${exit.signal}`;
    return run;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

function capped(text: string): string {
  return text.length > MAX_CAPTURE_CHARS ? text.slice(0, MAX_CAPTURE_CHARS) : text;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 200) ?? '';
}

function shorten(command: string): string {
  const one = command.replace(/\s+/g, ' ').trim();
  return one.length > 60 ? `${one.slice(0, 57)}…` : one;
}
