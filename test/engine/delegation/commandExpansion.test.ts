// A command's `allowed-tools` as a pre-approval, and its `!`cmd` lines run for the user (docs/approvals.md,
// "Pre-approved by a command or skill"; docs/plugins.md, "Claude Code plugins"): scoped to the command's turn,
// never over a deny rule, never for an unsandboxed call; each `!`cmd` replaced by its output or a refusal.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareCommandPrompt } from '../../../src/engine/delegation/commandExpansion';
import { decideApproval, type PolicyInput } from '../../../src/engine/policy/approvals';
import { preApprovalRules } from '../../../src/engine/policy/preApproval';
import { shellAnalysisFor } from '../../../src/engine/policy/approvals';
import { SkillCatalog } from '../../../src/ext/skills/skillCatalog';
import { bashTool } from '../../../src/tools/shell';
import { skillTools } from '../../../src/tools/skill';
import { makeEngine, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const FILE = '/plugins/devflow/commands/commit.md';

function rules(patterns: string[]) {
  const warnings: string[] = [];
  return { rules: preApprovalRules(patterns, FILE, (w) => warnings.push(w)), warnings };
}

async function decide(command: string, extra: Partial<PolicyInput>) {
  const subject = `Bash(${command})`;
  return decideApproval({
    toolName: 'Bash',
    subject,
    accesses: [{ kind: 'exec', cwd: '/repo' }],
    defaultApproval: 'ask',
    mode: 'manual',
    rules: [],
    sessionApprovals: [],
    cwd: '/repo',
    workspace: { roots: ['/repo'], readOnly: [] },
    isSensitivePath: () => false,
    shell: await shellAnalysisFor('Bash', subject),
    ...extra,
  });
}

describe('allowed-tools as a pre-approval (policy)', () => {
  it('allows what it names in manual mode, and nothing else', async () => {
    const { rules: preApproved } = rules(['Bash(git status:*)', 'Bash(git diff:*)']);
    expect(await decide('git status --short', { preApproved })).toMatchObject({
      decision: 'allow',
      by: `rule allow Bash(git status:*) (allowed-tools of ${FILE})`,
    });
    expect((await decide('git push', { preApproved })).decision).toBe('ask');
    // A compound line is covered only when every command in it is.
    expect((await decide('git status && rm -rf x', { preApproved })).decision).toBe('ask');
  });

  it('never overrides a deny rule or an ask rule', async () => {
    const { rules: preApproved } = rules(['Bash(git status:*)']);
    const deny = [{ decision: 'deny' as const, pattern: 'Bash(git status *)', source: 'config.toml:3' }];
    expect(await decide('git status', { preApproved, rules: deny })).toMatchObject({ decision: 'deny' });
    const ask = [{ decision: 'ask' as const, pattern: 'Bash(git status *)' }];
    expect((await decide('git status', { preApproved, rules: ask })).decision).toBe('ask');
  });

  it('never allows a call outside the sandbox (dangerously_unsandboxed)', async () => {
    const { rules: preApproved } = rules(['Bash(git status:*)']);
    expect(
      (await decide('git status', { preApproved, boundary: { confinement: 'unsandboxed', escalation: true } }))
        .decision,
    ).toBe('ask');
  });

  it('a pattern that does not parse grants nothing and is a warning naming the file', () => {
    const { rules: got, warnings } = rules(['Bash(git status:*', 'Frobnicate(x)', '*', 'WebFetch(domain:a.test)']);
    expect(got.map((r) => r.pattern)).toEqual(['WebFetch(domain:a.test)']);
    expect(warnings).toEqual([
      `${FILE}: allowed-tools "Bash(git status:*" is not a permission pattern ` +
        '(expected Tool or Tool(argument-glob)); it pre-approves nothing',
      `${FILE}: allowed-tools "Frobnicate(x)" names no tool called Frobnicate; it pre-approves nothing`,
      `${FILE}: allowed-tools "*" names every tool, which a pre-approval may not; it pre-approves nothing`,
    ]);
  });
});

describe('allowed-tools as a pre-approval (turn scope)', () => {
  it("holds for the command's own turn only: the next turn asks again", async () => {
    const h = makeEngine({
      tools: [bashTool],
      answer: () => ({ decision: 'reject', feedback: 'not now' }),
      responses: [
        { toolCalls: [{ id: 'a', name: 'Bash', arguments: { command: 'echo granted' } }] },
        { text: 'one' },
        { toolCalls: [{ id: 'b', name: 'Bash', arguments: { command: 'echo granted' } }] },
        { text: 'two' },
      ],
    });
    const { rules: preApproved } = rules(['Bash(echo:*)']);
    const first = await h.runtime.agent.run('/devflow:commit', { preApproved });
    expect(first.reason).toBe('completed');
    expect(h.approvals).toEqual([]);
    await h.runtime.agent.run('again');
    expect(h.approvals.map((a) => a.subject)).toEqual(['Bash(echo granted)']);
    const results = h.runtime.session.state.messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => (m.role === 'tool' ? m.content[0] : undefined))).toEqual([
      { type: 'text', text: expect.stringContaining('granted') },
      { type: 'text', text: 'The user rejected this call and said: not now' },
    ]);
  });
});

describe('allowed-tools of a skill the model loads', () => {
  it('pre-approves from the load to the end of that turn only', async () => {
    const catalog = new SkillCatalog([
      {
        name: 'echoer',
        description: 'echoes',
        type: 'prompt',
        disableModelInvocation: false,
        arguments: [],
        allowedTools: ['Bash(echo:*)'],
        body: 'Echo things.',
        dir: '/s/echoer',
        path: '/s/echoer/SKILL.md',
        source: 'user',
      },
    ]);
    const echo = (id: string) => ({ toolCalls: [{ id, name: 'Bash', arguments: { command: `echo ${id}` } }] });
    const h = makeEngine({
      tools: [bashTool, ...skillTools],
      skills: catalog,
      answer: () => ({ decision: 'reject', feedback: 'no' }),
      responses: [
        echo('before'),
        { toolCalls: [{ id: 'load', name: 'Skill', arguments: { skill: 'echoer' } }] },
        echo('after'),
        { text: 'one' },
        echo('next'),
        { text: 'two' },
      ],
    });
    await h.runtime.agent.run('first');
    await h.runtime.agent.run('second');
    expect(h.approvals.map((a) => a.subject)).toEqual(['Bash(echo before)', 'Bash(echo next)']);
    const decisions = h.eventsOf('approval_decision').filter((e) => e.subject === 'Bash(echo after)');
    expect(decisions).toMatchObject([
      { decision: 'allow', by: 'rule allow Bash(echo:*) (allowed-tools of /s/echoer/SKILL.md)' },
    ]);
  });
});

describe('!`cmd` lines run before sending', () => {
  it('replaces each by its output, in order; pre-approved ones do not ask; a declined one says so', async () => {
    const h = makeEngine({ tools: [bashTool], answer: () => ({ decision: 'reject' }), responses: [] });
    writeFileSync(join(h.cwd, 'notes.txt'), 'NOTE-CONTENT\n');
    const ready = await prepareCommandPrompt(
      h.runtime.agent,
      {
        text: 'Notes: !`cat notes.txt`\nFail: !`ls missing-file`\nAsk: !`touch asked`',
        allowedTools: ['Bash(cat:*)', 'Bash(ls:*)'],
        path: FILE,
        runBangs: true,
      },
      { warn: (w) => expect.fail(w) },
    );
    const [notes, fail, ask] = ready.text.split('\n').reduce<string[]>((acc, line) => {
      if (/^(Notes|Fail|Ask):/.test(line)) acc.push(line);
      else acc[acc.length - 1] += `\n${line}`;
      return acc;
    }, []);
    expect(notes).toContain('NOTE-CONTENT');
    expect(fail).toContain('[!`ls missing-file` failed]');
    expect(fail).toMatch(/Exit code: [12]\n.*missing-file/s);
    expect(ask).toBe('Ask: [!`touch asked` was not run: the user declined it]');
    expect(h.approvals.map((a) => a.subject)).toEqual(['Bash(touch asked)']);
    expect(existsSync(join(h.cwd, 'asked'))).toBe(false);
    // Not a message of the conversation: the journal says what ran, for the user, as notices.
    expect(h.runtime.session.state.messages).toEqual([]);
    expect(ready.preApproved.map((r) => r.pattern)).toEqual(['Bash(cat:*)', 'Bash(ls:*)']);
  });

  it('a command a deny rule matches is never run and is replaced by the refusal', async () => {
    const h = makeEngine({
      tools: [bashTool],
      mode: 'auto',
      rules: [{ decision: 'deny', pattern: 'Bash(touch *)', source: 'config.toml:7' }],
      responses: [],
    });
    const ready = await prepareCommandPrompt(
      h.runtime.agent,
      { text: 'X !`touch canary` Y', allowedTools: ['Bash(touch:*)'], path: FILE, runBangs: true },
      { warn: (w) => expect.fail(w) },
    );
    expect(ready.text).toBe('X [!`touch canary` was not run: denied by rule deny Bash(touch *) (config.toml:7)] Y');
    expect(existsSync(join(h.cwd, 'canary'))).toBe(false);
  });
});
