import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentProfile } from '../../../src/ext/agents/agentFile';
import { SkillCatalog } from '../../../src/ext/skills/skillCatalog';
import type { Skill } from '../../../src/ext/skills/skillFile';
import { parseSkillCommand } from '../../../src/engine/delegation/skills';
import { Session } from '../../../src/engine/session/session';
import { builtinTools } from '../../../src/tools/registry';
import { makeEngine, runPrompt, testTools, verifyEnginesAfterEach } from '../../helpers/engineHarness';
import { skillTools } from '../../../src/tools/skill';

verifyEnginesAfterEach();

function skill(name: string, extra: Partial<Skill> = {}): Skill {
  return {
    name,
    description: `does ${name}`,
    type: 'prompt',
    disableModelInvocation: false,
    arguments: [],
    body: `Steps of ${name}: $ARGUMENTS`,
    dir: `/s/${name}`,
    path: `/s/${name}/SKILL.md`,
    source: 'user',
    ...extra,
  };
}

const catalog = new SkillCatalog([
  skill('commit'),
  skill('inline-one', { type: 'inline' }),
  skill('manual', { disableModelInvocation: true }),
  skill('flowchart', { type: 'flow' }),
  skill('nest'),
]);

describe('Skill tool (SPEC §6.10)', () => {
  it('loads a skill with its arguments filled; refuses disableModelInvocation, flow and unknown skills', async () => {
    const h = makeEngine({
      tools: skillTools,
      skills: catalog,
      responses: [
        {
          toolCalls: [
            { name: 'Skill', arguments: { skill: 'Commit', args: 'fix login' } },
            { name: 'Skill', arguments: { skill: 'manual' } },
            { name: 'Skill', arguments: { skill: 'flowchart' } },
            { name: 'Skill', arguments: { skill: 'nope' } },
          ],
        },
        { text: 'done' },
      ],
    });
    await runPrompt(h, 'commit please');
    const results = h.eventsOf('tool_result');
    expect(results[0]).toMatchObject({ isError: false, text: expect.stringContaining('Steps of commit: fix login') });
    expect(results[0].text).toMatch(/^<skill name="commit" path="\/s\/commit\/SKILL.md">/);
    expect(results[1]).toMatchObject({ isError: true, text: expect.stringContaining('disableModelInvocation') });
    expect(results[2]).toMatchObject({ isError: true, text: expect.stringContaining('a flow skill') });
    expect(results[3]).toMatchObject({ isError: true, text: expect.stringContaining('There is no skill "nope"') });
  });

  // A chain: each skill's instructions name the next one (docs/skills-and-agents.md, "Skills loading skills").
  const chain = new SkillCatalog([
    skill('commit', { body: 'Commit. Then load the skill chain-a.' }),
    skill('chain-a', { body: 'First load chain-b.' }),
    skill('chain-b', { body: 'Then use the chain-c skill.' }),
    skill('chain-c', { body: 'Finish with superpowers:chain-d.' }),
    skill('chain-d', { body: 'The end.' }),
    ...['one', 'two', 'three', 'four', 'five', 'six'].map((n) => skill(`seq-${n}`, { body: `Step ${n}.` })),
  ]);
  const load = (name: string) => ({ toolCalls: [{ name: 'Skill', arguments: { skill: name } }] });

  it('a chain of skills naming each other stops at the 4th level; loads in sequence have no limit', async () => {
    const seq = ['one', 'two', 'three', 'four', 'five', 'six'].map((n) => load(`seq-${n}`));
    const h = makeEngine({
      tools: skillTools,
      skills: chain,
      responses: [
        ...seq,
        { text: 'six loaded' },
        ...['a', 'b', 'c', 'd'].map((n) => load(`chain-${n}`)),
        { text: 'ok' },
      ],
    });
    await runPrompt(h, 'go');
    expect(h.eventsOf('tool_result').map((r) => r.isError)).toEqual([false, false, false, false, false, false]);
    await runPrompt(h, 'the chain');
    const results = h.eventsOf('tool_result').slice(6);
    expect(results.slice(0, 3).every((r) => !r.isError)).toBe(true);
    expect(results[3]).toMatchObject({
      isError: true,
      text: expect.stringContaining('level 4 (chain-a → chain-b → chain-c → chain-d)'),
    });
  });

  it('a turn started by /skill: holds that skill at the first level; the next turn starts again', async () => {
    const h = makeEngine({
      tools: skillTools,
      skills: chain,
      responses: [load('chain-a'), load('chain-b'), load('chain-c'), { text: 'ok' }, load('chain-c'), { text: 'x' }],
    });
    const command = parseSkillCommand('/skill:commit now', chain, () => false);
    expect(command?.ok).toBe(true);
    h.runtime.agent.submit({
      kind: 'prompt',
      text: '/skill:commit now',
      content: [{ type: 'text', text: command!.ok ? command!.text : '' }],
    });
    await h.runtime.agent.idle();
    expect(h.eventsOf('tool_result').map((r) => r.isError)).toEqual([false, false, true]);
    await runPrompt(h, 'again');
    expect(h.eventsOf('tool_result')[3].isError).toBe(false);
  });

  it('several /skill: lines in one prompt load each skill with its own arguments; other lines follow', () => {
    const several = parseSkillCommand('/skill:seq-one a b\nplease do both\n/skill:seq-two c', chain, () => false);
    expect(several?.ok).toBe(true);
    const text = several!.ok ? several!.text : '';
    expect(text.indexOf('<skill name="seq-one"')).toBeLessThan(text.indexOf('<skill name="seq-two"'));
    expect(text).toContain('Step one.\n\nARGUMENTS: a b');
    expect(text).toContain('Step two.\n\nARGUMENTS: c');
    expect(text.endsWith('please do both')).toBe(true);
    expect(parseSkillCommand('/skill:seq-one\n/skill:nope', chain, () => false)).toMatchObject({
      ok: false,
      message: expect.stringContaining('There is no skill "nope"'),
    });
  });

  it('${skills} lists only the skills the model may load; without any the Skill tool is not offered', () => {
    const h = makeEngine({ tools: builtinTools(), skills: catalog, responses: [] });
    const prompt = h.runtime.session.state.systemPrompt!;
    expect(prompt).toContain('# Skills');
    expect(prompt).toContain('- commit: does commit');
    expect(prompt).toContain('- inline-one: does inline-one');
    expect(prompt).not.toContain('manual');
    expect(prompt).not.toContain('flowchart');
    expect(h.runtime.agent.tools.map((t) => t.name)).toContain('Skill');
    const bare = makeEngine({ tools: builtinTools(), responses: [] });
    expect(bare.runtime.agent.tools.map((t) => t.name)).not.toContain('Skill');
    expect(bare.runtime.session.state.systemPrompt).not.toContain('# Skills');
  });
});

describe('/skill: commands', () => {
  it('/skill:<name> and the /<name> shorthand (only when no command has that name)', () => {
    const isCommand = (n: string) => n === 'commit' || n === 'help';
    expect(parseSkillCommand('/skill:commit "fix login" patch', catalog, isCommand)).toMatchObject({
      ok: true,
      args: '"fix login" patch',
    });
    expect(parseSkillCommand('/commit x', catalog, isCommand)).toBeUndefined();
    expect(parseSkillCommand('/nest deeper', catalog, isCommand)).toMatchObject({
      ok: true,
      skill: { name: 'nest' },
      text: expect.stringContaining('Steps of nest: deeper'),
    });
    expect(parseSkillCommand('/unknown', catalog, isCommand)).toBeUndefined();
    expect(parseSkillCommand('plain text', catalog, isCommand)).toBeUndefined();
    expect(parseSkillCommand('/skill:unknown', catalog, isCommand)).toMatchObject({
      ok: false,
      message: expect.stringContaining('Available skills: commit'),
    });
    // Manual-only skills are what the user's command is for.
    expect(parseSkillCommand('/skill:manual', catalog, isCommand)).toMatchObject({ ok: true });
  });
});

describe('custom main agent (SPEC §9.2)', () => {
  const profile: AgentProfile = {
    name: 'reviewer',
    description: 'Reviews',
    override: false,
    tools: ['Poke', 'Peek', 'Missing'],
    disallowedTools: ['Poke'],
    prompt: 'You review ${cwd} on ${os}. ${unknown_var} costs $5.\n---\n${base_prompt}',
    source: 'project',
  };

  it('offers exactly its tools, renders its template, records both, and a resume keeps them', async () => {
    const h = makeEngine({ tools: testTools(), agentProfile: profile, responses: [{ text: 'looks fine' }] });
    expect(h.runtime.agent.tools.map((t) => t.name)).toEqual(['Peek']);
    expect(h.runtime.warnings.join('\n')).toContain('no tool named Missing');
    const prompt = h.runtime.session.state.systemPrompt!;
    expect(prompt).toMatch(new RegExp(`^You review ${h.cwd.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} on \\S+`));
    expect(prompt).toContain('${unknown_var} costs $5.');
    expect(prompt).toContain('# How to work');
    await runPrompt(h, 'review');
    expect(h.client.requests[0].tools.map((t) => t.name)).toEqual(['Peek']);
    expect(h.runtime.session.state).toMatchObject({ agentName: 'reviewer', agentTools: ['Peek'] });
    const resumed = makeEngine({
      tools: testTools(),
      responses: [{ text: 'again' }],
      resume: h.runtime.session.location,
      dirs: { home: h.home, cwd: h.cwd },
    });
    expect(resumed.runtime.agent.tools.map((t) => t.name)).toEqual(['Peek']);
    expect(Session.open(h.runtime.session.location).state.agentName).toBe('reviewer');
  });

  it('tools: [] offers no tools at all', () => {
    const h = makeEngine({
      tools: testTools(),
      agentProfile: { ...profile, tools: [], disallowedTools: [] },
      responses: [],
    });
    expect(h.runtime.agent.tools).toEqual([]);
  });

  it('SYSTEM.md replaces the built-in main prompt and a user-folder `agent` file, but not a project override or another agent', () => {
    const first = makeEngine({ tools: testTools(), responses: [] });
    writeFileSync(join(first.home, 'SYSTEM.md'), 'From SYSTEM.md in ${cwd}');
    const dirs = { home: first.home, cwd: first.cwd };
    const builtin = makeEngine({ tools: testTools(), responses: [], dirs });
    expect(builtin.runtime.session.state.systemPrompt).toBe(`From SYSTEM.md in ${first.cwd}`);
    const userMain: AgentProfile = {
      name: 'agent',
      description: 'mine',
      override: true,
      tools: '*',
      disallowedTools: [],
      prompt: 'User file prompt',
      source: 'user',
    };
    expect(
      makeEngine({ tools: testTools(), responses: [], dirs, agentProfile: userMain }).runtime.session.state
        .systemPrompt,
    ).toBe(`From SYSTEM.md in ${first.cwd}`);
    expect(
      makeEngine({ tools: testTools(), responses: [], dirs, agentProfile: { ...userMain, source: 'project' } }).runtime
        .session.state.systemPrompt,
    ).toBe('User file prompt');
    expect(
      makeEngine({ tools: testTools(), responses: [], dirs, agentProfile: profile }).runtime.session.state.systemPrompt,
    ).toMatch(/^You review/);
  });
});
