// `/plugins …` subcommands and the start-up update notice (docs/plugins.md), run against a recording
// command host over a real PluginManager in a temporary home.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Component } from '@mariozechner/pi-tui';
import { describe, expect, it } from 'vitest';
import { MARKETPLACE_ENV } from '../../src/ext/plugins/marketplace';
import { PluginManager } from '../../src/ext/plugins/manager';
import { announcePluginUpdates } from '../../src/ui/plugins/pluginEntry';
import { runPluginsCommand } from '../../src/ui/plugins/pluginsCommand';
import { PluginsPanel } from '../../src/ui/plugins/pluginsPanel';
import type { CommandHost, PanelHost, PickItem } from '../../src/ui/slashCommands';
import { loadTheme } from '../../src/ui/theme';

interface Recorder {
  host: CommandHost;
  notices: string[];
  popups: Array<{ title: string; lines: string[] }>;
  picks: Array<{ title: string; items: PickItem[]; onPick(v: string): void; body?: string[] }>;
  panels: Component[];
  reloads: number;
  home: string;
  dir: string;
  manager: PluginManager;
  /** Polls until a notice matching `re` arrived (installs finish after the command returns). */
  notice(re: RegExp): Promise<string>;
}

function recorder(opts: { busy?: boolean; catalog?: object } = {}): Recorder {
  const home = mkdtempSync(join(tmpdir(), 'plugcmd-home-'));
  const dir = mkdtempSync(join(tmpdir(), 'plugcmd-src-'));
  const env: NodeJS.ProcessEnv = {};
  if (opts.catalog) {
    writeFileSync(join(dir, 'marketplace.json'), JSON.stringify(opts.catalog));
    env[MARKETPLACE_ENV] = join(dir, 'marketplace.json');
  }
  const r: Recorder = {
    notices: [],
    popups: [],
    picks: [],
    panels: [],
    reloads: 0,
    home,
    dir,
    manager: new PluginManager({ home, cwd: dir, env }),
    async notice(re) {
      for (const end = Date.now() + 15_000; Date.now() < end;) {
        const found = r.notices.find((n) => re.test(n));
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error(`no notice matched ${re}; notices: ${JSON.stringify(r.notices)}`);
    },
    host: undefined as unknown as CommandHost,
  };
  const panelHost: PanelHost = {
    terminal: { rows: 40, columns: 100 },
    requestRender: () => undefined,
    close: () => undefined,
  };
  // Only what /plugins uses; the rest of the host is never touched by these commands.
  r.host = {
    home,
    cwd: dir,
    busy: !!opts.busy,
    compacting: false,
    pluginSettings: { env, allowPrivateNetwork: false },
    notice: (level: string, text: string, hint?: string) =>
      void r.notices.push(`${level}: ${text}${hint ? ` [${hint}]` : ''}`),
    popup: (title: string, lines: string[]) => void r.popups.push({ title, lines }),
    pick: (title: string, items: PickItem[], onPick: (v: string) => void, body?: string[]) =>
      void r.picks.push({ title, items, onPick, body }),
    theme: loadTheme('dark', '/nonexistent').theme,
    showPanel: (make: (host: PanelHost) => Component) => void r.panels.push(make(panelHost)),
    reload: async () => void r.reloads++,
  } as unknown as CommandHost;
  return r;
}

function plugin(root: string, id: string, manifest: Record<string, unknown> = {}): string {
  const dir = join(root, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'jarvis.plugin.json'), JSON.stringify({ name: id, version: '1.0.0', ...manifest }));
  return dir;
}

describe('/plugins subcommands', () => {
  it('install asks first (third-party); Install installs, Cancel does not', async () => {
    const r = recorder();
    const dir = plugin(r.dir, 'acme');
    await runPluginsCommand(r.host, `install ${dir}`);
    expect(r.picks[0].title).toBe(`Install the third-party plugin from ${dir}?`);
    expect(r.picks[0].body?.[0]).toMatch(/It is not an official plugin/);
    r.picks[0].onPick('cancel');
    expect(r.notices).toEqual(['info: Nothing was installed.']);
    await runPluginsCommand(r.host, `install ${dir}`);
    r.picks[1].onPick('install');
    expect(await r.notice(/Installed/)).toBe(
      'success: Installed the plugin acme 1.0.0. [Changes apply after /reload or /new.]',
    );
    expect((await r.manager.info('acme')).tier).toBe('third-party');
  });

  it('install lists, as information, the shell commands its commands run before sending (!`cmd` lines)', async () => {
    const r = recorder();
    const dir = plugin(r.dir, 'gitflow', { commands: './commands' });
    mkdirSync(join(dir, 'commands'));
    writeFileSync(join(dir, 'commands/commit.md'), 'Status: !`git status`\nDiff: !`git diff HEAD`\nCommit.');
    writeFileSync(join(dir, 'commands/plain.md'), 'No shell here.');
    await runPluginsCommand(r.host, `install ${dir}`);
    r.picks[0].onPick('install');
    await r.notice(/Installed/);
    expect(r.notices.filter((n) => n.includes('Shell commands'))).toEqual([
      [
        'info: Shell commands its commands run before sending their prompt (their !`cmd` lines):',
        '  /gitflow:commit:',
        '    git status',
        '    git diff HEAD',
      ].join('\n'),
    ]);
  });

  it('install from a path that is no plugin says why', async () => {
    const r = recorder();
    mkdirSync(join(r.dir, 'empty'));
    await runPluginsCommand(r.host, 'install ./empty');
    r.picks[0].onPick('install');
    expect(await r.notice(/^error:/)).toMatch(/^error: Could not install \.\/empty: /);
    expect(await r.manager.list()).toEqual([]);
  });

  it('list, info, enable, disable, mcp enable|disable', async () => {
    const r = recorder();
    await runPluginsCommand(r.host, 'list');
    expect(r.popups[0]).toEqual({
      title: 'Plugins (0)',
      lines: [
        'No plugins are installed.',
        '',
        'Install one with /plugins install <path-or-url>, or browse with /plugins.',
      ],
    });
    await r.manager.install(
      plugin(r.dir, 'acme', {
        interface: { displayName: 'Acme' },
        mcpServers: { data: { command: 'node', args: ['s.js'] } },
        apps: {},
      }),
    );

    await runPluginsCommand(r.host, 'disable acme');
    await runPluginsCommand(r.host, 'mcp disable acme data');
    await runPluginsCommand(r.host, 'list');
    expect(r.popups[1].lines).toEqual(['○ acme 1.0.0 — Acme  (disabled · 1 diagnostic)']);
    await runPluginsCommand(r.host, 'enable acme');
    await runPluginsCommand(r.host, 'mcp enable acme data');
    expect(r.notices).toEqual([
      'success: Disabled the plugin acme. [Changes apply after /reload or /new.]',
      'success: Disabled the MCP server data of the plugin acme. [It starts or stops after /reload or /new.]',
      'success: Enabled the plugin acme. [Changes apply after /reload or /new.]',
      'success: Enabled the MCP server data of the plugin acme. [It starts or stops after /reload or /new.]',
    ]);

    await runPluginsCommand(r.host, 'info acme');
    const info = r.popups[2];
    expect(info.title).toBe('Plugin: Acme');
    expect(info.lines[0]).toBe('Acme (acme) 1.0.0 — enabled');
    expect(info.lines).toContain('MCP servers:');
    expect(info.lines).toContain('Diagnostics:');
    expect(info.lines.some((l) => l.startsWith('  - ') && l.includes('apps'))).toBe(true);
  });

  it('errors name the problem: unknown ids, unknown servers, bad usage', async () => {
    const r = recorder();
    await r.manager.install(plugin(r.dir, 'acme'));
    await runPluginsCommand(r.host, 'info nope');
    await runPluginsCommand(r.host, 'mcp disable acme ghost');
    await runPluginsCommand(r.host, 'enable');
    await runPluginsCommand(r.host, 'frobnicate');
    expect(r.notices[0]).toMatch(/^error: \/plugins info: no plugin "nope" is installed \(installed: acme\)/);
    expect(r.notices[1]).toMatch(/^error: \/plugins mcp: the plugin "acme" declares no MCP server "ghost"/);
    expect(r.notices[2]).toMatch(/^error: Expected \/plugins enable <id>\. \[Usage: \/plugins \[list/);
    expect(r.notices[3]).toMatch(/^error: Unknown \/plugins subcommand "frobnicate"\./);
  });

  it('remove asks first and deletes only the record', async () => {
    const r = recorder();
    await r.manager.install(plugin(r.dir, 'acme'));
    await runPluginsCommand(r.host, 'remove acme');
    expect(r.picks[0].title).toBe('Remove the plugin acme?');
    r.picks[0].onPick('cancel');
    expect(await r.manager.list()).toHaveLength(1);
    await runPluginsCommand(r.host, 'remove acme');
    r.picks[1].onPick('remove');
    await r.notice(/Removed the plugin acme/);
    expect(await r.manager.list()).toEqual([]);
  });

  it('reload reads the manifests, reports broken plugins, and reopens the session only when idle', async () => {
    const r = recorder();
    const dir = plugin(r.dir, 'acme');
    await r.manager.install(dir);
    writeFileSync(join(r.home, 'plugins', 'managed', 'acme', 'jarvis.plugin.json'), '{ broken');
    await runPluginsCommand(r.host, 'reload');
    expect(r.notices[0]).toMatch(
      /^warning: The plugin acme cannot load: .* \[\/plugins info acme shows its diagnostics\.\]$/,
    );
    expect(r.notices[1]).toBe('info: Read 1 plugin (0 enabled).');
    expect(r.reloads).toBe(1);
    const busy = recorder({ busy: true });
    await runPluginsCommand(busy.host, 'reload');
    expect(busy.reloads).toBe(0);
    expect(busy.notices).toContain('info: The session picks them up after /reload, once the agent is idle.');
  });

  it('no argument opens the manager; marketplace opens it on Official, or on Curated for a named catalog', async () => {
    const r = recorder();
    await runPluginsCommand(r.host, '');
    await runPluginsCommand(r.host, 'marketplace');
    writeFileSync(join(r.dir, 'other.json'), JSON.stringify({ version: '2', plugins: [] }));
    await runPluginsCommand(r.host, 'marketplace ./other.json');
    expect(r.panels).toHaveLength(3);
    const tabOf = (p: Component) => /\x1b\[7m ([A-Za-z]+) /.exec((p as PluginsPanel).render(80)[1])?.[1];
    expect(r.panels.map(tabOf)).toEqual(['Installed', 'Official', 'Curated']);
  });
});

describe('the official update notice', () => {
  it('names an installed official plugin the default marketplace has a newer version of', async () => {
    const r = recorder({
      catalog: {
        version: '2',
        plugins: [{ id: 'docs', source: './docs', tier: 'official', displayName: 'Docs', version: '1.2.0' }],
      },
    });
    await announcePluginUpdates(r.host);
    expect(r.notices).toEqual([]);
    await r.manager.install(plugin(r.dir, 'docs'), { tier: 'official' });
    await announcePluginUpdates(r.host);
    expect(r.notices).toEqual([
      'info: An update of the official plugin Docs is available: 1.0.0 → 1.2.0. [Install it from /plugins (Official tab, Enter), then /reload.]',
    ]);
  });
});
