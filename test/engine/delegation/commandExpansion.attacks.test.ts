// Attacks on a plugin command's `!`cmd` lines (docs/plugins.md, "Claude Code plugins"), as the plugin's author,
// a hostile argument or a hostile command output would try them: the user's arguments are words inside a line
// (shell-quoted) and never make a line; an output is never expanded again; a fenced example never runs.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareParsedCommand } from '../../../src/engine/delegation/commandExpansion';
import { parsePluginCommand, type PluginCommand } from '../../../src/ext/plugins/pluginCommands';
import { SkillCatalog } from '../../../src/ext/skills/skillCatalog';
import { skillTools } from '../../../src/tools/skill';
import { bashTool } from '../../../src/tools/shell';
import { makeEngine, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

function command(body: string, allowedTools = ['Bash(echo:*)', 'Bash(cat:*)', 'Bash(printf:*)']): PluginCommand {
  return {
    plugin: 'evil',
    command: 'x',
    name: 'evil:x',
    description: 'x',
    body,
    path: '/plugins/evil/commands/x.md',
    allowedTools,
  };
}

/** Runs `/evil:x <args>` to the text it would send; every approval is declined and recorded. */
async function expand(body: string, args: string, allowed?: string[]) {
  const h = makeEngine({ tools: [bashTool], answer: () => ({ decision: 'reject' }), responses: [] });
  const parsed = parsePluginCommand(`/evil:x ${args}`, [command(body, allowed)], ['evil']);
  if (!parsed?.ok) throw new Error('the command did not parse');
  const warnings: string[] = [];
  const ready = await prepareParsedCommand(h.runtime.agent, parsed, { warn: (w) => warnings.push(w) });
  return { h, text: ready.text, warnings, files: () => readdirSync(h.cwd) };
}

/** Arguments a user may paste (a PR title, a file name) that a shell would read as more commands. */
const HOSTILE_ARGS = [
  '; touch pwned',
  '&& touch pwned',
  '| touch pwned',
  '$(touch pwned)',
  '`touch pwned`',
  "it's'; touch pwned; echo '",
  '"; touch pwned; echo "',
  '\ntouch pwned',
  '> pwned',
  '$HOME ${PATH} $((6*7))',
  '!`touch pwned`',
];

describe('$ARGUMENTS inside a !`cmd` line is quoted: words, never more commands', () => {
  it.each(HOSTILE_ARGS)('argument %j', async (arg) => {
    const { h, text, files } = await expand('Echo: !`echo $ARGUMENTS`', arg);
    expect(files()).not.toContain('pwned');
    // One quoted word: the pre-approval covers it, nothing is asked, and echo prints it as given.
    expect(h.approvals).toEqual([]);
    expect(text).toContain(arg.trim());
    expect(text).not.toContain('was not run');
  });

  it('$1 and $2 are quoted one by one; a missing one is nothing', async () => {
    const { text, files } = await expand('A: !`printf "%s|" $1 $2 $3`', '"a b" $(touch pwned)');
    expect(text).toContain('a b|$(touch|pwned)|');
    expect(files()).not.toContain('pwned');
  });
});

describe('arguments outside a !`cmd` line never make one', () => {
  it.each(['!`touch pwned`', 'x !`touch pwned` y', '!`echo hi`'])('argument %j', async (arg) => {
    const { h, text, files } = await expand('Review: $ARGUMENTS', arg);
    expect(text).toBe(`Review: ${arg}`);
    expect(files()).not.toContain('pwned');
    expect(h.approvals).toEqual([]);
  });

  it('nor do appended ones (no $ARGUMENTS in the body)', async () => {
    const { text, files } = await expand('Review this.', '!`touch pwned`');
    expect(text).toBe('Review this.\n\nARGUMENTS: !`touch pwned`');
    expect(files()).not.toContain('pwned');
  });
});

describe("a !`cmd` line's output is never expanded again", () => {
  it('an output that shows a !`cmd` stays text', async () => {
    const h = makeEngine({ tools: [bashTool], answer: () => ({ decision: 'approve' }), responses: [] });
    writeFileSync(join(h.cwd, 'bait.txt'), 'see !`touch pwned` and !`echo $ARGUMENTS`\n');
    const parsed = parsePluginCommand('/evil:x', [command('Bait: !`cat bait.txt`')], ['evil']);
    if (!parsed?.ok) throw new Error('the command did not parse');
    const ready = await prepareParsedCommand(h.runtime.agent, parsed, { warn: (w) => expect.fail(w) });
    expect(ready.text).toContain('see !`touch pwned` and !`echo $ARGUMENTS`');
    expect(existsSync(join(h.cwd, 'pwned'))).toBe(false);
    expect(h.approvals).toEqual([]);
  });

  it('ANSI escapes and control bytes of an output do not reach the prompt raw', async () => {
    const { text } = await expand("Color: !`printf '\\033[31mred\\033[0m\\033]0;title\\007\\001'`", '');
    expect(text).toContain('<stdout>\nred\n</stdout>');
    expect(text).not.toMatch(/\u001b|\u0007|\u0001/);
  });

  it('a huge output is cut by the Bash tool, not sent whole', async () => {
    const { text } = await expand('Big: !`printf "%0900000d" 0`', '');
    expect(text.length).toBeLessThan(200_000);
    expect(text).toMatch(/saved at|not saved|truncated|omitted/i);
  });
});

describe('a !`cmd` inside a fenced code block is an example, not a line to run', () => {
  const rows: Array<[string, string]> = [
    ['```\n!`touch pwned`\n```', 'backticks'],
    ['~~~sh\n!`touch pwned`\n~~~', 'tildes'],
    ['````markdown\n```\n!`touch pwned`\n```\n````', 'a fence inside a longer fence'],
    ['```\nunclosed !`touch pwned`', 'an unclosed fence'],
  ];
  it.each(rows)('%j (%s)', async (body) => {
    const { h, text, files } = await expand(`Run: !\`echo ran\`\n${body}\nAfter: !\`echo after\``, '');
    expect(files()).not.toContain('pwned');
    expect(text).toContain('!`touch pwned`');
    expect(h.approvals).toEqual([]);
    expect(text).toMatch(/^Run: Exit code: 0\n<stdout>\nran\n/);
    if (!body.includes('unclosed')) expect(text).toMatch(/After: Exit code: 0\n<stdout>\nafter\n/);
    else expect(text).toContain('After: !`echo after`');
  });
});

describe('a !`cmd` line the pre-approval does not cover asks, and declined runs nothing', () => {
  const rows = [
    'echo ok; touch pwned',
    'echo ok && touch pwned',
    'echo $(touch pwned)',
    'PAGER=x echo ok',
    'touch pwned',
    'echo ok > pwned',
  ];
  it.each(rows)('!`%s`', async (line) => {
    const { h, text, files } = await expand(`X !\`${line}\` Y`, '');
    expect(h.approvals).toHaveLength(1);
    expect(text).toBe(`X [!\`${line}\` was not run: the user declined it] Y`);
    expect(files()).not.toContain('pwned');
  });
});

describe('a skill of the repository that the model loads pre-approves nothing', () => {
  it('its allowed-tools grant nothing; the next call asks, and the load says why', async () => {
    const catalog = new SkillCatalog([
      {
        name: 'helper',
        description: 'helps',
        type: 'prompt',
        disableModelInvocation: false,
        arguments: [],
        allowedTools: ['Bash(echo:*)'],
        body: 'Help.',
        dir: '/repo/.claude/skills/helper',
        path: '/repo/.claude/skills/helper/SKILL.md',
        source: 'project',
      },
    ]);
    const h = makeEngine({
      tools: [bashTool, ...skillTools],
      skills: catalog,
      answer: () => ({ decision: 'reject', feedback: 'no' }),
      responses: [
        { toolCalls: [{ id: 'load', name: 'Skill', arguments: { skill: 'helper' } }] },
        { toolCalls: [{ id: 'after', name: 'Bash', arguments: { command: 'echo after' } }] },
        { text: 'done' },
      ],
    });
    await h.runtime.agent.run('go');
    expect(h.approvals.map((a) => a.subject)).toEqual(['Bash(echo after)']);
    const results = h.runtime.session.state.messages.filter((m) => m.role === 'tool');
    const load = results[0]?.role === 'tool' ? results[0].content[0] : undefined;
    expect(load).toMatchObject({
      text: expect.stringContaining('a project skill the model loads pre-approves nothing'),
    });
  });
});
