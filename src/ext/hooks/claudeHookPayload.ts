// What a hook written for Claude Code reads (docs/hooks.md, "Claude Code hooks"): Claude Code's base fields —
// `session_id`, `transcript_path`, `cwd`, `permission_mode`, `hook_event_name` — and, for tool events, the tool
// under Claude Code's name with Claude Code's field names (`Write` gets `file_path`, an absolute path, not our
// `path`; `FetchURL` is `WebFetch`; `TodoList` is `TodoWrite`…). Matchers are read against those names too, with the
// older names Claude Code used (`Task` for `Agent`, `BashOutput` for `TaskOutput`). A tool Claude Code has no
// counterpart for keeps its Jarvis name and arguments.
import { isAbsolute, resolve } from 'node:path';
import type { HookEventName } from './hookRunner';

/** Jarvis tool → Claude Code's name, then older names Claude Code matchers may still use. */
const CLAUDE_NAMES: Record<string, readonly string[]> = {
  Read: ['Read'],
  ReadMediaFile: ['Read'],
  Write: ['Write'],
  Edit: ['Edit'],
  Bash: ['Bash'],
  Grep: ['Grep'],
  Glob: ['Glob'],
  FetchURL: ['WebFetch'],
  WebSearch: ['WebSearch'],
  Agent: ['Agent', 'Task'],
  TodoList: ['TodoWrite'],
  TaskOutput: ['TaskOutput', 'BashOutput'],
  TaskStop: ['TaskStop', 'KillShell', 'KillBash'],
  Lsp: ['LSP'],
};

/** The events whose subject is a tool name. */
const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionResult',
]);

/** The name a Claude Code hook knows the tool by. */
export function claudeToolName(tool: string): string {
  return CLAUDE_NAMES[tool]?.[0] ?? tool;
}

/** A matcher that is only names (`Write`, `Edit|Write`, `Bash,PowerShell`, `mcp__brave-search`): exact names. */
const NAME_LIST = /^[\w-]+(?:\s*[|,]\s*[\w-]+)*$/;

/**
 * Claude Code's matcher rule: empty or `*` matches everything; a list of names matches those names exactly; anything
 * else is a regular expression searched in the subject. For tool events the subject is the tool under each of its
 * Claude Code names. A pattern that does not compile matches nothing (and was reported when the hook was read).
 */
export function claudeMatcherMatches(matcher: string | undefined, event: HookEventName, subject: string): boolean {
  const m = matcher?.trim();
  // Claude Code has no matcher for these events: a matcher written there is ignored, as it is there.
  if (!m || m === '*' || event === 'UserPromptSubmit' || event === 'Stop') return true;
  const subjects = TOOL_EVENTS.has(event) ? [...(CLAUDE_NAMES[subject] ?? [subject])] : [subject];
  if (NAME_LIST.test(m)) {
    const names = m.split(/[|,]/).map((n) => n.trim());
    return subjects.some((s) => names.includes(s));
  }
  try {
    const re = new RegExp(m);
    return subjects.some((s) => re.test(s));
  } catch {
    return false;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The call's arguments under Claude Code's field names (paths absolute, as Claude Code sends them). */
export function claudeToolInput(tool: string, args: unknown, cwd: string): unknown {
  if (!isObject(args)) return args;
  const abs = (p: unknown) => (typeof p === 'string' ? (isAbsolute(p) ? p : resolve(cwd, p)) : p);
  const keep = (...keys: string[]) =>
    Object.fromEntries(keys.filter((k) => args[k] !== undefined).map((k) => [k, args[k]]));
  switch (tool) {
    case 'Read':
      return {
        file_path: abs(args.path),
        ...(typeof args.line_offset === 'number' && args.line_offset > 0 ? { offset: args.line_offset } : {}),
        ...(args.n_lines !== undefined ? { limit: args.n_lines } : {}),
      };
    case 'ReadMediaFile':
      return { file_path: abs(args.path) };
    case 'Write':
      return { file_path: abs(args.path), content: args.content };
    case 'Edit':
      return { file_path: abs(args.path), ...keep('old_string', 'new_string', 'replace_all') };
    case 'Bash':
      return keep('command', 'description', 'timeout', 'run_in_background');
    case 'Grep': {
      const mode = args.output_mode === 'count_matches' ? 'count' : args.output_mode;
      const path = args.path === undefined ? {} : { path: abs(args.path) };
      const flags = keep('pattern', 'glob', 'type', '-A', '-B', '-C', '-i', '-n', 'multiline', 'head_limit', 'offset');
      return { ...flags, ...path, ...(mode !== undefined ? { output_mode: mode } : {}) };
    }
    case 'Glob':
      return { ...keep('pattern'), ...(args.path === undefined ? {} : { path: abs(args.path) }) };
    case 'FetchURL':
      return keep('url');
    case 'WebSearch':
      return keep('query');
    case 'Agent':
      return keep('description', 'prompt', 'subagent_type', 'run_in_background');
    case 'TodoList':
      return {
        todos: Array.isArray(args.todos)
          ? args.todos.map((t) => {
              const item = isObject(t) ? t : {};
              const status = item.status === 'done' ? 'completed' : item.status;
              return { content: item.title, status, activeForm: item.title };
            })
          : [],
      };
    default:
      return args;
  }
}

/** Bash's result text as Claude Code's `{stdout, stderr, interrupted}`; the exit code is added for hooks that want it. */
function bashResponse(text: string): Record<string, unknown> {
  const block = (name: string) => new RegExp(`<${name}>\\n?([\\s\\S]*?)\\n?</${name}>`).exec(text)?.[1] ?? '';
  const code = /^Exit code: (\d+)/m.exec(text)?.[1];
  return {
    stdout: block('stdout') || (/<stdout>|<stderr>/.test(text) ? '' : text),
    stderr: block('stderr'),
    interrupted: false,
    isImage: false,
    ...(code !== undefined ? { exit_code: Number(code) } : {}),
  };
}

/** What PostToolUse hooks read as `tool_response`: the fields Claude Code's tools return, where we know them. */
export function claudeToolResponse(tool: string, input: unknown, outcome: { text: string; isError: boolean }): unknown {
  const i = isObject(input) ? input : {};
  switch (tool) {
    case 'Bash':
      return bashResponse(outcome.text);
    case 'Write':
      return { filePath: i.file_path, content: i.content, success: !outcome.isError };
    case 'Edit':
      return {
        filePath: i.file_path,
        oldString: i.old_string,
        newString: i.new_string,
        replaceAll: i.replace_all ?? false,
        success: !outcome.isError,
      };
    case 'Read':
    case 'ReadMediaFile':
      return { type: 'text', file: { filePath: i.file_path, content: outcome.text } };
    default:
      return outcome.text;
  }
}

/** Claude Code's permission mode for ours: manual asks (`default`), auto is `auto`, yolo bypasses, plan is `plan`. */
export function claudePermissionMode(mode: string, planMode: boolean): string {
  if (planMode) return 'plan';
  return mode === 'yolo' ? 'bypassPermissions' : mode === 'auto' ? 'auto' : 'default';
}

/** The session facts every Claude Code payload carries. */
export interface ClaudeSessionFacts {
  sessionId: string;
  cwd: string;
  transcriptPath: string;
  permissionMode: string;
}

/**
 * The stdin of a Claude Code hook: its base fields, then the event's fields in Claude Code's names. `fields` are the
 * Jarvis payload's own (hookGate.ts); what Claude Code has no name for is passed as it is.
 */
export function claudePayload(
  event: HookEventName,
  facts: ClaudeSessionFacts,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  const base = {
    session_id: facts.sessionId,
    transcript_path: facts.transcriptPath,
    cwd: facts.cwd,
    permission_mode: facts.permissionMode,
    hook_event_name: event,
  };
  const { tool_name, tool_input, tool_call_id, tool_output, ...rest } = fields;
  if (typeof tool_name === 'string') {
    const input = claudeToolInput(tool_name, tool_input, facts.cwd);
    const out: Record<string, unknown> = { ...base, ...rest, tool_name: claudeToolName(tool_name), tool_input: input };
    if (tool_call_id !== undefined) out.tool_use_id = tool_call_id;
    if (event === 'PostToolUse' || event === 'PostToolUseFailure')
      out.tool_response = claudeToolResponse(tool_name, input, {
        text: typeof tool_output === 'string' ? tool_output : '',
        isError: event === 'PostToolUseFailure',
      });
    return out;
  }
  switch (event) {
    case 'SessionEnd':
      return { ...base, reason: 'other' };
    case 'PreCompact':
      return { ...base, trigger: fields.trigger, custom_instructions: '' };
    case 'SubagentStart':
    case 'SubagentStop':
      return {
        ...base,
        agent_id: fields.agent_id,
        agent_type: fields.agent_name,
        ...(event === 'SubagentStop' ? { stop_hook_active: false } : {}),
      };
    case 'Notification':
      return { ...base, message: fields.description ?? fields.type, notification_type: fields.type };
    default:
      return { ...base, ...fields };
  }
}
