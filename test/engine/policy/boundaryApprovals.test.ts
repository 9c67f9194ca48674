// The approval stage of the trust boundary (docs/trust-boundary.md): a command whose working folder is outside the
// session's writable roots is asked in manual mode and refused in auto mode, whatever rule, session approval or
// `auto_allow` says (yolo runs it); a session approval names the sandbox it was given for and never covers running
// the same command outside it. Written as attacks: each row is what a model (or a planted record) would try.
import { describe, expect, it } from 'vitest';
import {
  decideApproval,
  isBindingDeny,
  type PermissionRule,
  type PolicyInput,
} from '../../../src/engine/policy/approvals';
import { analyseShellCommand } from '../../../src/engine/policy/shellCommands';
import { coversConfinement, sessionApprovalEntry } from '../../../src/engine/policy/sessionApprovals';
import type { PermissionMode } from '../../../src/engine/session/records';
import type { BoundaryFacts } from '../../../src/tools/defineTool';
import { bashPolicyInput } from '../../helpers/bashPolicyInput';

const INSIDE: BoundaryFacts = { confinement: 'sandboxed', escalation: false };
const HOME_CWD: BoundaryFacts = { ...INSIDE, outsideRoots: '/home/user' };
const OUTSIDE: BoundaryFacts = { confinement: 'unsandboxed', escalation: true };
const allow = (pattern: string): PermissionRule => ({ decision: 'allow', pattern });
const deny = (pattern: string): PermissionRule => ({ decision: 'deny', pattern });

interface Row {
  name: string;
  command: string;
  mode: PermissionMode;
  facts: BoundaryFacts;
  over?: Partial<PolicyInput>;
  expected: 'allow' | 'ask' | 'deny';
  by?: string;
}

const ROWS: Row[] = [
  // The working folder is never a new root.
  {
    name: 'cwd = home in auto (print) mode',
    command: 'touch .bash_profile',
    mode: 'auto',
    facts: HOME_CWD,
    expected: 'deny',
    by: 'outside the workspace (auto mode)',
  },
  {
    name: 'cwd = home in auto mode, an allow rule covering the command',
    command: 'touch .bash_profile',
    mode: 'auto',
    facts: HOME_CWD,
    over: { rules: [allow('Bash(touch *)')] },
    expected: 'deny',
    by: 'outside the workspace (auto mode)',
  },
  {
    name: 'cwd = home in manual mode',
    command: 'touch .bash_profile',
    mode: 'manual',
    facts: HOME_CWD,
    expected: 'ask',
    by: 'outside the workspace',
  },
  {
    name: 'cwd = home in manual mode, the command approved for the session',
    command: 'touch .bash_profile',
    mode: 'manual',
    facts: HOME_CWD,
    over: { sessionApprovals: ['Bash(touch *) [sandboxed]'] },
    expected: 'ask',
    by: 'outside the workspace',
  },
  {
    name: 'cwd = home in manual mode, an allow rule covering the command',
    command: 'touch .bash_profile',
    mode: 'manual',
    facts: HOME_CWD,
    over: { rules: [allow('Bash(touch *)')] },
    expected: 'ask',
    by: 'outside the workspace',
  },
  {
    name: 'cwd = home in manual mode with [sandbox] auto_allow',
    command: 'touch .bash_profile',
    mode: 'manual',
    facts: HOME_CWD,
    over: { defaultApproval: 'auto' },
    expected: 'ask',
    by: 'outside the workspace',
  },
  {
    name: "cwd = home, pre-approved by a command's allowed-tools",
    command: 'touch .bash_profile',
    mode: 'manual',
    facts: HOME_CWD,
    over: { preApproved: [allow('Bash(touch:*)')] },
    expected: 'ask',
    by: 'outside the workspace',
  },
  {
    name: 'cwd = home in yolo mode',
    command: 'touch .bash_profile',
    mode: 'yolo',
    facts: HOME_CWD,
    expected: 'allow',
    by: 'yolo mode',
  },
  {
    name: 'cwd = home with a deny rule',
    command: 'rm -rf x',
    mode: 'yolo',
    facts: HOME_CWD,
    over: { rules: [deny('Bash(rm *)')] },
    expected: 'deny',
  },
  {
    name: 'cwd inside the workspace in auto mode',
    command: 'make',
    mode: 'auto',
    facts: INSIDE,
    expected: 'allow',
    by: 'auto mode',
  },
  // A session approval names the sandbox.
  {
    name: 'approved sandboxed for the session, asked again to run unsandboxed',
    command: 'make deploy',
    mode: 'manual',
    facts: OUTSIDE,
    over: { sessionApprovals: ['Bash(make *) [sandboxed]'] },
    expected: 'ask',
  },
  {
    name: 'a record written before approvals named the sandbox covers only sandboxed runs',
    command: 'make deploy',
    mode: 'manual',
    facts: OUTSIDE,
    over: { sessionApprovals: ['Bash(make *)'] },
    expected: 'ask',
  },
  {
    name: 'an unsandboxed approval does not cover another command',
    command: 'curl x',
    mode: 'manual',
    facts: OUTSIDE,
    over: { sessionApprovals: ['Bash(make *) [unsandboxed]'] },
    expected: 'ask',
  },
  {
    name: 'approved sandboxed for the session, run sandboxed',
    command: 'make deploy',
    mode: 'manual',
    facts: INSIDE,
    over: { sessionApprovals: ['Bash(make *) [sandboxed]'] },
    expected: 'allow',
    by: 'approved for this session',
  },
  {
    name: 'approved unsandboxed for the session, run unsandboxed',
    command: 'make deploy',
    mode: 'manual',
    facts: OUTSIDE,
    over: { sessionApprovals: ['Bash(make *) [unsandboxed]'] },
    expected: 'allow',
    by: 'approved for this session',
  },
  {
    name: 'approved unsandboxed for the session, run sandboxed (less reach)',
    command: 'make deploy',
    mode: 'manual',
    facts: INSIDE,
    over: { sessionApprovals: ['Bash(make *) [unsandboxed]'] },
    expected: 'allow',
    by: 'approved for this session',
  },
  {
    name: 'leaving the sandbox in auto mode, approved for the session',
    command: 'make deploy',
    mode: 'auto',
    facts: OUTSIDE,
    over: { sessionApprovals: ['Bash(make *) [unsandboxed]'] },
    expected: 'deny',
    by: 'outside the sandbox (auto mode)',
  },
];

describe('the approval stage of the trust boundary', () => {
  it.each(ROWS.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    const shell = await analyseShellCommand(row.command);
    const input = bashPolicyInput(row.command, shell, [], row.mode, { boundary: row.facts, ...row.over });
    const decision = decideApproval(input);
    expect(decision.decision).toBe(row.expected);
    if (row.by) expect(decision.by).toBe(row.by);
    // A refusal of a folder outside the workspace holds against hooks and extensions too.
    if (row.by === 'outside the workspace (auto mode)') expect(isBindingDeny(decision)).toBe(true);
  });

  it('says where the command runs and that approving leaves that folder read-only', async () => {
    const input = bashPolicyInput('ls', await analyseShellCommand('ls'), [], 'manual', { boundary: HOME_CWD });
    expect(decideApproval(input).reason).toMatch(/runs in \/home\/user, outside the workspace.*still read-only/);
  });

  it('remembers the sandbox with the approval, and reads it back', () => {
    expect(sessionApprovalEntry('Bash(make *)', INSIDE)).toBe('Bash(make *) [sandboxed]');
    expect(sessionApprovalEntry('Bash(make *)', OUTSIDE)).toBe('Bash(make *) [unsandboxed]');
    expect(sessionApprovalEntry('Write(/repo/**)', undefined)).toBe('Write(/repo/**)');
    expect(coversConfinement('Bash(make *) [sandboxed]', 'unsandboxed')).toBeUndefined();
    expect(coversConfinement('Bash(make *) [sandboxed]', 'sandboxed')).toBe('Bash(make *)');
    expect(coversConfinement('Bash(make *) [unsandboxed]', 'sandboxed')).toBe('Bash(make *)');
    // A named entry never covers a call that starts no program.
    expect(coversConfinement('Write(/x) [unsandboxed]', undefined)).toBeUndefined();
  });
});
