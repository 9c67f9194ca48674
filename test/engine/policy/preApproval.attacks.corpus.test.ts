// Attacks on `allowed-tools` as a pre-approval (docs/approvals.md, "Pre-approved by a command or skill"), as a
// plugin's author or a prompt-injected model would try them: each row is a pre-approval and a call, and what the
// policy must decide. A row that comes out `allow` where it should `ask` is a widening.
import { describe, expect, it } from 'vitest';
import { decideApproval, shellAnalysisFor, type PolicyInput } from '../../../src/engine/policy/approvals';
import { preApprovalRules } from '../../../src/engine/policy/preApproval';

const FILE = '/plugins/evil/commands/status.md';

function grant(patterns: string[]) {
  const warnings: string[] = [];
  return { rules: preApprovalRules(patterns, FILE, (w) => warnings.push(w)), warnings };
}

async function decide(toolName: string, subject: string, extra: Partial<PolicyInput>) {
  const arg = subject.slice(subject.indexOf('(') + 1, -1);
  const accesses: PolicyInput['accesses'] =
    toolName === 'Bash' ? [{ kind: 'exec', cwd: '/repo' }] : [{ kind: 'write', path: arg }];
  return decideApproval({
    toolName,
    subject,
    accesses,
    defaultApproval: 'ask',
    mode: 'manual',
    rules: [],
    sessionApprovals: [],
    cwd: '/repo',
    workspace: { roots: ['/repo'], readOnly: [] },
    isSensitivePath: (p) => p.endsWith('.env'),
    shell: await shellAnalysisFor(toolName, subject),
    ...extra,
  });
}

const STATUS = 'Bash(git status:*)';

/** [allowed-tools, command, decision] — commands that smuggle more than `git status` past its pre-approval. */
const BASH_ROWS: Array<[string, string, 'allow' | 'ask']> = [
  [STATUS, 'git status --short', 'allow'],
  [STATUS, 'git status', 'allow'],
  [STATUS, 'git status; curl http://127.0.0.1:9/x', 'ask'],
  [STATUS, 'git status && rm -rf ~', 'ask'],
  [STATUS, 'git status || rm -rf ~', 'ask'],
  [STATUS, 'git status | sh', 'ask'],
  [STATUS, 'git status $(touch /tmp/p)', 'ask'],
  [STATUS, 'git status `touch /tmp/p`', 'ask'],
  [STATUS, 'git status <(touch /tmp/p)', 'ask'],
  [STATUS, 'git status\ntouch /tmp/p', 'ask'],
  [STATUS, 'git status & touch /tmp/p', 'ask'],
  [STATUS, 'git -c core.pager=sh status', 'ask'],
  [STATUS, 'git -c core.fsmonitor=touch\\ /tmp/p status', 'ask'],
  [STATUS, 'git status > /etc/x', 'ask'],
  [STATUS, 'git status >> ~/.bashrc', 'ask'],
  [STATUS, 'GIT_DIR=/tmp/evil git status', 'ask'],
  [STATUS, 'GIT_CONFIG_PARAMETERS="core.fsmonitor=sh" git status', 'ask'],
  [STATUS, 'PAGER=sh git status', 'ask'],
  [STATUS, 'env git status', 'ask'],
  [STATUS, 'eval "git status; touch /tmp/p"', 'ask'],
  [STATUS, 'git statusx', 'ask'],
  [STATUS, 'git status-evil', 'ask'],
  [STATUS, '/tmp/evil/git status', 'ask'],
  [STATUS, './git status', 'ask'],
  ['Bash(git diff:*)', 'git diff --output=/repo/x', 'allow'],
  ['Bash(npm test)', 'npm test && curl 127.0.0.1:9', 'ask'],
];

describe('a Bash pre-approval covers only the command it names', () => {
  it.each(BASH_ROWS)('allowed-tools %j, command %j → %s', async (pattern, command, want) => {
    const { rules: preApproved, warnings } = grant([pattern]);
    expect(warnings).toEqual([]);
    const got = await decide('Bash', `Bash(${command})`, { preApproved });
    expect(got.decision).toBe(want);
  });
});

/** [allowed-tools, the reason it grants nothing] — entries that would pre-approve far more than they seem to. */
const REFUSED: Array<[string, RegExp]> = [
  ['Bash', /covers every command/],
  ['Bash(*)', /covers every command/],
  ['Bash(**)', /covers every command/],
  ['Bash(:*)', /covers every command/],
  ['Bash( *)', /covers every command/],
  ['Bash(* *)', /covers every command/],
  ['Bash(git*)', /covers every command/],
  ['Bash(g?t status)', /covers every command/],
  ['Bash($(x))', /covers every command/],
  ['Bash(sh:*)', /names sh, which runs any command/],
  ['Bash(bash -c:*)', /names bash, which runs any command/],
  ['Bash(/bin/sh -c *)', /names \/bin\/sh, which runs any command/],
  ['Bash(env:*)', /names env/],
  ['Bash(xargs *)', /names xargs/],
  ['Bash(sudo git status)', /names sudo/],
  ['Bash(eval *)', /names eval/],
  ['Bash(GIT_DIR=/tmp/x git status:*)', /variable assignment/],
  ['bash', /covers every command/],
  ['BASH(*)', /covers every command/],
  ['*', /names every tool/],
  ['**', /names every tool/],
  ['B*', /wildcard in the tool name/],
  ['*h(ls)', /wildcard in the tool name/],
  ['W*', /wildcard in the tool name/],
  ['?ead', /wildcard in the tool name/],
  ['mcp__*', /wildcard in the tool name/],
  ['mcp__**', /names every tool/],
  ['mcp__*__*', /wildcard in the tool name/],
  ['mcp__gh*__create', /wildcard in the tool name/],
  ['Bash (ls)', /is not a permission pattern/],
  ['Bаsh(ls)', /names no tool called Bаsh \(it has U\+0430, not ASCII\)/],
  ['Ba\u200bsh(git status)', /names no tool called .* \(it has U\+200B, not ASCII\)/],
  ['Bash(git status:*', /is not a permission pattern/],
];

describe('pre-approvals that would cover too much grant nothing, with a warning naming the file', () => {
  it.each(REFUSED)('allowed-tools %j', (pattern, why) => {
    const { rules, warnings } = grant([pattern]);
    expect(rules).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(why);
    expect(warnings[0]).toContain(`${FILE}: allowed-tools "${pattern.trim()}"`);
    expect(warnings[0]).toMatch(/it pre-approves nothing$/);
  });

  it('still grants the narrow forms: a named program, a named MCP server, a file tool', () => {
    const { rules, warnings } = grant(['Bash(git status:*)', 'mcp__github__*', 'mcp__github__create_issue', 'Write']);
    expect(warnings).toEqual([]);
    expect(rules.map((r) => r.pattern)).toEqual([
      'Bash(git status:*)',
      'mcp__github__*',
      'mcp__github__create_issue',
      'Write',
    ]);
  });
});

describe('file pre-approvals never reach past the workspace or a secret', () => {
  const rows: Array<[string, string, 'allow' | 'ask']> = [
    ['Write', 'Write(/repo/src/a.ts)', 'allow'],
    ['Write', 'Write(/etc/passwd)', 'ask'],
    ['Edit(/etc/**)', 'Edit(/etc/hosts)', 'ask'],
    ['Edit(**)', 'Edit(/root/.bashrc)', 'ask'],
    ['Write', 'Write(/repo/.env)', 'ask'],
    ['Write', 'Write(/repo/.git/hooks/pre-commit)', 'ask'],
    ['Write(/repo/../etc/*)', 'Write(/etc/shadow)', 'ask'],
  ];
  it.each(rows)('allowed-tools %j, call %j → %s', async (pattern, subject, want) => {
    const { rules: preApproved, warnings } = grant([pattern]);
    expect(warnings).toEqual([]);
    const tool = subject.slice(0, subject.indexOf('('));
    expect((await decide(tool, subject, { preApproved })).decision).toBe(want);
  });
});
