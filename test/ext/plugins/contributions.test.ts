import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionStartSkills, skillText } from '../../../src/engine/delegation/skills';
import { buildSystemPrompt } from '../../../src/engine/context/systemPrompt';
import { loadAgentCatalog } from '../../../src/ext/agents/agentCatalog';
import { ensureBundledPlugins } from '../../../src/ext/plugins/bundledPlugins';
import { PLUGIN_PROMPT_BUDGET_BYTES, pluginContributions } from '../../../src/ext/plugins/contributions';
import { managedDir } from '../../../src/ext/plugins/installedStore';
import { PROMPT_FIELD_MAX_BYTES } from '../../../src/ext/plugins/pluginLoader';
import { PluginManager } from '../../../src/ext/plugins/manager';
import { loadSessionPlugins } from '../../../src/ext/plugins/sessionPlugins';
import { loadSkillCatalog } from '../../../src/ext/skills/skillCatalog';
import { putFile, tempDir } from '../../helpers/files';
import { pluginFolder } from './pluginFixture';

const gate = { sessionId: 's', agentId: 'main', cwd: '/', signal: new AbortController().signal };

async function installed(plugins: Array<Record<string, string | object>>) {
  const home = tempDir('jarvis-home-');
  const manager = new PluginManager({ home, env: {} });
  for (const files of plugins) await manager.install(pluginFolder(files));
  return { home, manager };
}

describe('plugin contributions to a session', () => {
  it(`prompt budget: at most ${PLUGIN_PROMPT_BUDGET_BYTES} bytes of instructions across plugins per prompt; what does not fit is skipped with a warning whose advice works`, async () => {
    const part = Math.floor((PLUGIN_PROMPT_BUDGET_BYTES * 11) / 32);
    expect(part).toBeLessThanOrEqual(PROMPT_FIELD_MAX_BYTES);
    // Each plugin's <plugin id> wrapper counts with its first section; a second section adds a blank line.
    const wrapper = (id: string) => Buffer.byteLength(`<plugin id="${id}">\n\n</plugin>\n`);
    const half = Math.floor((PLUGIN_PROMPT_BUDGET_BYTES - wrapper('big') - 2) / 2);
    const chunk = (c: string) => c.repeat(part);
    const { manager } = await installed([
      { 'jarvis.plugin.json': { name: 'one', systemPrompt: chunk('a') } },
      {
        'jarvis.plugin.json': { name: 'two', systemPrompt: chunk('b'), systemPromptPath: './S.md' },
        'S.md': chunk('c'),
      },
      { 'jarvis.plugin.json': { name: 'three', systemPrompt: 'small rule' } },
    ]);
    const c = pluginContributions((await manager.loadEnabled()).plugins);
    const sections = c.session.promptSections;
    expect(sections).toContain(chunk('a'));
    expect(sections).toContain(chunk('b'));
    // Two parts of 11/32 of the budget used: the file of "two" does not fit, "three" still does.
    expect(sections).not.toContain(chunk('c'));
    expect(sections).toContain('<plugin id="three">\nsmall rule\n</plugin>');
    const used = 2 * part + wrapper('one') + wrapper('two');
    expect(c.warnings).toEqual([
      `plugin two: ${part + 2} bytes of system prompt instructions skipped: all plugins' instructions together may add at most ${PLUGIN_PROMPT_BUDGET_BYTES} bytes to the system prompt (${used} used: one ${part + wrapper('one')}, two itself ${part + wrapper('two')}); disabling one (jarvis plugin disable <id>) makes room for it`,
    ]);
    // One plugin whose inline text and file together fill the budget exactly: nothing is skipped.
    const single = await installed([
      {
        'jarvis.plugin.json': { name: 'big', systemPrompt: 'x'.repeat(half), systemPromptPath: './S.md' },
        'S.md': 'y'.repeat(half),
      },
    ]);
    const alone = pluginContributions((await single.manager.loadEnabled()).plugins);
    expect(alone.warnings).toEqual([]);
    expect(Buffer.byteLength(alone.session.promptSections)).toBeGreaterThan(PLUGIN_PROMPT_BUDGET_BYTES);
    const over = await installed([
      { 'jarvis.plugin.json': { name: 'first', systemPrompt: 'x'.repeat(10) } },
      {
        'jarvis.plugin.json': { name: 'big', systemPrompt: 'x'.repeat(half), systemPromptPath: './S.md' },
        'S.md': 'y'.repeat(half),
      },
    ]);
    expect(pluginContributions((await over.manager.loadEnabled()).plugins).warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^plugin big: ${half + 2} bytes of system prompt instructions skipped: .*; disabling first \\(jarvis plugin disable <id>\\) makes room for it$`,
        ),
      ),
    ]);
    // Seed 003: one plugin whose two fields (each within 32 KB) pass the budget together, alone: no plugin to
    // disable would help, and the warning says so.
    const full = 'z'.repeat(PROMPT_FIELD_MAX_BYTES);
    const both = await installed([
      { 'jarvis.plugin.json': { name: 'wide', systemPrompt: full, systemPromptPath: './S.md' }, 'S.md': full },
    ]);
    const wide = pluginContributions((await both.manager.loadEnabled()).plugins);
    expect(wide.session.promptSections).toContain(full);
    expect(wide.warnings).toEqual([
      `plugin wide: ${PROMPT_FIELD_MAX_BYTES + 2} bytes of system prompt instructions skipped: all plugins' instructions together may add at most ${PLUGIN_PROMPT_BUDGET_BYTES} bytes to the system prompt (${PROMPT_FIELD_MAX_BYTES + wrapper('wide')} used: wide itself ${PROMPT_FIELD_MAX_BYTES + wrapper('wide')}); the plugin's own instructions are too long together (its author can shorten them)`,
    ]);
  });

  it('${plugin_sections} is in the built-in prompt and fills the variable in a custom SYSTEM.md', () => {
    const home = tempDir();
    const cwd = tempDir();
    const block = '\n# Plugin instructions\n<plugin id="p">\nRULE-X\n</plugin>\n';
    expect(buildSystemPrompt({ home, cwd, pluginSections: block }).text).toContain('RULE-X');
    expect(buildSystemPrompt({ home, cwd }).text).not.toContain('Plugin instructions');
    writeFileSync(join(home, 'SYSTEM.md'), 'Custom prompt.\n${plugin_sections}\nEnd.');
    expect(buildSystemPrompt({ home, cwd, pluginSections: block }).text).toBe(`Custom prompt.\n${block}\nEnd.`);
  });

  it('MCP servers switched off are left out; hooks, skills, agents and commands of enabled plugins are gathered', async () => {
    const { manager } = await installed([
      {
        'jarvis.plugin.json': {
          name: 'p',
          mcpServers: { a: { command: 'node' }, b: { url: 'https://example.com/mcp' } },
          hooks: [{ event: 'Stop', command: 'true' }],
          commands: './c',
        },
        'c/x.md': 'X',
        'SKILL.md': '---\nname: root\ndescription: d\n---\nbody',
        'agents/helper.md': '---\nname: helper\ndescription: helps\n---\nHelp.',
      },
    ]);
    await manager.setMcpServerEnabled('p', 'a', false);
    const c = pluginContributions((await manager.loadEnabled()).plugins);
    expect(c.mcpServers.map((s) => s.name)).toEqual(['plugin-p_b']);
    expect(c.hooks.map((h) => h.origin)).toEqual(['plugin p']);
    expect(c.skills.map((s) => s.name)).toEqual(['root']);
    expect(c.agents.map((a) => a.name)).toEqual(['p:helper']);
    expect(c.session).toMatchObject({ ids: ['p'], commands: [{ name: 'p:x' }] });
  });

  it('plugin agents are <plugin>:<agent> whatever their name (a built-in name too); plugin skills below folders', async () => {
    const { manager } = await installed([
      {
        'jarvis.plugin.json': { name: 'p', skills: './skills' },
        'agents/reviewer.md': '---\nname: reviewer\ndescription: plugin reviewer\n---\nP',
        'agents/coder.md': '---\nname: coder\ndescription: plugin coder\n---\nP',
        'agents/plan.md': '---\nname: plan\ndescription: plugin plan\noverride: true\n---\nP',
        'skills/shared/SKILL.md': '---\nname: shared\ndescription: from plugin\n---\nP',
        'skills/only/SKILL.md': '---\nname: only\ndescription: plugin only\n---\nP',
      },
    ]);
    const c = pluginContributions((await manager.loadEnabled()).plugins);
    const userDir = tempDir();
    putFile(join(userDir, 'reviewer.md'), '---\nname: reviewer\ndescription: user reviewer\n---\nU');
    const agents = await loadAgentCatalog([{ dir: userDir, source: 'user' }], undefined, c.agents);
    // The user's reviewer keeps its name; the plugin's is p:reviewer. Built-ins stay themselves.
    expect(agents.get('reviewer')?.description).toBe('user reviewer');
    expect(agents.get('p:reviewer')?.description).toBe('plugin reviewer');
    expect(agents.get('coder')?.source).toBe('builtin');
    expect(agents.get('p:coder')).toMatchObject({ source: 'plugin', description: 'plugin coder' });
    expect(agents.get('plan')?.source).toBe('builtin');
    expect(agents.get('p:plan')).toMatchObject({ source: 'plugin', description: 'plugin plan' });
    expect(agents.warnings).toEqual([]);
    const skillDir = tempDir();
    putFile(join(skillDir, 'shared/SKILL.md'), '---\nname: shared\ndescription: from extra dir\n---\nE');
    const skills = await loadSkillCatalog([{ dir: skillDir, source: 'extra' }], c.skills);
    expect(skills.get('shared')?.description).toBe('from extra dir');
    expect(skills.get('only')).toMatchObject({ source: 'plugin', plugin: { id: 'p' } });
  });

  it("skillInstructions travel with every load of the plugin's skills; sessionStart skills join the first prompt once", async () => {
    const { manager } = await installed([
      {
        'jarvis.plugin.json': { name: 'p', skillInstructions: 'Cite sources.', sessionStart: { skill: 's' } },
        'SKILL.md': '---\nname: s\ndescription: d\n---\nSTART-TEXT',
      },
    ]);
    const c = pluginContributions((await manager.loadEnabled()).plugins);
    const [skill] = c.session.sessionStartSkills;
    expect(skillText(skill, '')).toContain(
      'START-TEXT\n\n<plugin-instructions plugin="p">\nCite sources.\n</plugin-instructions>\n</skill>',
    );
    const handler = sessionStartSkills(c.session.sessionStartSkills);
    await handler.onSessionStart!({ source: 'resume', model: 'm' }, gate);
    expect(
      await handler.onPromptSubmit!({ text: 'steer', isSteer: true, origin: 'user' } as never, gate),
    ).toBeUndefined();
    const first = await handler.onPromptSubmit!({ text: 'hi', isSteer: false, origin: 'user' } as never, gate);
    expect(first).toEqual({ addContext: expect.stringContaining('START-TEXT') });
    expect(
      await handler.onPromptSubmit!({ text: 'again', isSteer: false, origin: 'user' } as never, gate),
    ).toBeUndefined();
  });

  it('bundled plugins: installed when missing, updated when the shipped version differs, left alone when the user removed them', async () => {
    const home = tempDir('jarvis-home-');
    const manager = new PluginManager({ home, env: {} });
    const shipped = pluginFolder({ 'jarvis.plugin.json': { name: 'jarvis-documents', version: '1.0.0' } });
    expect(await ensureBundledPlugins(manager, [shipped])).toEqual([]);
    expect((await manager.info('jarvis-documents')).tier).toBe('official');
    await manager.disable('jarvis-documents');
    writeFileSync(join(shipped, 'jarvis.plugin.json'), JSON.stringify({ name: 'jarvis-documents', version: '1.1.0' }));
    await ensureBundledPlugins(manager, [shipped]);
    expect(await manager.info('jarvis-documents')).toMatchObject({ version: '1.1.0', enabled: false });
    // Another process installed the same version meanwhile: the check under the lock keeps its copy.
    writeFileSync(join(managedDir(home, 'jarvis-documents'), 'in-use.txt'), 'x');
    await manager.install(shipped, { tier: 'official', keepIf: (current) => current.version === '1.1.0' });
    expect(existsSync(join(managedDir(home, 'jarvis-documents'), 'in-use.txt'))).toBe(true);
    await Promise.all([
      ensureBundledPlugins(manager, [shipped]),
      ensureBundledPlugins(new PluginManager({ home, env: {} }), [shipped]),
    ]);
    expect(existsSync(join(managedDir(home, 'jarvis-documents'), 'in-use.txt'))).toBe(true);
    await manager.remove('jarvis-documents');
    await ensureBundledPlugins(manager, [shipped]);
    expect(await manager.list()).toEqual([]);
    rmSync(managedDir(home, 'jarvis-documents'), { recursive: true });
    const c = await loadSessionPlugins({
      home,
      cwd: home,
      env: {},
      allowPrivateNetwork: false,
      mcpDefaults: { startupTimeoutMs: 1, toolTimeoutMs: 1 },
      bundled: [shipped],
    });
    expect(c.session.ids).toEqual(['jarvis-documents']);
    expect(existsSync(managedDir(home, 'jarvis-documents'))).toBe(true);
  });
});
