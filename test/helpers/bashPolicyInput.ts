// The approval-chain input for a Bash call in /repo, as the tool batch builds it.
import type { PermissionRule, PolicyInput } from '../../src/engine/policy/approvals';
import type { PermissionMode } from '../../src/engine/session/records';
import type { ShellAnalysis } from '../../src/engine/policy/shellCommands';

export function bashPolicyInput(
  command: string,
  shell: ShellAnalysis | undefined,
  rules: PermissionRule[],
  mode: PermissionMode,
  over: Partial<PolicyInput> = {},
): PolicyInput {
  return {
    toolName: 'Bash',
    subject: `Bash(${command})`,
    accesses: [{ kind: 'exec', cwd: '/repo' }],
    defaultApproval: 'ask',
    mode,
    rules,
    sessionApprovals: [],
    cwd: '/repo',
    workspace: { roots: ['/repo'], readOnly: [] },
    isSensitivePath: () => false,
    ...(shell ? { shell } : {}),
    ...over,
  };
}
