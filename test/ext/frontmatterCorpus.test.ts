// Frontmatter shapes as real agent and skill files write them (Claude Code plugins, VoltAgent / wshobson
// collections, opencode agents, superpowers skills), written here in those shapes: each file is read, or
// refused with the field named (docs/skills-and-agents.md, "Frontmatter").
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAgentFile } from '../../src/ext/agents/agentFile';
import { parseSkillFile } from '../../src/ext/skills/skillFile';
import { putFile as put, tempDir } from '../helpers/files';

const EXAMPLES = `Use this agent when the user asks to "review code". Examples:

<example>
Context: The user has just written a new function.
user: "Please check my parser: does it handle CRLF?"
assistant: "I'll use the code-reviewer agent to review it."
<commentary>
New code: trigger review.
</commentary>
</example>`;

type Want =
  | { kind: 'agent' | 'skill'; agent?: Record<string, unknown>; skill?: Record<string, unknown>; warn?: RegExp }
  | { kind: 'agent' | 'skill'; refused: RegExp };

const fm = (lines: string, body = 'You do the job.') => `---\n${lines}\n---\n${body}`;

const CORPUS: [string, string, Want][] = [
  [
    'claude plugin agent, one-line description, comma tools',
    fm(
      'name: code-reviewer\ndescription: Reviews code for bugs\ntools: Glob, Grep, LS, Read, NotebookRead, ' +
        'WebFetch, TodoWrite, WebSearch, KillShell, BashOutput\nmodel: sonnet\ncolor: red',
    ),
    {
      kind: 'agent',
      agent: {
        name: 'code-reviewer',
        tools: ['Glob', 'Grep', 'Glob', 'Read', 'Read', 'FetchURL', 'TodoList', 'WebSearch', 'TaskStop', 'TaskOutput'],
      },
    },
  ],
  [
    'description with <example> blocks and unquoted colons',
    fm(`name: agent-creator\ndescription: ${EXAMPLES}\nmodel: inherit\ncolor: magenta\ntools: ["Write", "Read"]`),
    {
      kind: 'agent',
      agent: {
        name: 'agent-creator',
        tools: ['Write', 'Read'],
        description: expect.stringContaining('user: "Please check my parser: does it handle CRLF?"'),
      },
    },
  ],
  [
    'example blocks then fields after them',
    fm(`description: ${EXAMPLES}\nname: late-name`),
    { kind: 'agent', agent: { name: 'late-name' } },
  ],
  [
    'unquoted colon in a one-line description',
    fm('name: a\ndescription: Expert in X. Use for: audits, reviews'),
    { kind: 'agent', agent: { description: 'Expert in X. Use for: audits, reviews' } },
  ],
  [
    'quoted description with colon',
    fm('name: a\ndescription: "Use when: the tests fail"'),
    { kind: 'agent', agent: { description: 'Use when: the tests fail' } },
  ],
  [
    'single-quoted description',
    fm("name: a\ndescription: 'It''s a reviewer'"),
    { kind: 'agent', agent: { description: "It's a reviewer" } },
  ],
  [
    'folded block description',
    fm('name: a\ndescription: >\n  Line one\n  line two'),
    { kind: 'agent', agent: { description: 'Line one line two' } },
  ],
  [
    'literal block description',
    fm('name: a\ndescription: |\n  First\n  Second'),
    { kind: 'agent', agent: { description: 'First\nSecond' } },
  ],
  [
    'CRLF line ends',
    fm('name: crlf\r\ndescription: d\r\ntools: Read').replace(/\n/g, '\r\n'),
    { kind: 'agent', agent: { name: 'crlf', tools: ['Read'] } },
  ],
  ['byte-order mark', `\uFEFF${fm('name: bom\ndescription: d')}`, { kind: 'agent', agent: { name: 'bom' } }],
  [
    'tab-indented list',
    fm('name: a\ndescription: d\ntools:\n\t- Read\n\t- Grep'),
    { kind: 'agent', agent: { tools: ['Read', 'Grep'] } },
  ],
  [
    'trailing spaces everywhere',
    fm('name: a   \ndescription: d   \ntools: Read, Grep   '),
    { kind: 'agent', agent: { name: 'a', tools: ['Read', 'Grep'] } },
  ],
  [
    'closing --- with trailing spaces',
    '---\nname: a\ndescription: d\n---   \nbody',
    { kind: 'agent', agent: { name: 'a' } },
  ],
  [
    'tools as a YAML block list',
    fm('name: a\ndescription: d\ntools:\n  - Bash\n  - Edit\n  - MultiEdit'),
    { kind: 'agent', agent: { tools: ['Bash', 'Edit', 'Edit'] } },
  ],
  [
    'tools as a flow list of lowercase opencode names',
    fm('name: a\ndescription: d\ntools: [bash, read, edit, write, grep, glob, webfetch, todowrite]'),
    { kind: 'agent', agent: { tools: ['Bash', 'Read', 'Edit', 'Write', 'Grep', 'Glob', 'FetchURL', 'TodoList'] } },
  ],
  [
    'Task maps to Agent',
    fm('name: a\ndescription: d\ntools: Task, Read'),
    { kind: 'agent', agent: { tools: ['Agent', 'Read'] } },
  ],
  [
    'tools space-separated',
    fm('name: a\ndescription: d\ntools: Read Grep Glob'),
    { kind: 'agent', agent: { tools: ['Read', 'Grep', 'Glob'] } },
  ],
  ['tools "*"', fm('name: a\ndescription: d\ntools: "*"'), { kind: 'agent', agent: { tools: '*' } }],
  ['no tools line: everything', fm('name: a\ndescription: d'), { kind: 'agent', agent: { tools: '*' } }],
  [
    'unknown tool warned with the file',
    fm('name: a\ndescription: d\ntools: Read, FrobnicateTool'),
    {
      kind: 'agent',
      agent: { tools: ['Read', 'FrobnicateTool'] },
      warn: /:4: field "tools" names no tool called FrobnicateTool/,
    },
  ],
  [
    'MCP tool names are known',
    fm('name: a\ndescription: d\ntools: Read, mcp__github__create_issue'),
    { kind: 'agent', agent: { tools: ['Read', 'mcp__github__create_issue'] } },
  ],
  [
    'disallowedTools with Claude names',
    fm('name: a\ndescription: d\ndisallowedTools: WebFetch, KillShell'),
    { kind: 'agent', agent: { disallowedTools: ['FetchURL', 'TaskStop'] } },
  ],
  [
    'opencode tools map of switches',
    fm('description: d\nmode: subagent\ntools:\n  write: false\n  edit: false\n  webfetch: false\n  read: true'),
    { kind: 'agent', agent: { tools: '*', disallowedTools: ['Write', 'Edit', 'FetchURL'] } },
  ],
  [
    'opencode permission block and temperature ignored',
    fm(
      'description: Reviews\nmode: subagent\nmodel: anthropic/claude-sonnet-4\n' +
        'temperature: 0.1\npermission:\n  edit: deny\n  bash:\n    "git diff": allow',
    ),
    { kind: 'agent', agent: { description: 'Reviews' } },
  ],
  [
    'model: inherit and color',
    fm('name: a\ndescription: d\nmodel: inherit\ncolor: cyan'),
    { kind: 'agent', agent: { name: 'a' } },
  ],
  [
    'unknown fields',
    fm('name: a\ndescription: d\ncategory: quality\nversion: 1.2\nauthor: someone'),
    { kind: 'agent', agent: { name: 'a' } },
  ],
  [
    'dotted name',
    fm('name: dotnet-framework-4.8-expert\ndescription: d'),
    { kind: 'agent', agent: { name: 'dotnet-framework-4.8-expert' } },
  ],
  [
    'capitalised name with spaces',
    fm('name: Code Reviewer\ndescription: d'),
    { kind: 'agent', agent: { name: 'code-reviewer' }, warn: /agent name "Code Reviewer" is used as "code-reviewer"/ },
  ],
  [
    'snake_case name',
    fm('name: api_designer\ndescription: d'),
    { kind: 'agent', agent: { name: 'api-designer' }, warn: /is used as "api-designer"/ },
  ],
  ['no name: the file name', fm('description: d'), { kind: 'agent', agent: { name: 'corpus' } }],
  [
    'comment lines in frontmatter',
    fm('# generated\nname: a\n# tools below\ndescription: d'),
    { kind: 'agent', agent: { name: 'a' } },
  ],
  [
    'duplicate field in an invalid block',
    fm(`name: a\ndescription: ${EXAMPLES}\nname: b`),
    { kind: 'agent', agent: { name: 'a' }, warn: /:\d+: field "name" is given again/ },
  ],
  [
    'broken tools list dropped, file kept',
    fm(`name: a\ndescription: ${EXAMPLES}\ntools: [Read, Grep`),
    { kind: 'agent', agent: { name: 'a', tools: '*' }, warn: /:\d+: field "tools" is a list that cannot be read/ },
  ],
  [
    'override: maybe dropped with a warning',
    fm('name: a\ndescription: d\noverride: maybe'),
    { kind: 'agent', agent: { override: false }, warn: /:4: field "override" should be true or false/ },
  ],
  [
    'description given as a list is refused with the field',
    fm('name: a\ndescription:\n  - one\n  - two'),
    { kind: 'agent', refused: /needs a description .*field "description" should be text/ },
  ],
  ['no description at all', fm('name: a\ntools: Read'), { kind: 'agent', refused: /needs a description/ }],
  ['empty body', fm('name: a\ndescription: d', '\n\n'), { kind: 'agent', refused: /no body/ }],
  ['no closing ---', '---\nname: a\ndescription: d\nbody', { kind: 'agent', refused: /no closing ---/ }],
  ['name with nothing usable', fm('name: "???"\ndescription: d'), { kind: 'agent', refused: /field "name"/ }],
  [
    'garbage line before any field',
    fm(`just words here\nname: a\ndescription: ${EXAMPLES}`),
    { kind: 'agent', agent: { name: 'a' }, warn: /:2: line "just words here" is not a field/ },
  ],
  [
    'superpowers skill',
    fm('name: brainstorming\ndescription: Use when starting any creative work - refines ideas into designs'),
    { kind: 'skill', skill: { name: 'brainstorming' } },
  ],
  [
    'anthropics skill with license and metadata',
    fm(
      'name: pdf\ndescription: Comprehensive PDF toolkit\n' +
        'license: Proprietary. LICENSE.txt has complete terms\nmetadata:\n  version: 1.0',
    ),
    { kind: 'skill', skill: { name: 'pdf' } },
  ],
  [
    'skill allowed-tools as a comma string with rules',
    fm('name: s\ndescription: d\nallowed-tools: Read, Grep, Bash(git diff:*), WebFetch'),
    { kind: 'skill', skill: { allowedTools: ['Read', 'Grep', 'Bash(git diff:*)', 'FetchURL'] } },
  ],
  [
    'skill allowed-tools as a list, unknown warned',
    fm('name: s\ndescription: d\nallowed-tools:\n  - Read\n  - Teleport'),
    {
      kind: 'skill',
      skill: { allowedTools: ['Read', 'Teleport'] },
      warn: /field "allowed-tools" names no tool called Teleport/,
    },
  ],
  [
    'skill description with unquoted colon',
    fm('name: s\ndescription: Use when: tests fail in CI'),
    { kind: 'skill', skill: { description: 'Use when: tests fail in CI' } },
  ],
  [
    'skill disable-model-invocation kebab',
    fm('name: s\ndescription: d\ndisable-model-invocation: true\nargument-hint: [file]'),
    { kind: 'skill', skill: { disableModelInvocation: true } },
  ],
  [
    'skill arguments as a string',
    fm('name: s\ndescription: d\narguments: file mode'),
    { kind: 'skill', skill: { arguments: ['file', 'mode'] } },
  ],
  ['skill missing description', fm('name: s'), { kind: 'skill', refused: /needs description/ }],
  [
    'skill sub-skills opt-in',
    fm('name: s\ndescription: d\nsub-skills: true'),
    { kind: 'skill', skill: { subSkills: true } },
  ],
];

describe('frontmatter corpus (real files\u2019 shapes)', () => {
  it(`has at least 40 shapes (${CORPUS.length})`, () => expect(CORPUS.length).toBeGreaterThanOrEqual(40));

  it.each(CORPUS)('%s', async (_label, text, want) => {
    const d = tempDir('jarvis-corpus-');
    const parsed =
      want.kind === 'agent'
        ? await parseAgentFile(put(join(d, 'corpus.md'), text), 'project')
        : await parseSkillFile(put(join(d, 'corpus', 'SKILL.md'), text), 'dir', 'project');
    if ('refused' in want) {
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.message).toMatch(want.refused);
      return;
    }
    if (!parsed.ok) throw new Error(`refused: ${parsed.message}`);
    if (want.agent) expect('agent' in parsed && parsed.agent).toMatchObject(want.agent);
    if (want.skill) expect('skill' in parsed && parsed.skill).toMatchObject(want.skill);
    if (want.warn) expect(parsed.warnings.join('\n')).toMatch(want.warn);
    else expect(parsed.warnings).toEqual([]);
  });
});
