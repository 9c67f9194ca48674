// Tool names as other coding agents write them, mapped to Jarvis's (docs/compatibility.md, "Tool names").
// Agent files' `tools:` / `disallowedTools:`, skills' `allowed-tools`, permission rules and plugin hook
// matchers all read names through `canonicalToolName`, so a file written for Claude Code or opencode keeps
// the tools its author meant. It lives in the bottom layer because ext/, engine/ and tools/ all read it.

/** Jarvis's built-in tool names (test/types/toolNames.test.ts checks this against the tool registry). */
export const BUILTIN_TOOL_NAMES: readonly string[] = [
  'Read',
  'ReadMediaFile',
  'Write',
  'Edit',
  'Grep',
  'Glob',
  'Bash',
  'FetchURL',
  'Lsp',
  'WebSearch',
  'TaskList',
  'TaskOutput',
  'TaskStop',
  'WaitFor',
  'EnterPlanMode',
  'ExitPlanMode',
  'TodoList',
  'AskUserQuestion',
  'Agent',
  'AgentSwarm',
  'Workflow',
  'Skill',
  'Memory',
  'CreateGoal',
  'GetGoal',
  'UpdateGoal',
  'SetGoalBudget',
  'CronCreate',
  'CronDelete',
  'CronList',
  'ToolSearch',
];

/**
 * What a permission rule may name besides a tool: `ComputerUse(<display>)`, the session's authorization for
 * computer use (docs/approvals.md, "Computer use"). Not a tool, so agents' and skills' tool lists do not know it.
 */
export const COMPUTER_USE_SUBJECT = 'ComputerUse';

/** Foreign name → Jarvis name. Keys are matched without regard to case. */
export const TOOL_NAME_ALIASES: Readonly<Record<string, string>> = {
  // Claude Code
  WebFetch: 'FetchURL',
  TodoWrite: 'TodoList',
  TodoRead: 'TodoList',
  BashOutput: 'TaskOutput',
  KillShell: 'TaskStop',
  KillBash: 'TaskStop',
  LS: 'Glob',
  MultiEdit: 'Edit',
  // A notebook is a JSON text file: Read shows it, Edit changes its text.
  NotebookRead: 'Read',
  NotebookEdit: 'Edit',
  Task: 'Agent',
  // opencode (lowercase names; those equal to ours up to case need no entry)
  list: 'Glob',
  patch: 'Edit',
  webfetch: 'FetchURL',
  todowrite: 'TodoList',
  todoread: 'TodoList',
  question: 'AskUserQuestion',
};

const ALIAS_BY_LOWER = new Map(Object.entries(TOOL_NAME_ALIASES).map(([k, v]) => [k.toLowerCase(), v]));
const BUILTIN_BY_LOWER = new Map(BUILTIN_TOOL_NAMES.map((n) => [n.toLowerCase(), n]));

/**
 * The Jarvis name for `name`: an alias's target, a built-in name in its own spelling (`read` → `Read`),
 * or `name` unchanged (an MCP tool, a plugin's tool, a pattern, or a name nobody knows).
 */
export function canonicalToolName(name: string): string {
  const trimmed = name.trim();
  const lower = trimmed.toLowerCase();
  return BUILTIN_BY_LOWER.get(lower) ?? ALIAS_BY_LOWER.get(lower) ?? trimmed;
}

/** Tools that exist only with a backend (Brave search) or inside Tower (docs/web-tools.md, docs/tower.md). */
const BACKEND_FAMILIES = /^(Brave|Tower)[A-Z]\w*$/;

/**
 * Whether a file may name `name` without a warning: a built-in, an alias, an MCP tool (`mcp__…`), a
 * pattern (`*`), or one of `extra` (tools known where the list is read, such as the browser profile's).
 */
export function isKnownToolName(name: string, extra: readonly string[] = []): boolean {
  const canonical = canonicalToolName(name);
  return (
    BUILTIN_BY_LOWER.has(canonical.toLowerCase()) ||
    canonical.startsWith('mcp__') ||
    canonical.includes('*') ||
    BACKEND_FAMILIES.test(canonical) ||
    extra.some((e) => e.toLowerCase() === canonical.toLowerCase())
  );
}

/** ` (it has U+0430, not ASCII)` when `name` holds a character outside ASCII (a look-alike or invisible one). */
export function nonAsciiHint(name: string): string {
  const odd = [...name].find((ch) => ch.codePointAt(0)! > 0x7e || ch.codePointAt(0)! < 0x20);
  if (odd === undefined) return '';
  return ` (it has U+${odd.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}, not ASCII)`;
}
