// The /plugins manager panel, driven by keys without a terminal, over a real PluginManager in a temporary
// home and marketplace files on disk: the four tabs, installs from each tab (third-party ones confirmed),
// updates, Space / D / M / R / I / Esc, and how a broken marketplace shows.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { visibleWidth } from '@mariozechner/pi-tui';
import { describe, expect, it } from 'vitest';
import { loadMarketplace, MARKETPLACE_ENV } from '../../src/ext/plugins/marketplace';
import { PluginManager } from '../../src/ext/plugins/manager';
import { PluginsPanel, type PluginsTab } from '../../src/ui/plugins/pluginsPanel';
import { loadTheme } from '../../src/ui/theme';

const theme = loadTheme('dark', '/nonexistent').theme;
const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, '');
const KEY = { tab: '\t', shiftTab: '\x1b[Z', enter: '\r', esc: '\x1b', space: ' ', down: '\x1b[B', up: '\x1b[A' };

function pluginFolder(root: string, id: string, version: string, extra: Record<string, unknown> = {}): string {
  const dir = join(root, `${id}-${version}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'jarvis.plugin.json'),
    JSON.stringify({ name: id, version, description: `The ${id} plugin`, ...extra }),
  );
  return dir;
}

interface Harness {
  panel: PluginsPanel;
  manager: PluginManager;
  notices: string[];
  closed: () => boolean;
  text(): string;
  keys(...keys: string[]): void;
  until(text: string | RegExp): Promise<string>;
  fixtures: string;
  home: string;
}

async function open(
  opts: { catalog?: object | string; initialTab?: PluginsTab; defaultCatalog?: boolean; home?: string } = {},
): Promise<Harness> {
  const home = opts.home ?? mkdtempSync(join(tmpdir(), 'plugins-home-'));
  const fixtures = mkdtempSync(join(tmpdir(), 'plugins-src-'));
  const catalogPath = join(fixtures, 'marketplace.json');
  writeFileSync(
    catalogPath,
    typeof opts.catalog === 'string' ? opts.catalog : JSON.stringify(opts.catalog ?? { version: '2', plugins: [] }),
  );
  const manager = new PluginManager({ home, cwd: fixtures, env: {} });
  const notices: string[] = [];
  let closed = false;
  const env = { [MARKETPLACE_ENV]: catalogPath };
  const panel = new PluginsPanel({
    theme: () => theme,
    rows: () => 40,
    manager,
    loadCatalog: () => loadMarketplace(opts.defaultCatalog === false ? catalogPath : undefined, { env, cwd: fixtures }),
    notice: (level, text, hint) => notices.push(`${level}: ${text}${hint ? ` [${hint}]` : ''}`),
    requestRender: () => undefined,
    close: () => (closed = true),
    initialTab: opts.initialTab,
  });
  const text = () => panel.render(100).map(plain).join('\n');
  return {
    panel,
    manager,
    notices,
    fixtures,
    home,
    closed: () => closed,
    text,
    keys: (...keys) => keys.forEach((k) => panel.handleInput(k)),
    async until(wanted) {
      // Polls (installs touch the disk); the bound only ends a test that would otherwise hang.
      for (const end = Date.now() + 15_000; Date.now() < end;) {
        const t = text();
        if (typeof wanted === 'string' ? t.includes(wanted) : wanted.test(t)) return t;
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new Error(`the panel never showed ${String(wanted)}; it shows:\n${text()}`);
    },
  };
}

const activeTab = (h: Harness) => /\x1b\[7m ([A-Za-z]+) /.exec(h.panel.render(100)[1])?.[1];

describe('the /plugins manager panel', () => {
  it('switches between the four tabs with Tab and Shift-Tab, and Esc closes it', async () => {
    const h = await open();
    await h.until('No plugins are installed');
    expect(activeTab(h)).toBe('Installed');
    const seen = [];
    for (let i = 0; i < 4; i++) {
      h.keys(KEY.tab);
      seen.push(activeTab(h));
    }
    expect(seen).toEqual(['Official', 'Curated', 'Custom', 'Installed']);
    h.keys(KEY.shiftTab);
    expect(activeTab(h)).toBe('Custom');
    expect(h.text()).toContain('Install a plugin from a local folder, a zip URL, or a GitHub URL');
    for (const line of h.panel.render(70)) expect(visibleWidth(line)).toBeLessThanOrEqual(68);
    h.keys(KEY.esc);
    expect(h.closed()).toBe(true);
  });

  it('installs an official entry without asking, then offers and installs its update', async () => {
    const src = mkdtempSync(join(tmpdir(), 'official-'));
    const v1 = pluginFolder(src, 'docs', '1.0.0');
    const h = await open({
      catalog: {
        version: '2',
        plugins: [{ id: 'docs', source: v1, tier: 'official', displayName: 'Docs', version: '1.0.0' }],
      },
      initialTab: 'official',
    });
    await h.until('Docs 1.0.0');
    h.keys(KEY.enter);
    await h.until('Installed the plugin docs 1.0.0. Changes apply after /reload or /new.');
    expect(h.notices).toContain('success: Installed the plugin docs 1.0.0. [Changes apply after /reload or /new.]');
    expect((await h.manager.list()).map((v) => [v.id, v.tier])).toEqual([['docs', 'official']]);

    // The marketplace now has 1.1.0: the Installed tab says so, and Enter installs it.
    const v2 = pluginFolder(src, 'docs', '1.1.0');
    const later = await open({
      home: h.home,
      catalog: { version: '2', plugins: [{ id: 'docs', source: v2, tier: 'official', version: '1.1.0' }] },
    });
    await later.until('docs 1.0.0  (update 1.1.0 available)');
    later.keys(KEY.enter);
    await later.until('Updated the plugin docs 1.1.0 (was 1.0.0).');
    expect((await h.manager.info('docs')).version).toBe('1.1.0');
  });

  it('asks before a curated install; n cancels, Enter on Install installs', async () => {
    const src = mkdtempSync(join(tmpdir(), 'curated-'));
    const dir = pluginFolder(src, 'helper', '0.2.0');
    const h = await open({
      catalog: { version: '1', plugins: [{ id: 'helper', source: dir, tier: 'curated', displayName: 'Helper' }] },
      initialTab: 'curated',
    });
    await h.until('Helper');
    h.keys(KEY.enter);
    await h.until('Install the third-party plugin Helper?');
    expect(h.text()).toContain('It is not an official plugin.');
    h.keys('n');
    await h.until('Cancelled.');
    expect(await h.manager.list()).toEqual([]);
    h.keys(KEY.enter, KEY.enter);
    await h.until('Installed the plugin helper 0.2.0.');
    expect((await h.manager.info('helper')).tier).toBe('curated');
  });

  it('installs from the Custom tab after a confirmation and shows it on the Installed tab', async () => {
    const h = await open({ initialTab: 'custom' });
    const dir = pluginFolder(h.fixtures, 'local-one', '3.0.0');
    h.keys(KEY.enter);
    expect(h.text()).toContain('Type a folder path, a zip URL or a GitHub URL first.');
    for (const ch of dir) h.keys(ch);
    h.keys(KEY.enter);
    await h.until('Install the third-party plugin');
    h.keys('y');
    await h.until('Installed the plugin local-one 3.0.0.');
    expect(activeTab(h)).toBe('Installed');
    expect(h.text()).toMatch(/● local-one 3\.0\.0 *$/m);
    expect((await h.manager.info('local-one')).tier).toBe('third-party');
    expect(h.notices.filter((n) => n.includes('Shell commands'))).toEqual([]);
  });

  it('an install whose commands have !`cmd` lines lists their shell commands as an info notice', async () => {
    const h = await open({ initialTab: 'custom' });
    const dir = pluginFolder(h.fixtures, 'shelly', '1.0.0', { commands: './commands' });
    mkdirSync(join(dir, 'commands'));
    writeFileSync(join(dir, 'commands/status.md'), 'Status: !`git status --short`');
    for (const ch of dir) h.keys(ch);
    h.keys(KEY.enter);
    await h.until('Install the third-party plugin');
    h.keys('y');
    await h.until('Installed the plugin shelly 1.0.0.');
    expect(h.notices).toContain(
      'info: Shell commands its commands run before sending their prompt (their !`cmd` lines):\n' +
        '  /shelly:status:\n    git status --short',
    );
  });

  it('Space disables and enables, M switches MCP servers, I shows details, D removes after asking, R reloads', async () => {
    const h = await open();
    const dir = pluginFolder(h.fixtures, 'acme', '1.0.0', {
      mcpServers: { finance: { command: 'node', args: ['server.js'] } },
      tools: ['x'],
    });
    await h.manager.install(dir);
    h.keys('r');
    await h.until('Reloaded 1 plugin.');
    expect(h.text()).toContain('● acme 1.0.0');

    h.keys(KEY.space);
    await h.until('Disabled the plugin acme.');
    expect(h.text()).toContain('○ acme 1.0.0');
    expect((await h.manager.info('acme')).enabled).toBe(false);
    h.keys(KEY.space);
    await h.until('Enabled the plugin acme.');
    expect((await h.manager.info('acme')).enabled).toBe(true);

    h.keys('m');
    await h.until('MCP servers of acme');
    expect(h.text()).toContain('[x] finance');
    h.keys(KEY.space);
    await h.until('[ ] finance');
    expect((await h.manager.info('acme')).mcpServers).toEqual([
      expect.objectContaining({ name: 'finance', enabled: false }),
    ]);
    h.keys(KEY.esc);

    h.keys('i');
    const details = await h.until('Diagnostics');
    expect(details).toMatch(/tools/);
    h.keys(KEY.esc);
    expect(h.closed()).toBe(false);

    h.keys('d');
    await h.until('Remove the plugin acme?');
    h.keys(KEY.enter);
    await h.until('Cancelled.');
    h.keys('d', 'y');
    await h.until('Removed the plugin acme.');
    expect(await h.manager.list()).toEqual([]);
  });

  it('lists the good entries of a marketplace with bad ones and names the problems; a broken file is an error', async () => {
    const h = await open({
      catalog: {
        version: '2',
        plugins: [
          { id: 'ok', source: './ok', tier: 'curated', displayName: 'Fine One' },
          { id: 'Bad Id', source: './x' },
        ],
      },
      initialTab: 'curated',
    });
    const text = await h.until('Fine One');
    expect(text).toContain('1 problem in the marketplace file:');
    expect(text).toContain('plugins[1] "Bad Id": the id must match');
    const broken = await open({ catalog: '{ not json', initialTab: 'official' });
    const error = (await broken.until('The marketplace could not be loaded')).replace(/[│\s]+/g, ' ');
    expect(error).toMatch(
      /The marketplace could not be loaded: The plugin marketplace .*marketplace\.json is not valid JSON/,
    );
  });

  it('does not believe "official" from a marketplace named ad hoc: its installs ask first', async () => {
    const src = mkdtempSync(join(tmpdir(), 'adhoc-'));
    const dir = pluginFolder(src, 'sneaky', '1.0.0');
    const h = await open({
      catalog: { version: '2', plugins: [{ id: 'sneaky', source: dir, tier: 'official' }] },
      defaultCatalog: false,
      initialTab: 'official',
    });
    await h.until('This marketplace lists no official plugins.');
    h.keys(KEY.tab);
    await h.until('sneaky');
    expect(h.text()).toContain('third-party');
    h.keys(KEY.enter);
    await h.until('Install the third-party plugin sneaky?');
  });
});
