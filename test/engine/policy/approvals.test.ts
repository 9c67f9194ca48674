import { describe, expect, it } from 'vitest';
import {
  decideApproval,
  isBindingDeny,
  validateRules,
  type PermissionRule,
  type PolicyInput,
} from '../../../src/engine/policy/approvals';
import { patternMatches, sessionApprovalPattern } from '../../../src/engine/policy/permissionRules';
import type { PermissionMode } from '../../../src/engine/session/records';

const cwd = '/repo';
const sensitive = (p: string) => /\/\.env$|\/id_rsa$/.test(p);

function input(over: Partial<PolicyInput> & { subject: string }): PolicyInput {
  const tool = over.subject.split('(')[0];
  return {
    toolName: tool,
    accesses: [],
    defaultApproval: ['Read', 'Grep', 'Glob'].includes(tool) ? 'auto' : 'ask',
    mode: 'manual',
    rules: [],
    sessionApprovals: [],
    cwd,
    workspace: { roots: [cwd], readOnly: ['/skills/review'] },
    isSensitivePath: sensitive,
    ...over,
  };
}

describe('approval policy chain', () => {
  const table: Array<[string, Partial<PolicyInput> & { subject: string }, 'allow' | 'deny' | 'ask']> = [
    [
      'read-only tool is auto-allowed in manual mode',
      { subject: 'Read(/repo/a.ts)', accesses: [{ kind: 'read', path: '/repo/a.ts' }] },
      'allow',
    ],
    [
      'Write asks in manual mode',
      { subject: 'Write(/repo/a.ts)', accesses: [{ kind: 'write', path: '/repo/a.ts' }] },
      'ask',
    ],
    ['Bash asks in manual mode', { subject: 'Bash(ls)' }, 'ask'],
    ['yolo approves Bash', { subject: 'Bash(ls)', mode: 'yolo' }, 'allow'],
    [
      'yolo still asks for reading .env',
      { subject: 'Read(/repo/.env)', mode: 'yolo', accesses: [{ kind: 'read', path: '/repo/.env' }] },
      'ask',
    ],
    [
      'manual asks for reading .env even though Read is auto',
      { subject: 'Read(/repo/.env)', accesses: [{ kind: 'read', path: '/repo/.env' }] },
      'ask',
    ],
    [
      'auto mode refuses reading .env (no one to ask)',
      { subject: 'Read(/repo/.env)', mode: 'auto', accesses: [{ kind: 'read', path: '/repo/.env' }] },
      'deny',
    ],
    ['auto mode approves Bash', { subject: 'Bash(make)', mode: 'auto' }, 'allow'],
    [
      'yolo asks for writes inside .git',
      { subject: 'Write(/repo/.git/config)', mode: 'yolo', accesses: [{ kind: 'write', path: '/repo/.git/config' }] },
      'ask',
    ],
  ];
  it.each(table)('%s', (_name, over, expected) => {
    expect(decideApproval(input(over)).decision).toBe(expected);
  });

  const denyRm: PermissionRule[] = [{ decision: 'deny', pattern: 'Bash(rm -rf*)' }];
  it.each<PermissionMode>(['manual', 'yolo', 'auto'])('deny Bash(rm -rf*) holds in %s mode', (mode) => {
    const d = decideApproval(input({ subject: 'Bash(rm -rf /tmp/x)', mode, rules: denyRm }));
    expect(d.decision).toBe('deny');
    expect(d.by).toContain('Bash(rm -rf*)');
  });

  it('explains a default ask in words', () => {
    expect(decideApproval(input({ subject: 'Bash(ls)', accesses: [{ kind: 'exec', cwd }] })).reason).toBe(
      'Bash runs a command; manual mode asks first',
    );
    expect(
      decideApproval(input({ subject: 'Edit(/repo/a)', accesses: [{ kind: 'write', path: '/repo/a' }] })).reason,
    ).toBe('Edit changes files; manual mode asks first');
  });

  it('an allow rule approves in manual mode; an ask rule beats an allow rule', () => {
    const rules: PermissionRule[] = [
      { decision: 'allow', pattern: 'Bash(npm *)' },
      { decision: 'ask', pattern: 'Bash(npm publish*)' },
    ];
    expect(decideApproval(input({ subject: 'Bash(npm test)', rules })).decision).toBe('allow');
    expect(decideApproval(input({ subject: 'Bash(npm publish)', rules })).decision).toBe('ask');
    expect(decideApproval(input({ subject: 'Bash(npm publish)', rules, mode: 'yolo' })).decision).toBe('ask');
  });

  it('deny rules beat everything, including session approvals and auto mode', () => {
    const d = decideApproval(
      input({
        subject: 'Bash(rm -rf x)',
        rules: [{ decision: 'deny', pattern: 'Bash(rm*)' }],
        sessionApprovals: ['Bash(rm*)'],
        mode: 'auto',
      }),
    );
    expect(d.decision).toBe('deny');
  });

  it('a session approval covers the same kind of call, never a compound command', () => {
    const pattern = sessionApprovalPattern('Bash(npm test -- --watch=false)');
    expect(pattern).toBe('Bash(npm test *)');
    expect(
      decideApproval(input({ subject: 'Bash(npm test src/a.test.ts)', sessionApprovals: [pattern] })).decision,
    ).toBe('allow');
    expect(decideApproval(input({ subject: 'Bash(npm test; rm -rf ~)', sessionApprovals: [pattern] })).decision).toBe(
      'ask',
    );
    expect(decideApproval(input({ subject: 'Bash(npm install)', sessionApprovals: [pattern] })).decision).toBe('ask');
  });

  it('a session approval is offered at the program and, for programs with subcommands, the subcommand', () => {
    expect(sessionApprovalPattern('Bash(sleep 25)')).toBe('Bash(sleep *)');
    expect(sessionApprovalPattern('Bash(echo a)')).toBe('Bash(echo *)');
    expect(sessionApprovalPattern('Bash(git push origin main)')).toBe('Bash(git push *)');
    expect(sessionApprovalPattern('Bash(npm run build -- --watch)')).toBe('Bash(npm run build *)');
    expect(sessionApprovalPattern('Bash(ls *.ts)')).toBe('Bash(ls *.ts)');
    const sleep = ['Bash(sleep *)'];
    expect(decideApproval(input({ subject: 'Bash(sleep 1)', sessionApprovals: sleep })).decision).toBe('allow');
    expect(decideApproval(input({ subject: 'Bash(sleep)', sessionApprovals: sleep })).decision).toBe('allow');
    expect(decideApproval(input({ subject: 'Bash(sleeper 1)', sessionApprovals: sleep })).decision).toBe('ask');
    const echo = ['Bash(echo *)'];
    expect(decideApproval(input({ subject: 'Bash(echo abc)', sessionApprovals: echo })).decision).toBe('allow');
    expect(decideApproval(input({ subject: 'Bash(git push)', sessionApprovals: ['Bash(git push *)'] })).decision).toBe(
      'allow',
    );
    expect(decideApproval(input({ subject: 'Bash(git pull)', sessionApprovals: ['Bash(git push *)'] })).decision).toBe(
      'ask',
    );
  });

  it('a session approval for a file edit covers its folder', () => {
    const pattern = sessionApprovalPattern('Edit(/repo/src/a.ts)');
    expect(pattern).toBe('Edit(/repo/src/**)');
    expect(decideApproval(input({ subject: 'Edit(/repo/src/deep/b.ts)', sessionApprovals: [pattern] })).decision).toBe(
      'allow',
    );
    expect(decideApproval(input({ subject: 'Edit(/repo/other.ts)', sessionApprovals: [pattern] })).decision).toBe(
      'ask',
    );
  });
});

describe('sensitive files and paths outside the workspace', () => {
  const read = (path: string, over: Partial<PolicyInput> = {}) =>
    input({ subject: `Read(${path})`, accesses: [{ kind: 'read', path }], ...over });
  const write = (path: string, over: Partial<PolicyInput> = {}) =>
    input({ subject: `Write(${path})`, accesses: [{ kind: 'write', path }], ...over });
  const table: Array<[string, PolicyInput, 'allow' | 'deny' | 'ask', string]> = [
    ['auto refuses writing .env', write('/repo/.env', { mode: 'auto' }), 'deny', 'sensitive file (auto mode)'],
    [
      'auto refuses reading outside',
      read('/etc/passwd', { mode: 'auto' }),
      'deny',
      'outside the workspace (auto mode)',
    ],
    ['auto refuses writing outside', write('/tmp/x', { mode: 'auto' }), 'deny', 'outside the workspace (auto mode)'],
    [
      'auto refuses a sibling folder that only shares a prefix',
      read('/repo-other/a', { mode: 'auto' }),
      'deny',
      'outside the workspace (auto mode)',
    ],
    [
      'auto works in an added folder',
      write('/extra/a', { mode: 'auto', workspace: { roots: ['/repo', '/extra'], readOnly: [] } }),
      'allow',
      'auto mode',
    ],
    [
      'auto: an allow rule names a sensitive file',
      read('/repo/.env', { mode: 'auto', rules: [{ decision: 'allow', pattern: 'Read(.env)' }] }),
      'allow',
      'rule allow Read(.env)',
    ],
    [
      'auto: an allow rule names an outside folder',
      read('/etc/hosts', { mode: 'auto', rules: [{ decision: 'allow', pattern: 'Read(/etc/**)' }] }),
      'allow',
      'rule allow Read(/etc/**)',
    ],
    [
      'auto: an allow rule for another file does not help',
      read('/etc/passwd', { mode: 'auto', rules: [{ decision: 'allow', pattern: 'Read(/etc/hosts)' }] }),
      'deny',
      'outside the workspace (auto mode)',
    ],
    [
      'auto: a deny rule still wins over an allow rule',
      read('/repo/.env', {
        mode: 'auto',
        rules: [
          { decision: 'deny', pattern: 'Read(**/.env)' },
          { decision: 'allow', pattern: 'Read(**)' },
        ],
      }),
      'deny',
      'rule deny Read(**/.env)',
    ],
    [
      'auto: commands are not paths',
      input({ subject: 'Bash(cat ../x)', mode: 'auto', accesses: [{ kind: 'exec', cwd: '/elsewhere' }] }),
      'allow',
      'auto mode',
    ],
    ["auto reads a loaded skill's folder", read('/skills/review/checklist.md', { mode: 'auto' }), 'allow', 'auto mode'],
    [
      "auto does not write into a skill's folder",
      write('/skills/review/checklist.md', { mode: 'auto' }),
      'deny',
      'outside the workspace (auto mode)',
    ],
    [
      'manual asks to read outside (a read-only tool inside would run)',
      read('/etc/passwd'),
      'ask',
      'outside the workspace',
    ],
    ['yolo asks to write outside', write('/tmp/x', { mode: 'yolo' }), 'ask', 'outside the workspace'],
    [
      'manual: an allow rule covers an outside folder',
      read('/etc/hosts', { rules: [{ decision: 'allow', pattern: 'Read(/etc/**)' }] }),
      'allow',
      'rule allow Read(/etc/**)',
    ],
    [
      'manual: a folder approved for the session',
      read('/etc/hosts', { sessionApprovals: ['Read(/etc/**)'] }),
      'allow',
      'approved for this session',
    ],
    [
      'manual: a folder approval does not cover a sensitive file in it',
      read('/repo/.env', { sessionApprovals: ['Read(/repo/**)'] }),
      'ask',
      'sensitive file',
    ],
    [
      'manual: the sensitive file approved by name',
      read('/repo/.env', { sessionApprovals: ['Read(/repo/.env)'] }),
      'allow',
      'approved for this session',
    ],
  ];
  it.each(table)('%s', (_name, policyInput, decision, by) => {
    const d = decideApproval(policyInput);
    expect([d.decision, d.by]).toEqual([decision, by]);
  });

  it('says why, naming the path and the workspace', () => {
    expect(
      decideApproval(read('/etc/passwd', { workspace: { roots: ['/repo', '/extra'], readOnly: [] } })).reason,
    ).toBe('/etc/passwd is outside the workspace (/repo, /extra; more folders can be added with --add-dir)');
    expect(decideApproval(read('/repo/.env', { mode: 'auto' })).reason).toBe(
      '/repo/.env may hold secrets (keys, passwords, credentials); auto mode reads or writes such files only when a permission rule allows it',
    );
  });

  it('only deny rules and auto mode refusals of guarded paths bind extensions', () => {
    expect(isBindingDeny(decideApproval(read('/repo/.env', { mode: 'auto' })))).toBe(true);
    expect(isBindingDeny(decideApproval(read('/etc/passwd', { mode: 'auto' })))).toBe(true);
    expect(
      isBindingDeny(
        decideApproval(input({ subject: 'Bash(rm x)', rules: [{ decision: 'deny', pattern: 'Bash(rm *)' }] })),
      ),
    ).toBe(true);
    expect(isBindingDeny(decideApproval(read('/etc/passwd')))).toBe(false);
  });
});

describe('permission patterns', () => {
  const cases: Array<[string, string, boolean]> = [
    ['Read', 'Read(/repo/a)', true],
    ['Read', 'Write(/repo/a)', false],
    ['Bash(rm -rf*)', 'Bash(rm -rf /tmp/x)', true],
    ['Bash(rm -rf*)', 'Bash(echo rm -rf)', false],
    ['Bash(git *)', 'Bash(git status)', true],
    ['Read(src/**)', 'Read(/repo/src/a/b.ts)', true],
    ['Read(./src/**)', 'Read(/repo/src/x.ts)', true],
    ['Read(SRC/**)', 'Read(/repo/src/x.ts)', true],
    ['Read(/etc/**)', 'Read(/repo/etc/x)', false],
    ['mcp__github__*', 'mcp__github__create_issue', true],
    ['mcp__github__*', 'mcp__gitlab__create_issue', false],
    ['mcp__**', 'mcp__any__thing', true],
  ];
  it.each(cases)('%s vs %s → %s', (pattern, subject, expected) => {
    expect(patternMatches(pattern, subject, cwd)).toBe(expected);
  });

  it('validates rule decisions and patterns with actionable messages', () => {
    const problems = validateRules([
      { decision: 'maybe' as never, pattern: 'Bash' },
      { decision: 'allow', pattern: 'Bash(unclosed' },
    ]);
    expect(problems[0]).toMatch(/decision: expected allow, deny or ask, got "maybe"/);
    expect(problems[1]).toMatch(/pattern: expected Tool or Tool\(argument-glob\)/);
  });
});
