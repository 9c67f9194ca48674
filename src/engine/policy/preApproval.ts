// `allowed-tools` of a command or skill as a pre-approval (docs/approvals.md, "Pre-approved by a command or
// skill"): each pattern is a permission rule in the ordinary syntax (permissionRules.ts, aliases included) that
// allows, for one turn, what the tool's own default would have asked about. approvals.ts applies them.
import { isKnownToolName } from '../../types/toolNames';
import type { PermissionRule } from './approvals';
import { parsePattern } from './permissionRules';

const RULE_SHAPE = /^[^()\s]+(\(.*\))?$/s;

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
  if (!isKnownToolName(tool)) return `names no tool called ${tool}`;
  return undefined;
}
