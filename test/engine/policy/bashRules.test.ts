// How the approval chain uses a parsed Bash line: which part a rule refused, unknowable programs per
// mode, ask rules, file-write rules against redirections, and a parser that cannot be used.
import { describe, expect, it } from 'vitest';
import { decideApproval, shellAnalysisFor, type PermissionRule } from '../../../src/engine/policy/approvals';
import type { PermissionMode } from '../../../src/engine/session/records';
import { MAX_NESTING, analyseShellCommand } from '../../../src/engine/policy/shellCommands';
import { bashPolicyInput } from '../../helpers/bashPolicyInput';

async function judge(command: string, rules: PermissionRule[], mode: PermissionMode = 'manual') {
  return decideApproval(bashPolicyInput(command, await analyseShellCommand(command), rules, mode));
}

const denyRm: PermissionRule[] = [
  { decision: 'deny', pattern: 'Bash(rm *)', source: '~/.jarvis-code/config.toml:7', reason: 'use trash instead' },
];

describe('Bash lines against permission rules', () => {
  it('names the part of the line a deny rule refused, the rule, where it was written and why', async () => {
    const d = await judge('echo hi && rm -f x', denyRm, 'yolo');
    expect(d).toMatchObject({
      decision: 'deny',
      by: 'rule deny Bash(rm *) (~/.jarvis-code/config.toml:7)',
      reason: 'it runs rm -f x; use trash instead',
    });
    expect(d.commands).toEqual(['echo hi', 'rm -f x']);
  });

  it('a program known only at run time asks in manual mode and is refused in yolo and auto mode when a Bash deny rule exists', async () => {
    const manual = await judge('RM=rm; $RM -f x', denyRm, 'manual');
    expect(manual.decision).toBe('ask');
    expect(manual.by).toBe('rule deny Bash(rm *) (~/.jarvis-code/config.toml:7)');
    expect(manual.reason).toBe(
      'the program $RM is known only when the command runs, so the Bash deny rules cannot be checked against it',
    );
    expect((await judge('RM=rm; $RM -f x', denyRm, 'yolo')).decision).toBe('deny');
    expect((await judge('eval "$CMD"', denyRm, 'auto')).reason).toMatch(
      /^eval runs a string that is known only when it runs/,
    );
    expect((await judge('source ./x.sh', denyRm, 'auto')).reason).toMatch(/^source runs the commands in \.\/x\.sh/);
  });

  it('without a Bash deny rule an unknowable program follows the rest of the chain', async () => {
    expect((await judge('$CMD', [], 'yolo')).decision).toBe('allow');
    expect((await judge('$CMD', [{ decision: 'deny', pattern: 'Read(/etc/**)' }], 'auto')).decision).toBe('allow');
  });

  it('an ask rule asks when any simple command matches, even in yolo mode', async () => {
    const d = await judge('npm test && npm publish', [{ decision: 'ask', pattern: 'Bash(npm publish*)' }], 'yolo');
    expect(d).toMatchObject({ decision: 'ask', by: 'rule ask Bash(npm publish*)', reason: 'it runs npm publish' });
  });

  it('says which part of the line the allow rules do not cover', async () => {
    const d = await judge('git status && touch PWNED', [{ decision: 'allow', pattern: 'Bash(git *)' }]);
    expect(d).toMatchObject({ decision: 'ask', reason: 'the allow rules do not cover touch PWNED' });
    expect((await judge('git status > PWNED', [{ decision: 'allow', pattern: 'Bash(git *)' }])).reason).toBe(
      'the allow rules do not cover the redirection into PWNED',
    );
  });

  it('a bare allow Bash rule covers every line, compound ones included', async () => {
    expect((await judge('git status; $(x)', [{ decision: 'allow', pattern: 'Bash' }])).decision).toBe('allow');
  });

  it('a rule on a wrapper does not cover the command it runs', async () => {
    const d = await judge('sudo rm -f x', [{ decision: 'allow', pattern: 'Bash(sudo *)' }]);
    expect(d).toMatchObject({ decision: 'ask', reason: 'the allow rules do not cover rm -f x' });
  });

  it('Write and Edit deny rules hold against output redirections', async () => {
    const rules: PermissionRule[] = [{ decision: 'deny', pattern: 'Write(/repo/.env)' }];
    const d = await judge('echo KEY=1 >> .env', rules, 'auto');
    expect(d).toMatchObject({ decision: 'deny', by: 'rule deny Write(/repo/.env)', reason: 'it writes .env' });
    expect((await judge('echo KEY=1 >> other', rules, 'auto')).decision).toBe('allow');
  });

  it('a whole-line deny pattern still matches the line as written', async () => {
    expect((await judge('curl x | sh', [{ decision: 'deny', pattern: 'Bash(curl * | sh)' }], 'auto')).decision).toBe(
      'deny',
    );
  });

  it(`stops reading nested shells after ${MAX_NESTING} levels and treats the rest as unknowable`, async () => {
    let line = 'rm -f x';
    for (let i = 0; i <= MAX_NESTING + 1; i++) line = `eval ${line}`;
    const shell = await analyseShellCommand(line);
    expect(shell.unknowable[0]).toMatch(/nested more than \d levels deep/);
    expect((await judge(line, denyRm, 'auto')).decision).toBe('deny');
    expect((await judge(line, [{ decision: 'allow', pattern: 'Bash(eval *)' }])).decision).toBe('ask');
  });

  it('a Bash subject judged without a parsed line is unreadable unless it is plain words', async () => {
    const base = bashPolicyInput('echo a; rm -f x', undefined, denyRm, 'auto');
    expect(decideApproval(base).decision).toBe('deny');
    expect(decideApproval({ ...base, subject: 'Bash(timeout 5 rm -f x)' }).reason).toContain('it runs rm -f x');
    expect(decideApproval({ ...base, subject: 'Bash(ls -la)' }).decision).toBe('allow');
  });

  it('matches git subcommands past the global options and a bare command against `Bash(x *)`', async () => {
    const askPush: PermissionRule[] = [
      { decision: 'ask', pattern: 'Bash(git push *)' },
      { decision: 'allow', pattern: 'Bash(git *)' },
    ];
    const reason = 'it runs git -C . --no-pager push origin';
    expect(await judge('git -C . --no-pager push origin', askPush)).toMatchObject({ decision: 'ask', reason });
    expect((await judge('git push', askPush)).decision).toBe('ask');
    expect((await judge('git log push', askPush)).decision).toBe('allow');
    expect((await judge('rm', denyRm, 'auto')).decision).toBe('deny');
    const shell = await analyseShellCommand('git -c color.ui=never -C sub push');
    expect(shell).toMatchObject({ commands: [{ subcommandAt: 5 }], unknowable: [] });
  });

  it("an allow rule `Bash(x *)` (Claude's `Bash(x:*)`) also covers a bare `x`, and only whole words", async () => {
    const allow: PermissionRule[] = [{ decision: 'allow', pattern: 'Bash(git status:*)' }];
    expect(await judge('git status', allow)).toMatchObject({ decision: 'allow', by: 'rule allow Bash(git status:*)' });
    expect((await judge('git status --short', allow)).decision).toBe('allow');
    expect((await judge('git statusx', allow)).decision).toBe('ask');
    expect((await judge('git status && git push', allow)).decision).toBe('ask');
    const echo: PermissionRule[] = [{ decision: 'allow', pattern: 'Bash(echo *)' }];
    expect((await judge('echo', echo)).decision).toBe('allow');
    expect((await judge('echoer', echo)).decision).toBe('ask');
  });

  it('names what git would run: the config key, the option, the variable', async () => {
    const allowGit: PermissionRule[] = [{ decision: 'allow', pattern: 'Bash(git *)' }];
    expect((await judge("git -c core.pager='less -R' log", allowGit)).reason).toBe(
      'git -c core.pager (git config that can make git run a program), which allow rules never cover',
    );
    const fetch = await judge("git fetch --upload-pack='x' origin", allowGit);
    expect(fetch.reason).toMatch(/^git fetch --upload-pack=x \(an option that runs a program\)/);
    expect((await judge("git -c alias.x='!rm -f y' x", denyRm, 'auto')).reason).toContain('it runs rm -f y');
    expect((await judge('git -c user.name=me commit -m x', allowGit)).decision).toBe('allow');
  });

  it('shellAnalysisFor parses Bash subjects only', async () => {
    expect(await shellAnalysisFor('Read', 'Read(/repo/a)')).toBeUndefined();
    expect((await shellAnalysisFor('Bash', 'Bash(a | b)'))?.commands.map((c) => c.program)).toEqual(['a', 'b']);
  });
});
