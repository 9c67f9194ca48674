// `/permissions`: the permission rules in force, grouped the way the chain reads them (deny, then ask,
// then allow; file order within each), each with the file and line it came from, and what was
// approved for this session. docs/approvals.md explains the chain.
import type { PermissionRule } from '../engine/policy/approvals';
import { displayPath } from '../store/paths';

const ORDER: ReadonlyArray<PermissionRule['decision']> = ['deny', 'ask', 'allow'];

export function permissionsLines(opts: {
  modeLabel: string;
  rules: readonly PermissionRule[];
  sessionApprovals: readonly string[];
  configPath: string;
}): string[] {
  const lines = [`Mode: ${opts.modeLabel}`, ''];
  if (opts.rules.length === 0) {
    lines.push(`No permission rules. Add [[permission.rules]] to ${displayPath(opts.configPath)}.`);
  } else {
    lines.push('Rules in force (deny, then ask, then allow; in file order within each):');
    const width = Math.max(...opts.rules.map((r) => r.pattern.length));
    for (const decision of ORDER) {
      for (const rule of opts.rules.filter((r) => r.decision === decision)) {
        lines.push(`  ${decision.padEnd(5)}  ${rule.pattern.padEnd(width)}  ${rule.source ?? ''}`.trimEnd());
        if (rule.reason) lines.push(`         ${rule.reason}`);
      }
    }
    lines.push('Rules are read when Jarvis starts: restart it after editing the file.');
  }
  lines.push(
    '',
    opts.sessionApprovals.length > 0 ? 'Approved for this session:' : 'Nothing approved for this session.',
  );
  for (const pattern of opts.sessionApprovals) lines.push(`  ${pattern}`);
  lines.push(
    '',
    "Without a matching rule, the mode and each tool's default decide. Check a call with: jarvis policy test 'Bash(git push)'",
  );
  return lines;
}
