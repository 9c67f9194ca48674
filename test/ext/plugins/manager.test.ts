import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installedPath, managedDir } from '../../../src/ext/plugins/installedStore';
import { PluginError, PluginManager } from '../../../src/ext/plugins/manager';
import { tempDir } from '../../helpers/files';
import { pluginFolder } from './pluginFixture';

function setup() {
  const home = tempDir('jarvis-home-');
  return { home, manager: new PluginManager({ home, cwd: home, env: {} }) };
}

const marker = (dir: string) => join(dir, 'ran.txt');

/** A plugin whose hook and MCP server would write a marker file if anything ever ran them. */
function busyPlugin(name = 'acme', version = '1.0.0'): string {
  const dir = tempDir();
  return pluginFolder(
    {
      'jarvis.plugin.json': {
        name,
        version,
        description: 'Acme tools',
        interface: { displayName: 'Acme Tools' },
        skills: './skills/',
        commands: './commands/',
        hooks: [{ event: 'SessionStart', command: `node -e "require('fs').writeFileSync('${marker(dir)}','hook')"` }],
        mcpServers: {
          tools: { command: 'node', args: ['-e', `require('fs').writeFileSync('${marker(dir)}','mcp')`] },
          web: { url: 'https://example.com/mcp' },
        },
      },
      'skills/use-acme/SKILL.md': '---\nname: use-acme\ndescription: How to use Acme\n---\nUse it.',
      'commands/report.md': '---\ndescription: Report\n---\nReport on $ARGUMENTS',
      'postinstall.sh': `echo ran > ${marker(dir)}`,
    },
    dir,
  );
}

describe('PluginManager: install from a local folder, the store, enable/disable/remove', () => {
  it('installs a copy into plugins/managed/<id>/, records it in installed.json and never runs plugin code', async () => {
    const { home, manager } = setup();
    const source = busyPlugin();
    const { plugin, replaced } = await manager.install(source);
    expect(replaced).toBe(false);
    expect(plugin).toMatchObject({
      id: 'acme',
      version: '1.0.0',
      displayName: 'Acme Tools',
      description: 'Acme tools',
      enabled: true,
      source,
      sourceKind: 'local',
      root: managedDir(home, 'acme'),
      skills: ['use-acme'],
      commands: [{ name: 'acme:report', description: 'Report' }],
      hooks: 1,
      mcpServers: [
        { name: 'tools', enabled: true, runsAs: 'plugin-acme_tools', target: expect.stringContaining('node -e') },
        { name: 'web', enabled: true, runsAs: 'plugin-acme_web', target: 'https://example.com/mcp' },
      ],
      diagnostics: [],
    });
    expect(existsSync(join(managedDir(home, 'acme'), 'skills/use-acme/SKILL.md'))).toBe(true);
    const doc = JSON.parse(readFileSync(installedPath(home), 'utf8'));
    expect(doc).toMatchObject({
      version: 1,
      plugins: [{ id: 'acme', source, sourceKind: 'local', version: '1.0.0', enabled: true, mcpServers: {} }],
    });
    expect(existsSync(marker(source))).toBe(false);
    // Nothing but the managed copy and installed.json is left behind (no staging folders).
    expect(readFileSync(installedPath(home), 'utf8')).not.toContain('staging');
    const managed = join(home, 'plugins', 'managed');
    expect(existsSync(managed) && (await import('node:fs')).readdirSync(managed)).toEqual(['acme']);
  });

  it('runs from the managed copy: deleting or editing the source changes nothing until a reinstall', async () => {
    const { manager } = setup();
    const source = busyPlugin();
    await manager.install(source);
    writeFileSync(join(source, 'skills/use-acme/SKILL.md'), '---\nname: renamed\ndescription: x\n---\nEdited');
    expect((await manager.info('acme')).skills).toEqual(['use-acme']);
    rmSync(source, { recursive: true, force: true });
    const [view] = await manager.list();
    expect(view).toMatchObject({ id: 'acme', skills: ['use-acme'], error: undefined });
  });

  it('reinstalling replaces the copy, keeps the enabled state and MCP switches, and reports the previous version', async () => {
    const { manager } = setup();
    await manager.install(busyPlugin('acme', '1.0.0'));
    await manager.disable('acme');
    await manager.setMcpServerEnabled('acme', 'tools', false);
    const again = await manager.install(busyPlugin('acme', '2.0.0'));
    expect(again).toMatchObject({
      replaced: true,
      previousVersion: '1.0.0',
      plugin: { version: '2.0.0', enabled: false },
    });
    expect(again.plugin.mcpServers.find((s) => s.name === 'tools')?.enabled).toBe(false);
  });

  it('enable, disable, remove (the record only) and reload', async () => {
    const { home, manager } = setup();
    await manager.install(busyPlugin());
    expect((await manager.disable('acme')).enabled).toBe(false);
    expect((await manager.loadEnabled()).plugins).toEqual([]);
    expect((await manager.enable('acme')).enabled).toBe(true);
    expect((await manager.loadEnabled()).plugins.map((p) => p.record.id)).toEqual(['acme']);
    // Another process edits installed.json: reload sees it.
    const doc = JSON.parse(readFileSync(installedPath(home), 'utf8'));
    doc.plugins[0].enabled = false;
    writeFileSync(installedPath(home), JSON.stringify(doc));
    expect((await manager.reload())[0].enabled).toBe(false);
    await manager.remove('acme');
    expect(await manager.list()).toEqual([]);
    expect(existsSync(managedDir(home, 'acme'))).toBe(true);
  });

  it('unknown ids, unknown servers and bad sources are PluginErrors that say what to do', async () => {
    const { manager } = setup();
    await expect(manager.enable('nope')).rejects.toThrow(/no plugin "nope" is installed.*jarvis plugin list/);
    await expect(manager.info('nope')).rejects.toBeInstanceOf(PluginError);
    await expect(manager.remove('nope')).rejects.toThrow(/no plugin "nope"/);
    await manager.install(busyPlugin());
    await expect(manager.enable('nope')).rejects.toThrow(/installed: acme/);
    await expect(manager.setMcpServerEnabled('acme', 'nope', false)).rejects.toThrow(
      /declares no MCP server "nope" \(its servers: tools, web\)/,
    );
    await expect(manager.install(join(tempDir(), 'missing'))).rejects.toThrow(/does not exist/);
    await expect(manager.install('')).rejects.toThrow(/give a plugin folder/);
    await expect(manager.install('ftp://example.com/x.zip')).rejects.toThrow(/only http\(s\) URLs/);
    const notPlugin = tempDir();
    writeFileSync(join(notPlugin, 'README.md'), 'hi');
    await expect(manager.install(notPlugin)).rejects.toThrow(/cannot be installed: no plugin manifest/);
    const badName = pluginFolder({ 'jarvis.plugin.json': { name: 'Bad Name' } });
    await expect(manager.install(badName)).rejects.toThrow(/must match \[a-z0-9\]/);
    expect((await manager.list()).map((p) => p.id)).toEqual(['acme']);
  });

  it('a plugin whose manifest broke after install shows the error in info and does not affect the others', async () => {
    const { home, manager } = setup();
    await manager.install(busyPlugin('acme'));
    await manager.install(pluginFolder({ 'jarvis.plugin.json': { name: 'other', systemPrompt: 'Be nice.' } }));
    writeFileSync(join(managedDir(home, 'acme'), 'jarvis.plugin.json'), '{ broken');
    const info = await manager.info('acme');
    expect(info.error).toMatch(/not valid JSON/);
    expect(info.skills).toEqual([]);
    const { plugins } = await manager.loadEnabled();
    expect(plugins.map((p) => [p.record.id, p.loaded.error === undefined])).toEqual([
      ['acme', false],
      ['other', true],
    ]);
    expect(plugins[1].loaded.promptSections).toEqual(['Be nice.']);
  });

  it('a broken installed.json is reported and never overwritten', async () => {
    const { home, manager } = setup();
    mkdirSync(join(home, 'plugins'), { recursive: true });
    writeFileSync(installedPath(home), '{ "plugins": [ oops');
    expect(manager.problem()).toMatch(/installed\.json is not valid JSON.*fix it or delete it/);
    expect(await manager.list()).toEqual([]);
    await expect(manager.install(busyPlugin())).rejects.toThrow(/not valid JSON.*It was not changed/);
    expect(readFileSync(installedPath(home), 'utf8')).toBe('{ "plugins": [ oops');
  });

  it('many changes at once (as from two processes) all land: installed.json stays whole', async () => {
    const { home, manager } = setup();
    const ids = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
    const sources = ids.map((id) => pluginFolder({ 'jarvis.plugin.json': { name: id } }));
    const other = new PluginManager({ home, env: {} });
    await Promise.all(sources.map((s, i) => (i % 2 ? other : manager).install(s)));
    expect((await manager.list()).map((p) => p.id).sort()).toEqual(ids);
    await Promise.all(ids.map((id, i) => (i % 2 ? manager.disable(id) : other.disable(id))));
    expect((await manager.list()).every((p) => !p.enabled)).toBe(true);
    expect(existsSync(`${installedPath(home)}.lock`)).toBe(false);
  });
});
