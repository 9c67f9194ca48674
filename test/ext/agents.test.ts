import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentRoots, AgentFileError, loadAgentCatalog, selectTools } from '../../src/ext/agents/agentCatalog';
import { parseAgentFile } from '../../src/ext/agents/agentFile';
import { putFile as put, tempDir as makeTempDir } from '../helpers/files';

const tempDir = () => makeTempDir('jarvis-agents-');

describe('agent files (SPEC §9.2)', () => {
  it('a name is normalised to kebab-case (dots kept); a missing name is the file name; description needed', async () => {
    const d = tempDir();
    const odd = await parseAgentFile(put(join(d, 'a.md'), '---\nname: Code_Reviewer\ndescription: x\n---\nb'), 'user');
    expect(odd).toMatchObject({ ok: true, agent: { name: 'code-reviewer' } });
    expect(odd.ok && odd.warnings).toEqual([
      `${join(d, 'a.md')}:2: agent name "Code_Reviewer" is used as "code-reviewer"`,
    ]);
    expect(
      await parseAgentFile(
        put(join(d, 'n.md'), '---\nname: dotnet-framework-4.8-expert\ndescription: x\n---\nb'),
        'user',
      ),
    ).toMatchObject({ ok: true, agent: { name: 'dotnet-framework-4.8-expert' } });
    expect(
      await parseAgentFile(put(join(d, 'e.md'), '---\nname: "!!!"\ndescription: x\n---\nb'), 'user'),
    ).toMatchObject({
      ok: false,
      message: expect.stringContaining('field "name"'),
    });
    expect(await parseAgentFile(put(join(d, 'empty.md'), '---\ndescription: x\n---\n  \n'), 'user')).toMatchObject({
      ok: false,
      message: expect.stringContaining('the agent file has no body'),
    });
    const named = await parseAgentFile(
      put(join(d, 'code-reviewer.md'), '---\ndescription: Reviews code\n---\nYou review code in ${cwd}.'),
      'user',
    );
    expect(named.ok && named.agent).toMatchObject({
      name: 'code-reviewer',
      description: 'Reviews code',
      prompt: 'You review code in ${cwd}.',
      tools: '*',
      override: false,
    });
    expect(await parseAgentFile(put(join(d, 'b.md'), '---\nname: b\n---\nbody'), 'user')).toMatchObject({
      ok: false,
      message: expect.stringContaining('needs a description'),
    });
  });

  it('tools: a list, a comma string, `*` or []; disallowedTools applies after; subagents likewise', async () => {
    const d = tempDir();
    const list = await parseAgentFile(
      put(
        join(d, 'l.md'),
        '---\ndescription: d\ntools: [Read, Grep, Bash]\ndisallowedTools: Bash\nsubagents: ["*"]\n---\nb',
      ),
      'user',
    );
    expect(list.ok && list.agent).toMatchObject({
      tools: ['Read', 'Grep', 'Bash'],
      disallowedTools: ['Bash'],
      subagents: '*',
    });
    const comma = await parseAgentFile(
      put(join(d, 'c.md'), '---\ndescription: d\ntools: Read, Glob\nsubagents: explore\n---\nb'),
      'user',
    );
    expect(comma.ok && comma.agent).toMatchObject({ tools: ['Read', 'Glob'], subagents: ['explore'] });
    const none = await parseAgentFile(put(join(d, 'n.md'), '---\ndescription: d\ntools: []\n---\nb'), 'user');
    expect(none.ok && none.agent.tools).toEqual([]);
    const star = await parseAgentFile(put(join(d, 's.md'), '---\ndescription: d\ntools: "*"\n---\nb'), 'user');
    expect(star.ok && star.agent.tools).toBe('*');

    const available = ['Read', 'Write', 'Grep', 'Glob', 'Bash'];
    expect(selectTools({ tools: [], disallowedTools: [] }, available).names).toEqual([]);
    expect(selectTools({ tools: '*', disallowedTools: ['bash'] }, available).names).toEqual([
      'Read',
      'Write',
      'Grep',
      'Glob',
    ]);
    expect(selectTools({ tools: ['grep', 'Read', 'Bash', 'Nope'], disallowedTools: ['Bash'] }, available)).toEqual({
      names: ['Grep', 'Read'],
      unknown: ['Nope'],
    });
  });

  it('loads agent files written for Claude Code and opencode (unknown fields ignored)', async () => {
    const d = tempDir();
    const claude = await parseAgentFile(
      put(
        join(d, 'reviewer.md'),
        '---\nname: reviewer\ndescription: Expert code reviewer.\ntools: Read, Grep, Glob, Bash\nmodel: sonnet\ncolor: blue\n---\nYou are a senior reviewer.',
      ),
      'project',
    );
    expect(claude.ok && claude.agent).toMatchObject({
      name: 'reviewer',
      tools: ['Read', 'Grep', 'Glob', 'Bash'],
      prompt: 'You are a senior reviewer.',
    });
    const opencode = await parseAgentFile(
      put(
        join(d, 'docs-writer.md'),
        '---\ndescription: Writes docs\nmode: subagent\ntemperature: 0.1\ntools:\n  write: false\n  bash: false\n  read: true\n---\nWrite documentation.',
      ),
      'project',
    );
    expect(opencode.ok && opencode.agent).toMatchObject({
      name: 'docs-writer',
      tools: '*',
      disallowedTools: ['Write', 'Bash'],
    });
    expect(opencode.ok && selectTools(opencode.agent, ['Read', 'Write', 'Bash']).names).toEqual(['Read']);
  });
});

describe('agent discovery and priority', () => {
  function layout() {
    const root = tempDir();
    const home = join(root, 'home');
    const cwd = join(root, 'repo');
    const osHome = join(root, 'os-home');
    mkdirSync(join(cwd, '.git'), { recursive: true });
    const agent = (path: string, description: string, extra = '') =>
      put(path, `---\ndescription: ${description}\n${extra}---\nprompt of ${description}`);
    return { root, home, cwd, env: { HOME: osHome }, osHome, agent };
  }

  it('explicit > project > extra > user > built-in; folders are searched recursively', async () => {
    const l = layout();
    l.agent(join(l.home, 'agents/review.md'), 'user-review');
    l.agent(join(l.cwd, '.jarvis-code/agents/team/review.md'), 'project-review');
    l.agent(join(l.root, 'extra/deploy.md'), 'extra-deploy');
    l.agent(join(l.home, 'agents/deploy.md'), 'user-deploy');
    l.agent(join(l.osHome, '.agents/agents/nested/deep/docs.md'), 'cross-docs');
    l.agent(join(l.cwd, '.agents/agents/lint.md'), 'project-agents-lint');
    const explicit = l.agent(join(l.root, 'mine/review.md'), 'explicit-review');
    const catalog = await loadAgentCatalog(
      agentRoots({ home: l.home, cwd: l.cwd, env: l.env, extraDirs: [join(l.root, 'extra')] }),
      explicit,
    );
    expect(catalog.get('review')?.description).toBe('explicit-review');
    expect(catalog.explicit?.name).toBe('review');
    expect(catalog.get('deploy')?.description).toBe('extra-deploy');
    expect(catalog.get('docs')?.description).toBe('cross-docs');
    expect(catalog.get('lint')?.source).toBe('project');
    const withoutExplicit = await loadAgentCatalog(agentRoots({ home: l.home, cwd: l.cwd, env: l.env }));
    expect(withoutExplicit.get('review')?.description).toBe('project-review');
    expect(withoutExplicit.get('deploy')?.description).toBe('user-deploy');
    expect(withoutExplicit.names).toEqual(expect.arrayContaining(['agent', 'coder', 'explore', 'plan']));
  });

  it('a file named like a built-in replaces it only with override: true; --agent-file always does', async () => {
    const l = layout();
    l.agent(join(l.cwd, '.jarvis-code/agents/coder.md'), 'my-coder');
    l.agent(join(l.home, 'agents/explore.md'), 'my-explore', 'override: true\n');
    const catalog = await loadAgentCatalog(agentRoots({ home: l.home, cwd: l.cwd, env: l.env }));
    expect(catalog.get('coder')?.source).toBe('builtin');
    expect(catalog.warnings.join('\n')).toMatch(/named like the built-in agent "coder".*override: true/);
    expect(catalog.get('explore')?.description).toBe('my-explore');
    const explicit = l.agent(join(l.root, 'plan.md'), 'explicit-plan');
    expect((await loadAgentCatalog([], explicit)).get('plan')?.description).toBe('explicit-plan');
  });

  it('broken files are skipped with a warning; a broken --agent-file is an error', async () => {
    const l = layout();
    put(join(l.home, 'agents/Bad_Name.md'), '---\ndescription: d\n---\n');
    put(join(l.home, 'agents/yaml.md'), '---\ndescription: [\n---\n');
    const catalog = await loadAgentCatalog(agentRoots({ home: l.home, cwd: l.cwd, env: l.env }));
    expect(catalog.warnings).toHaveLength(2);
    await expect(loadAgentCatalog([], join(l.root, 'missing.md'))).rejects.toThrow(AgentFileError);
    await expect(loadAgentCatalog([], put(join(l.root, 'x.md'), 'no frontmatter'))).rejects.toThrow(
      /needs a description/,
    );
  });

  it('delegation: built-in subagents delegate to no one; the main agent to the built-ins and every custom agent; `*` opts in', async () => {
    const l = layout();
    l.agent(join(l.home, 'agents/reviewer.md'), 'r');
    l.agent(join(l.home, 'agents/lead.md'), 'l', 'subagents: ["*"]\n');
    const catalog = await loadAgentCatalog(agentRoots({ home: l.home, cwd: l.cwd, env: l.env }));
    expect(catalog.delegatesOf(catalog.get('coder')!, false)).toEqual([]);
    expect(catalog.delegatesOf(catalog.get('agent')!, true).sort()).toEqual([
      'coder',
      'explore',
      'lead',
      'plan',
      'reviewer',
    ]);
    expect(catalog.delegatesOf(catalog.get('reviewer')!, false)).toEqual(['coder', 'explore', 'plan']);
    expect(catalog.delegatesOf(catalog.get('lead')!, false).sort()).toEqual(['coder', 'explore', 'plan', 'reviewer']);
  });
});

describe('agent discovery skips what holds no agents of the user', () => {
  it('dot-folders and node_modules are not searched; a file with a dropped field warns with its line', async () => {
    const root = makeTempDir('jarvis-agents-skip-');
    const cwd = join(root, 'repo');
    mkdirSync(join(cwd, '.git'), { recursive: true });
    const dir = join(cwd, '.jarvis-code', 'agents');
    put(join(dir, 'team', 'kept.md'), '---\ndescription: kept\noverride: perhaps\n---\nprompt');
    put(join(dir, '.obsidian', 'hidden.md'), '---\ndescription: hidden\n---\nprompt');
    put(join(dir, 'node_modules', 'pkg', 'dep.md'), '---\ndescription: dep\n---\nprompt');
    const catalog = await loadAgentCatalog(agentRoots({ home: join(root, 'home'), cwd, env: { HOME: root } }));
    expect(catalog.get('kept')).toBeDefined();
    expect(catalog.get('hidden')).toBeUndefined();
    expect(catalog.get('dep')).toBeUndefined();
    expect(catalog.warnings).toEqual([
      `agent file: ${join(dir, 'team', 'kept.md')}:3: field "override" should be true or false, not "perhaps"; dropped`,
    ]);
  });
});
