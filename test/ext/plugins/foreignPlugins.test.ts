// Plugins written for Kimi Code (`kimi.plugin.json` at the root) and Claude Code (`.claude-plugin/plugin.json`
// with default folders, hooks/hooks.json and .mcp.json) read by the loader, and Claude Code marketplaces
// (docs/plugins.md "Claude Code plugins", "Claude Code marketplaces").
import { describe, expect, it } from 'vitest';
import { claudeMatcherMatches } from '../../../src/ext/hooks/claudeHookPayload';
import { parseMarketplace } from '../../../src/ext/plugins/marketplace';
import { readManifest } from '../../../src/ext/plugins/manifest';
import { availableCommands } from '../../../src/acp/slashCommands';
import { commandListDescription, expandPluginCommand } from '../../../src/ext/plugins/pluginCommands';
import { loadPlugin } from '../../../src/ext/plugins/pluginLoader';
import { renderSkillBody } from '../../../src/ext/skills/skillArguments';
import { LOAD_OPTS, pluginFolder } from './pluginFixture';

const skill = (name: string, body: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\n${body}\n`;

describe('Kimi Code kimi.plugin.json', () => {
  it('is a manifest at the root, below jarvis.plugin.json and above .kimi-plugin/ and .claude-plugin/', () => {
    const root = pluginFolder({
      'kimi.plugin.json': { name: 'kimi-root' },
      '.kimi-plugin/plugin.json': { name: 'kimi-dir' },
      '.claude-plugin/plugin.json': { name: 'claude' },
    });
    const read = readManifest(root);
    expect(read).toMatchObject({
      ok: true,
      manifest: { name: 'kimi-root', file: 'kimi.plugin.json', format: 'jarvis' },
    });
    expect(read.diagnostics).toEqual([
      '.kimi-plugin/plugin.json is shadowed by kimi.plugin.json and was not read',
      '.claude-plugin/plugin.json is shadowed by kimi.plugin.json and was not read',
    ]);
    const top = readManifest(pluginFolder({ 'jarvis.plugin.json': { name: 'j' }, 'kimi.plugin.json': { name: 'k' } }));
    expect(top.diagnostics).toEqual(['kimi.plugin.json is shadowed by jarvis.plugin.json and was not read']);
  });

  it('a folder holding only a Claude Code marketplace is refused with what to do instead', () => {
    const read = readManifest(pluginFolder({ '.claude-plugin/marketplace.json': { name: 'm', plugins: [] } }));
    expect(read.ok).toBe(false);
    expect(!read.ok && read.error).toContain(
      'the folder holds a Claude Code marketplace (.claude-plugin/marketplace.json), not a plugin: list its plugins with `jarvis plugin marketplace',
    );
  });
});

describe('Claude Code .claude-plugin/plugin.json', () => {
  it('reads skills/, commands/, agents/ by default, and unsupported fields are diagnostics', async () => {
    const root = pluginFolder({
      '.claude-plugin/plugin.json': {
        name: 'cc',
        version: '1.0.0',
        author: { name: 'A', email: 'a@example.com' },
        repository: 'https://example.com/cc',
        outputStyles: './styles/',
        lspServers: {},
      },
      'skills/helper/SKILL.md': skill('helper', 'Read ${CLAUDE_SKILL_DIR}/ref.md and ${CLAUDE_PLUGIN_ROOT}/x.'),
      'commands/go.md': '---\ndescription: Go\nargument-hint: <a> [b]\n---\nFirst $1, second $2, all $ARGUMENTS.',
      'agents/rev.md': '---\nname: rev\ndescription: Reviews code\n---\nYou review.',
    });
    const p = await loadPlugin(root, 'cc', LOAD_OPTS);
    expect(p.error).toBeUndefined();
    expect(p.diagnostics).toEqual([
      '"outputStyles": output styles are not supported; ignored',
      '"lspServers": language servers from plugins are not supported; ignored',
    ]);
    expect(p.manifest).toMatchObject({ format: 'claude', author: 'A' });
    expect(p.skills.map((s) => s.name)).toEqual(['helper']);
    expect(renderSkillBody(p.skills[0], '')).toBe(`Read ${root}/skills/helper/ref.md and ${root}/x.`);
    expect(p.agents.map((a) => a.name)).toEqual(['cc:rev']);
    const [go] = p.commands;
    expect(go).toMatchObject({ name: 'cc:go', argumentHint: '<a> [b]' });
    expect(expandPluginCommand(go, 'one "two words" three')).toBe(
      'First one, second two words, all one "two words" three.',
    );
    // The hint is shown before the description in the / menu, and is the input hint ACP editors get.
    expect(commandListDescription(go)).toBe('<a> [b] — Go');
    const session = { ids: ['cc'], commands: p.commands, promptSections: '', sessionStartSkills: [] };
    const update = availableCommands(session) as { availableCommands: Array<{ name: string; input?: unknown }> };
    expect(update.availableCommands.find((c) => c.name === 'cc:go')?.input).toEqual({ hint: '<a> [b]' });
  });

  it('hooks/hooks.json becomes Claude Code hooks: run in the project folder, other types and events said', async () => {
    const root = pluginFolder({
      '.claude-plugin/plugin.json': { name: 'hk' },
      'hooks/hooks.json': {
        description: 'Checks',
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash|WebFetch|MultiEdit',
              hooks: [
                { type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/scripts/check.sh', timeout: 5 },
                { type: 'prompt', prompt: 'Is this safe?' },
              ],
            },
          ],
          SessionStart: [{ matcher: '*', hooks: [{ type: 'command', command: 'echo hi' }] }],
          TeammateIdle: [{ hooks: [{ type: 'command', command: 'true' }] }],
        },
      },
    });
    const p = await loadPlugin(root, 'hk', LOAD_OPTS);
    expect(p.hooks).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'Bash|WebFetch|MultiEdit',
        command: '${CLAUDE_PLUGIN_ROOT}/scripts/check.sh',
        timeout: 5,
        dialect: 'claude',
        env: { JARVIS_CODE_HOME: LOAD_OPTS.home, JARVIS_PLUGIN_ROOT: root, CLAUDE_PLUGIN_ROOT: root },
        origin: 'plugin hk',
      },
      // Claude Code's default time limit; `*` is kept (it matches everything).
      expect.objectContaining({ event: 'SessionStart', command: 'echo hi', timeout: 600, matcher: '*' }),
    ]);
    expect(p.hooks[0].cwd).toBeUndefined();
    expect(p.diagnostics).toEqual([
      'hooks hooks/hooks.json: PreToolUse[0].hooks[1]: hooks of type "prompt" are not supported (only "command"); skipped',
      'hooks hooks/hooks.json: the event "TeammateIdle" does not exist in Jarvis (docs/hooks.md lists the events); its hooks are skipped',
    ]);
  });

  it("matchers are Claude Code's: names exactly (also older names), * and empty all, anything else a regex", () => {
    const m = (matcher: string, tool: string) => claudeMatcherMatches(matcher, 'PreToolUse', tool);
    expect(m('Edit|Write', 'Write')).toBe(true);
    expect(m('Edit|Write', 'Bash')).toBe(false);
    expect(m('Edit', 'NotebookEdit')).toBe(false);
    expect(m('WebFetch', 'FetchURL')).toBe(true);
    expect(m('Web.*', 'FetchURL')).toBe(true);
    expect(m('TodoWrite', 'TodoList')).toBe(true);
    expect(m('Task', 'Agent')).toBe(true);
    expect(m('Agent', 'Agent')).toBe(true);
    expect(m('BashOutput', 'TaskOutput')).toBe(true);
    expect(m('Bash,PowerShell', 'Bash')).toBe(true);
    expect(m('*', 'Anything')).toBe(true);
    expect(m('', 'Anything')).toBe(true);
    expect(m('mcp__brave-search', 'mcp__brave-search__web')).toBe(false);
    expect(m('mcp__brave-search__.*', 'mcp__brave-search__web')).toBe(true);
    expect(m('mcp__.*__write.*', 'mcp__fs__write_file')).toBe(true);
    expect(m('(unclosed', 'Bash')).toBe(false);
    expect(claudeMatcherMatches('manual', 'PreCompact', 'manual')).toBe(true);
    expect(claudeMatcherMatches('startup', 'SessionStart', 'resume')).toBe(false);
    expect(claudeMatcherMatches('Bash', 'UserPromptSubmit', 'fix the build')).toBe(true);
  });

  it('.mcp.json servers are read with ${CLAUDE_PLUGIN_ROOT} resolved; a broken file or a duplicate is said', async () => {
    const root = pluginFolder({
      '.claude-plugin/plugin.json': {
        name: 'mc',
        mcpServers: { inline: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/a.js'] } },
      },
      '.mcp.json': {
        mcpServers: {
          local: { command: '${CLAUDE_PLUGIN_ROOT}/bin/server', args: ['--data', '${CLAUDE_PLUGIN_ROOT}/data'] },
          inline: { command: 'node' },
        },
      },
      'bin/server': '#!/bin/sh\n',
    });
    const p = await loadPlugin(root, 'mc', LOAD_OPTS);
    const byName = Object.fromEntries(p.mcpServers.map((s) => [s.name, s.config]));
    expect(byName.inline).toMatchObject({ command: 'node', args: [`${root}/a.js`], env: { CLAUDE_PLUGIN_ROOT: root } });
    expect(byName.local).toMatchObject({ command: `${root}/bin/server`, args: ['--data', `${root}/data`], cwd: root });
    expect(p.diagnostics).toEqual([
      'mcpServers .mcp.json: the MCP server "inline" is defined twice; the first definition is kept',
    ]);
    const broken = await loadPlugin(
      pluginFolder({
        '.claude-plugin/plugin.json': { name: 'b', hooks: './h.json' },
        '.mcp.json': '{',
        'h.json': '[]',
      }),
      'b',
      LOAD_OPTS,
    );
    expect(broken.diagnostics).toEqual([
      expect.stringMatching(/^mcpServers \.mcp\.json: \.\/\.mcp\.json is not valid JSON \(.*\); skipped$/),
      'hooks h.json: expected {"hooks": {"<Event>": [...]}}; skipped',
    ]);
  });

  it('!`cmd` lines are kept for the front end to run before sending; allowed-tools is read as written', async () => {
    const root = pluginFolder({
      '.claude-plugin/plugin.json': { name: 'bang' },
      'commands/status.md':
        '---\ndescription: Status\nallowed-tools: Bash(git status:*), Bash(git branch:*)\n---\n' +
        'Branch: !`git branch --show-current`\nFix $ARGUMENTS.',
      'commands/bad.md': '---\nallowed-tools: 3\n---\nBad.',
    });
    const p = await loadPlugin(root, 'bang', LOAD_OPTS);
    expect(p.diagnostics).toEqual([
      'command bad.md: "allowed-tools" must be a string or a list of strings; it pre-approves nothing',
    ]);
    const status = p.commands.find((c) => c.command === 'status')!;
    expect(status.allowedTools).toEqual(['Bash(git status:*)', 'Bash(git branch:*)']);
    const text = expandPluginCommand(status, 'the bug');
    expect(text).toBe('Branch: !`git branch --show-current`\nFix the bug.');
  });
});

describe('Claude Code marketplace.json', () => {
  const catalog = {
    name: 'acme',
    owner: { name: 'Acme' },
    metadata: { description: 'Acme plugins' },
    plugins: [
      { name: 'local-one', source: './plugins/local-one', description: 'Local', version: '1.2.0', tags: ['x'] },
      { name: 'whole-repo', source: './' },
      { name: 'gh', source: { source: 'github', repo: 'acme/gh-plugin', ref: 'v2' } },
      { name: 'gh-url', source: { source: 'url', url: 'https://github.com/acme/other.git', sha: 'abc1234' } },
      { name: 'gitlab', source: { source: 'url', url: 'https://gitlab.com/acme/p.git' } },
      { name: 'sub', source: { source: 'git-subdir', url: 'https://github.com/acme/mono', path: 'p' } },
      { name: 'pkg', source: { source: 'npm', package: '@acme/p' } },
      { name: 'inline', source: './plugins/inline', strict: false, commands: ['./x.md'] },
    ],
  };

  it('entries by name; sources against the marketplace root; what cannot be fetched is said and skipped', () => {
    const m = parseMarketplace(JSON.stringify(catalog), '/m/acme/.claude-plugin/marketplace.json', { trusted: false });
    expect(m.entries.map((e) => [e.id, e.source])).toEqual([
      ['local-one', '/m/acme/plugins/local-one'],
      ['whole-repo', '/m/acme/'],
      ['gh', 'https://github.com/acme/gh-plugin/tree/v2'],
      ['gh-url', 'https://github.com/acme/other/commit/abc1234'],
      ['inline', '/m/acme/plugins/inline'],
    ]);
    expect(m.entries[0]).toMatchObject({ version: '1.2.0', description: 'Local', keywords: ['x'] });
    expect(m.diagnostics).toEqual([
      'plugins[4] "gitlab": the git repository https://gitlab.com/acme/p.git cannot be fetched: Jarvis installs GitHub repositories and zip archives, and does not run git clone; skipped.',
      'plugins[5] "sub": a "git-subdir" source (a folder of a git repository) cannot be fetched; install the folder itself; skipped.',
      'plugins[6] "pkg": an npm package source cannot be installed; Jarvis installs folders, zips and GitHub repositories; skipped.',
      'plugins[7] "inline": "commands" in the catalog entry are not read; the plugin\'s own manifest counts.',
    ]);
  });

  it('a catalog fetched over http resolves relative sources against the repository root URL', () => {
    const url = 'http://127.0.0.1:9/acme/.claude-plugin/marketplace.json';
    const m = parseMarketplace(JSON.stringify(catalog), url, { trusted: false });
    expect(m.entries[0].source).toBe('http://127.0.0.1:9/acme/plugins/local-one');
  });
});
