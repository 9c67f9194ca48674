// `allowed-tools` of a command or skill as a pre-approval (docs/approvals.md, "Pre-approved by a command or
// skill"): each pattern is a permission rule in the ordinary syntax (permissionRules.ts, aliases included) that
// allows, for one turn, what the tool's own default would have asked about. approvals.ts applies them.
import { isKnownToolName, nonAsciiHint } from '../../types/toolNames';
import type { PermissionRule } from './approvals';
import { parsePattern } from './permissionRules';

const RULE_SHAPE = /^[^()\s]+(\(.*\))?$/s;
/** The one wildcard a pre-approval's tool name may hold: every tool of one named MCP server. */
const MCP_SERVER_TOOLS = /^mcp__[^*?_]+(?:_[^*?_]+)*__\*$/;
/** Programs that run whatever they are given: pre-approving them is pre-approving every command. */
const RUNNERS = new Set(
  ['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'env', 'xargs', 'sudo', 'doas', 'su', 'nohup', 'timeout', 'nice'].concat(
    ['exec', 'eval', 'command', 'builtin', 'time', 'watch', 'script', 'busybox', 'setsid', 'stdbuf'],
  ),
);

/**
 * The allow rules `patterns` grant, each named after `file`. A pattern that does not parse, or that names no
 * tool Jarvis knows, grants nothing and is said through `warn` with the file (fail closed).
 */
export function preApprovalRules(
  patterns: readonly string[],
  file: string,
  warn: (text: string) => void,
): PermissionRule[] {
  const rules: PermissionRule[] = [];
  for (const raw of patterns) {
    const pattern = raw.trim();
    if (!pattern) continue;
    const problem = patternProblem(pattern);
    if (problem) {
      warn(`${file}: allowed-tools "${pattern}" ${problem}; it pre-approves nothing`);
      continue;
    }
    rules.push({ decision: 'allow', pattern, source: `allowed-tools of ${file}` });
  }
  return rules;
}

function patternProblem(pattern: string): string | undefined {
  if (!RULE_SHAPE.test(pattern)) return 'is not a permission pattern (expected Tool or Tool(argument-glob))';
  let tool: string;
  try {
    tool = parsePattern(pattern).tool;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  if (tool === '*' || tool.includes('**')) return 'names every tool, which a pre-approval may not';
  if (/[*?]/.test(tool) && !MCP_SERVER_TOOLS.test(tool))
    return 'has a wildcard in the tool name, which a pre-approval may not (name the tool, or mcp__server__*)';
  if (!isKnownToolName(tool)) return `names no tool called ${tool}${nonAsciiHint(tool)}`;
  if (tool === 'Bash') return bashProblem(pattern);
  return undefined;
}

/**
 * A Bash pre-approval names its program (docs/approvals.md, "Pre-approved by a command or skill"): `Bash`,
 * `Bash(*)`, `Bash(* *)`, `Bash(git*)` or `Bash(sh:*)` would let a command's `!`cmd`` lines run anything.
 */
function bashProblem(pattern: string): string | undefined {
  const arg = parsePattern(pattern).arg;
  const every = 'covers every command, which a pre-approval may not (name the program: Bash(git status:*))';
  if (arg === undefined) return every;
  const program = arg.trimStart().split(/\s/)[0] ?? '';
  if (program === '' || /[*?[\]{}$`\\'"]/.test(program)) return every;
  if (program.includes('=')) return 'starts with a variable assignment, which a pre-approval may not';
  const base = program.slice(program.lastIndexOf('/') + 1);
  if (RUNNERS.has(base)) return `names ${program}, which runs any command it is given, so it covers every command`;
  return undefined;
}
