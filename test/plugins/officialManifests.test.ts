// The built official plugin folders of image_generation, audio_generation, jarvis-webbridge and jarvis-computer-use install
// through the plugin manager (src/ext/plugins) as they are: no diagnostics, their MCP server listed, and
// the managed copy keeps the server file runnable.
import { accessSync, constants, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PluginManager } from '../../src/ext/plugins/manager';

const DIST_PLUGINS = resolve(__dirname, '../../dist/plugins');

describe('official plugin folders', () => {
  it.each([
    ['image_generation', 'Image Generation', 'images', true],
    ['audio_generation', 'Audio Generation', 'speech', true],
    ['jarvis-webbridge', 'Jarvis WebBridge', 'browser', false],
    ['jarvis-computer-use', 'Jarvis Computer Use', 'desktop', true],
  ])('%s installs from its built folder with no diagnostics', async (id, displayName, server, bundledServer) => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-home-')));
    const manager = new PluginManager({ home, env: { HOME: home, PATH: process.env.PATH } });
    const { plugin } = await manager.install(join(DIST_PLUGINS, id), { tier: 'official' });
    expect(plugin).toMatchObject({ id, displayName, enabled: true, tier: 'official', diagnostics: [] });
    expect(plugin.error).toBeUndefined();
    expect(plugin.mcpServers).toEqual([
      expect.objectContaining({ name: server, enabled: true, runsAs: `plugin-${id}_${server}` }),
    ]);
    if (bundledServer) accessSync(join(plugin.root, 'bin', 'server.mjs'), constants.X_OK);
  });
});

describe('the shipped marketplace', () => {
  it('lists the four as Official entries whose sources are the built folders', async () => {
    const { loadMarketplace } = await import('../../src/ext/plugins/marketplace');
    const market = await loadMarketplace(undefined, { env: {}, cwd: process.cwd() });
    for (const id of ['image_generation', 'audio_generation', 'jarvis-webbridge', 'jarvis-computer-use']) {
      expect(market.entries.find((e) => e.id === id)).toMatchObject({
        tier: 'official',
        source: join(DIST_PLUGINS, id),
        version: '1.0.0',
      });
    }
    expect(market.diagnostics).toEqual([]);
  });
});
