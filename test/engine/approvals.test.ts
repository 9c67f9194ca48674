import { describe, expect, it } from 'vitest';
import { decideApproval, validateRules, type PermissionRule, type PolicyInput } from '../../src/engine/approvals';
import { patternMatches, sessionApprovalPattern } from '../../src/engine/permissionRules';
import type { PermissionMode } from '../../src/engine/records';

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
    isSensitivePath: sensitive,
    ...over,
  };
}

describe('approval policy chain', () => {
  const table: Array<[string, Partial<PolicyInput> & { subject: string }, 'allow' | 'deny' | 'ask']> = [
    ['read-only tool is auto-allowed in manual mode', { subject: 'Read(/repo/a.ts)', accesses: [{ kind: 'read', path: '/repo/a.ts' }] }, 'allow'],
    ['Write asks in manual mode', { subject: 'Write(/repo/a.ts)', accesses: [{ kind: 'write', path: '/repo/a.ts' }] }, 'ask'],
    ['Bash asks in manual mode', { subject: 'Bash(ls)' }, 'ask'],
    ['yolo approves Bash', { subject: 'Bash(ls)', mode: 'yolo' }, 'allow'],
    ['yolo still asks for reading .env', { subject: 'Read(/repo/.env)', mode: 'yolo', accesses: [{ kind: 'read', path: '/repo/.env' }] }, 'ask'],
    ['manual asks for reading .env even though Read is auto', { subject: 'Read(/repo/.env)', accesses: [{ kind: 'read', path: '/repo/.env' }] }, 'ask'],
    ['auto mode reads .env without asking', { subject: 'Read(/repo/.env)', mode: 'auto', accesses: [{ kind: 'read', path: '/repo/.env' }] }, 'allow'],
    ['auto mode approves Bash', { subject: 'Bash(make)', mode: 'auto' }, 'allow'],
    ['yolo asks for writes inside .git', { subject: 'Write(/repo/.git/config)', mode: 'yolo', accesses: [{ kind: 'write', path: '/repo/.git/config' }] }, 'ask'],
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
    expect(decideApproval(input({ subject: 'Bash(ls)', accesses: [{ kind: 'exec', cwd }] })).reason).toBe('Bash runs a command; manual mode asks first');
    expect(decideApproval(input({ subject: 'Edit(/repo/a)', accesses: [{ kind: 'write', path: '/repo/a' }] })).reason).toBe('Edit changes files; manual mode asks first');
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
    const d = decideApproval(input({ subject: 'Bash(rm -rf x)', rules: [{ decision: 'deny', pattern: 'Bash(rm*)' }], sessionApprovals: ['Bash(rm*)'], mode: 'auto' }));
    expect(d.decision).toBe('deny');
  });

  it('a session approval covers the same kind of call, never a compound command', () => {
    const pattern = sessionApprovalPattern('Bash(npm test -- --watch=false)');
    expect(pattern).toBe('Bash(npm test*)');
    expect(decideApproval(input({ subject: 'Bash(npm test src/a.test.ts)', sessionApprovals: [pattern] })).decision).toBe('allow');
    expect(decideApproval(input({ subject: 'Bash(npm test; rm -rf ~)', sessionApprovals: [pattern] })).decision).toBe('ask');
    expect(decideApproval(input({ subject: 'Bash(npm install)', sessionApprovals: [pattern] })).decision).toBe('ask');
  });

  it('a session approval for a file edit covers its folder', () => {
    const pattern = sessionApprovalPattern('Edit(/repo/src/a.ts)');
    expect(pattern).toBe('Edit(/repo/src/**)');
    expect(decideApproval(input({ subject: 'Edit(/repo/src/deep/b.ts)', sessionApprovals: [pattern] })).decision).toBe('allow');
    expect(decideApproval(input({ subject: 'Edit(/repo/other.ts)', sessionApprovals: [pattern] })).decision).toBe('ask');
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
