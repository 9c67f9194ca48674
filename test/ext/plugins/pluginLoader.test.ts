import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPlugin, PROMPT_FIELD_MAX_BYTES } from '../../../src/ext/plugins/pluginLoader';
import { tempDir } from '../../helpers/files';
import { LOAD_OPTS, pluginFolder } from './pluginFixture';

const skill = (name: string, body = `Instructions of ${name}.`) =>
  `---\nname: ${name}\ndescription: The ${name} skill\n---\n${body}\n`;
const agent = (name: string) => `---\nname: ${name}\ndescription: The ${name} agent\n---\nYou are ${name}.\n`;

describe('plugin contents', () => {
  it('skills from ./ paths (a folder of skills, a single skill folder, a .md file); skillInstructions and sessionStart.skill attach', async () => {
    const root = pluginFolder({
      'jarvis.plugin.json': {
        name: 'p',
        skills: ['./skills/', './extra/solo', './one.md'],
        skillInstructions: 'Always cite the plugin.',
        sessionStart: { skill: 'using-p' },
      },
      'skills/using-p/SKILL.md': skill('using-p'),
      'skills/other/SKILL.md': skill('other'),
      'skills/flat.md': 'A flat skill line\nbody',
      'extra/solo/SKILL.md': skill('solo'),
      'one.md': 'One file skill',
    });
    const p = await loadPlugin(root, 'p', LOAD_OPTS);
    expect(p.error).toBeUndefined();
    expect(p.diagnostics).toEqual([]);
    expect(p.skills.map((s) => s.name).sort()).toEqual(['flat', 'one', 'other', 'solo', 'using-p']);
    expect(
      p.skills.every(
        (s) => s.source === 'plugin' && s.plugin?.id === 'p' && s.plugin.instructions === 'Always cite the plugin.',
      ),
    ).toBe(true);
    expect(p.sessionStartSkill?.name).toBe('using-p');
  });

  it('without "skills" a root SKILL.md is the one skill; without "agents" an agents/ folder is used', async () => {
    const root = pluginFolder({
      '.kimi-plugin/plugin.json': { name: 'k' },
      'SKILL.md': skill('root-skill'),
      'agents/reviewer.md': agent('reviewer'),
      'agents/deep/nested.md': agent('nested'),
    });
    const p = await loadPlugin(root, 'k', LOAD_OPTS);
    expect(p.skills.map((s) => s.name)).toEqual(['root-skill']);
    expect(p.agents.map((a) => [a.name, a.source])).toEqual([
      ['k:nested', 'plugin'],
      ['k:reviewer', 'plugin'],
    ]);
  });

  it("a sessionStart.skill that is not the plugin's own skill is a diagnostic", async () => {
    const p = await loadPlugin(
      pluginFolder({ 'jarvis.plugin.json': { name: 'p', sessionStart: { skill: 'missing' } } }),
      'p',
      LOAD_OPTS,
    );
    expect(p.diagnostics).toEqual([
      'sessionStart.skill "missing" is not one of this plugin\'s skills (it has none); ignored',
    ]);
    expect(p.sessionStartSkill).toBeUndefined();
  });

  it('paths must start with ./ and stay inside the root; bad ones are diagnostics and the rest loads', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'SYSTEM.md'), 'secret');
    const root = pluginFolder({
      'jarvis.plugin.json': {
        name: 'p',
        skills: ['skills', '../x', '/etc', './missing', './skills'],
        agents: ['./agents.md'],
        systemPromptPath: '../SYSTEM.md',
      },
      'skills/ok/SKILL.md': skill('ok'),
      'agents.md': agent('x'),
    });
    const p = await loadPlugin(root, 'p', LOAD_OPTS);
    expect(p.skills.map((s) => s.name)).toEqual(['ok']);
    // An agent file named directly is read (Claude Code plugins list theirs that way).
    expect(p.agents.map((a) => a.name)).toEqual(['p:x']);
    expect(p.diagnostics).toEqual([
      'skills: must start with "./" (a path inside the plugin folder), got "skills"; skipped',
      'skills: must start with "./" (a path inside the plugin folder), got "../x"; skipped',
      'skills: must start with "./" (a path inside the plugin folder), got "/etc"; skipped',
      'skills: "./missing" does not exist; skipped',
      'systemPromptPath: must start with "./" (a path inside the plugin folder), got "../SYSTEM.md"; ignored',
    ]);
    const dotdot = await loadPlugin(
      pluginFolder({ 'jarvis.plugin.json': { name: 'q', commands: './a/../../x' } }),
      'q',
      LOAD_OPTS,
    );
    expect(dotdot.diagnostics).toEqual(['commands: "./a/../../x" points outside the plugin folder; skipped']);
  });

  it('symlink attack: declared paths, skill files, agent and command files that resolve outside the root are refused and reported', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'SKILL.md'), skill('stolen'));
    writeFileSync(join(outside, 'SYSTEM.md'), 'exfiltrated prompt');
    writeFileSync(join(outside, 'evil.md'), agent('evil'));
    mkdirSync(join(outside, 'dir'));
    writeFileSync(join(outside, 'dir', 'cmd.md'), 'run evil');
    const root = pluginFolder({
      'jarvis.plugin.json': {
        name: 'p',
        skills: ['./linked-skills', './skills'],
        systemPromptPath: './prompt.md',
        commands: './commands',
        agents: ['./agents'],
      },
      'skills/good/SKILL.md': skill('good'),
      'agents/fine.md': agent('fine'),
      'commands/ok.md': 'fine command',
    });
    symlinkSync(outside, join(root, 'linked-skills'));
    mkdirSync(join(root, 'skills', 'bad'));
    symlinkSync(join(outside, 'SKILL.md'), join(root, 'skills', 'bad', 'SKILL.md'));
    symlinkSync(join(outside, 'SYSTEM.md'), join(root, 'prompt.md'));
    symlinkSync(join(outside, 'evil.md'), join(root, 'agents', 'evil.md'));
    symlinkSync(join(outside, 'dir'), join(root, 'commands', 'sub'));
    // A symlink that stays inside the root is fine.
    symlinkSync(join(root, 'commands', 'ok.md'), join(root, 'commands', 'alias.md'));
    // An MCP command `./bin/server` that is a link to a program outside the plugin.
    mkdirSync(join(root, 'bin'));
    symlinkSync('/bin/sh', join(root, 'bin', 'server'));
    writeFileSync(
      join(root, 'jarvis.plugin.json'),
      JSON.stringify({
        name: 'p',
        skills: ['./linked-skills', './skills'],
        systemPromptPath: './prompt.md',
        commands: './commands',
        agents: ['./agents'],
        mcpServers: { srv: { command: './bin/server' } },
      }),
    );
    const p = await loadPlugin(root, 'p', LOAD_OPTS);
    expect(p.error).toBeUndefined();
    expect(p.skills.map((s) => s.name)).toEqual(['good']);
    expect(p.agents.map((a) => a.name)).toEqual(['p:fine']);
    expect(p.commands.map((c) => c.name).sort()).toEqual(['p:alias', 'p:ok']);
    expect(p.promptSections).toEqual([]);
    const text = p.diagnostics.join('\n');
    expect(text).toMatch(
      /skills: "\.\/linked-skills" resolves \(through a symlink\) to .*, outside the plugin folder; skipped/,
    );
    expect(text).toMatch(/skills\/bad\/SKILL\.md is a symlink to .*outside the plugin folder \(ignored\)/);
    expect(text).toMatch(/systemPromptPath: "\.\/prompt\.md" resolves \(through a symlink\)/);
    expect(text).toMatch(/agents\/evil\.md is a symlink to .*outside the plugin folder \(ignored\)/);
    expect(text).toMatch(/commands\/sub is a symlink to .*outside the plugin folder \(ignored\)/);
    expect(text).toMatch(
      /MCP server "srv": command "\.\/bin\/server" resolves \(through a symlink\) to .*sh, outside the plugin folder; server ignored/,
    );
    expect(p.mcpServers).toEqual([]);
    expect(text).not.toContain('exfiltrated');
  });

  it('systemPrompt and the systemPromptPath file: inline first, each ≤ 32 KB; a larger one is ignored with a diagnostic', async () => {
    const ok = await loadPlugin(
      pluginFolder({
        'jarvis.plugin.json': { name: 'p', systemPrompt: 'Inline rule.', systemPromptPath: './SYSTEM.md' },
        'SYSTEM.md': 'File rule.\n',
      }),
      'p',
      LOAD_OPTS,
    );
    expect(ok.promptSections).toEqual(['Inline rule.', 'File rule.']);
    const big = 'x'.repeat(PROMPT_FIELD_MAX_BYTES + 1);
    const over = await loadPlugin(
      pluginFolder({
        'jarvis.plugin.json': { name: 'p', systemPrompt: big, systemPromptPath: './SYSTEM.md' },
        'SYSTEM.md': big,
      }),
      'p',
      LOAD_OPTS,
    );
    expect(over.promptSections).toEqual([]);
    expect(over.diagnostics).toEqual([
      `systemPrompt is ${PROMPT_FIELD_MAX_BYTES + 1} bytes, over the ${PROMPT_FIELD_MAX_BYTES}-byte limit; ignored`,
      `systemPromptPath ./SYSTEM.md is ${PROMPT_FIELD_MAX_BYTES + 1} bytes, over the ${PROMPT_FIELD_MAX_BYTES}-byte limit; ignored`,
    ]);
    // Exactly at the limit is accepted; bytes are UTF-8 bytes, not characters.
    const edge = await loadPlugin(
      pluginFolder({ 'jarvis.plugin.json': { name: 'p', systemPrompt: 'é'.repeat(PROMPT_FIELD_MAX_BYTES / 2) } }),
      'p',
      LOAD_OPTS,
    );
    expect(edge.promptSections).toHaveLength(1);
    const multi = await loadPlugin(
      pluginFolder({ 'jarvis.plugin.json': { name: 'p', systemPrompt: 'é'.repeat(PROMPT_FIELD_MAX_BYTES / 2 + 1) } }),
      'p',
      LOAD_OPTS,
    );
    expect(multi.promptSections).toEqual([]);
  });

  it('MCP servers: stdio command on PATH or ./ inside the root, cwd ./ inside the root, HTTP url; others ignored with a diagnostic', async () => {
    const root = pluginFolder({
      'jarvis.plugin.json': {
        name: 'acme',
        mcpServers: {
          finance: { command: 'uvx', args: ['acme-finance-mcp'] },
          local: { command: './bin/server.mjs', cwd: './bin' },
          docs: { url: 'https://example.com/mcp' },
          abs: { command: '/usr/bin/evil' },
          up: { command: '../outside.sh' },
          badcwd: { command: 'node', cwd: '/tmp' },
          escapecwd: { command: 'node', cwd: './../..' },
          nothing: { args: [] },
          'bad name': { command: 'node' },
        },
      },
      'bin/server.mjs': '// not run by loading\n',
    });
    const p = await loadPlugin(root, 'acme', LOAD_OPTS);
    expect(p.mcpServers.map((s) => [s.name, s.config.name, s.config.transport])).toEqual([
      ['finance', 'plugin-acme_finance', 'stdio'],
      ['local', 'plugin-acme_local', 'stdio'],
      ['docs', 'plugin-acme_docs', 'http'],
    ]);
    const local = p.mcpServers[1].config;
    expect(local).toMatchObject({
      command: join(root, 'bin/server.mjs'),
      cwd: join(root, 'bin'),
      scope: 'plugin',
      env: { JARVIS_CODE_HOME: LOAD_OPTS.home, JARVIS_PLUGIN_ROOT: root },
    });
    expect(p.mcpServers[0].config.cwd).toBe(root);
    expect(p.diagnostics).toEqual([
      'MCP server "abs": command "/usr/bin/evil" must be a program on PATH or a "./" path inside the plugin folder; server ignored',
      'MCP server "up": command "../outside.sh" must be a program on PATH or a "./" path inside the plugin folder; server ignored',
      'MCP server "badcwd": cwd must start with "./" (a path inside the plugin folder), got "/tmp"; server ignored',
      'MCP server "escapecwd": cwd "./../.." points outside the plugin folder; server ignored',
      'MCP server "nothing": needs "command" (a local server) or "url" (a remote one) (server skipped)',
      'MCP server "bad name": the name may contain only letters, digits, "_", "-" and "."; server ignored',
    ]);
  });

  it('hooks: the [[hooks]] schema, cwd = plugin root, JARVIS_CODE_HOME and JARVIS_PLUGIN_ROOT; bad entries are diagnostics', async () => {
    const root = pluginFolder({
      'jarvis.plugin.json': {
        name: 'h',
        hooks: [
          { event: 'PreToolUse', matcher: 'Bash', command: 'node ./hooks/check.mjs', timeout: 5 },
          { event: 'NoSuchEvent', command: 'x' },
          { event: 'Stop', command: 'x', extra: 1 },
          { event: 'Stop', command: 'x', timeout: 601 },
          { event: 'Stop', command: 'x', matcher: '(' },
        ],
      },
    });
    const p = await loadPlugin(root, 'h', LOAD_OPTS);
    expect(p.hooks).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        command: 'node ./hooks/check.mjs',
        timeout: 5,
        cwd: root,
        env: { JARVIS_CODE_HOME: LOAD_OPTS.home, JARVIS_PLUGIN_ROOT: root },
        origin: 'plugin h',
      },
    ]);
    expect(p.diagnostics).toHaveLength(4);
    expect(p.diagnostics[0]).toMatch(/^hooks\[1\]: event: /);
    expect(p.diagnostics[1]).toMatch(/^hooks\[2\]: /);
    expect(p.diagnostics[2]).toMatch(/^hooks\[3\]: timeout: /);
    expect(p.diagnostics[3]).toMatch(/^hooks\[4\]: matcher: /);
  });

  it('a manifest whose name differs from the installed id, or a missing folder, fails with a message to reinstall', async () => {
    const renamed = await loadPlugin(
      pluginFolder({ 'jarvis.plugin.json': { name: 'new-name' } }),
      'old-name',
      LOAD_OPTS,
    );
    expect(renamed.error).toMatch(/installed as "old-name"; reinstall it/);
    const gone = await loadPlugin(join(tempDir(), 'nope'), 'x', LOAD_OPTS);
    expect(gone.error).toMatch(/cannot be read \(ENOENT\); reinstall the plugin/);
  });
});
