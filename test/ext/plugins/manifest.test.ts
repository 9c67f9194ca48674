import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifest } from '../../../src/ext/plugins/manifest';
import { tempDir } from '../../helpers/files';
import { pluginFolder } from './pluginFixture';

describe('plugin manifest (SPEC §9.4)', () => {
  it('reads jarvis.plugin.json with every display field and the interface block', () => {
    const root = pluginFolder({
      'jarvis.plugin.json': {
        $schema: 'https://example.invalid/schema.json',
        name: 'acme-finance',
        version: '1.0.0',
        description: 'Finance flows',
        keywords: ['finance', 'data'],
        author: { name: 'Acme', email: 'a@example.com' },
        homepage: 'https://acme.example',
        license: 'MIT',
        interface: {
          displayName: 'Acme Finance',
          shortDescription: 'Market data',
          longDescription: 'Long',
          developerName: 'Acme Inc',
          websiteURL: 'https://acme.example',
        },
      },
    });
    const read = readManifest(root);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.diagnostics).toEqual([]);
    expect(read.manifest).toMatchObject({
      name: 'acme-finance',
      version: '1.0.0',
      description: 'Finance flows',
      keywords: ['finance', 'data'],
      author: 'Acme',
      homepage: 'https://acme.example',
      license: 'MIT',
      interface: {
        displayName: 'Acme Finance',
        shortDescription: 'Market data',
        longDescription: 'Long',
        developerName: 'Acme Inc',
        websiteURL: 'https://acme.example',
      },
      file: 'jarvis.plugin.json',
    });
  });

  it('jarvis.plugin.json wins over .kimi-plugin/plugin.json; the shadowed file is a diagnostic', () => {
    const root = pluginFolder({
      'jarvis.plugin.json': { name: 'winner' },
      '.kimi-plugin/plugin.json': { name: 'loser' },
    });
    const read = readManifest(root);
    expect(read.ok && read.manifest.name).toBe('winner');
    expect(read.diagnostics).toEqual(['.kimi-plugin/plugin.json is shadowed by jarvis.plugin.json and was not read']);
  });

  it('reads .kimi-plugin/plugin.json alone (Kimi Code plugins) and .jarvis-plugin/plugin.json above it', () => {
    expect(readManifest(pluginFolder({ '.kimi-plugin/plugin.json': { name: 'kimi-one' } }))).toMatchObject({
      ok: true,
      manifest: { name: 'kimi-one', file: '.kimi-plugin/plugin.json' },
    });
    const both = readManifest(
      pluginFolder({ '.jarvis-plugin/plugin.json': { name: 'j' }, '.kimi-plugin/plugin.json': { name: 'k' } }),
    );
    expect(both).toMatchObject({
      ok: true,
      manifest: { name: 'j' },
      diagnostics: ['.kimi-plugin/plugin.json is shadowed by .jarvis-plugin/plugin.json and was not read'],
    });
  });

  it('no manifest, another file name, broken JSON or a non-object fail to load with the reason', () => {
    expect(readManifest(pluginFolder({ 'plugin.json': { name: 'x' } }))).toMatchObject({
      ok: false,
      error: expect.stringContaining('no plugin manifest'),
    });
    expect(readManifest(pluginFolder({ '.claude-plugin/marketplace.json': { name: 'x' } }))).toMatchObject({
      ok: false,
      error: expect.stringContaining('no plugin manifest'),
    });
    expect(readManifest(pluginFolder({ 'jarvis.plugin.json': '{ "name": "x", ' }))).toMatchObject({
      ok: false,
      error: expect.stringContaining('not valid JSON'),
    });
    expect(readManifest(pluginFolder({ 'jarvis.plugin.json': '[1, 2]' }))).toMatchObject({
      ok: false,
      error: expect.stringContaining('must be a JSON object'),
    });
  });

  it('name is required and must match [a-z0-9][a-z0-9_-]{0,63}', () => {
    const bad = (name: unknown) => readManifest(pluginFolder({ 'jarvis.plugin.json': { name } }));
    expect(bad(undefined)).toMatchObject({ ok: false, error: expect.stringContaining('"name" is required') });
    for (const name of ['Acme', '-acme', '_x', 'a b', 'a.b', 'x'.repeat(65), '', 'ünï']) {
      expect(bad(name), name).toMatchObject({
        ok: false,
        error: expect.stringContaining('must match [a-z0-9][a-z0-9_-]{0,63}'),
      });
    }
    for (const name of ['a', '0', 'acme_finance-2', 'x'.repeat(64)]) expect(bad(name).ok, name).toBe(true);
  });

  it('unsupported tools/apps/inject/configFile and unknown fields are diagnostics and ignored', () => {
    const read = readManifest(
      pluginFolder({
        'jarvis.plugin.json': { name: 'p', tools: [], apps: {}, inject: 'x', configFile: './c.json', repository: 'r' },
      }),
    );
    expect(read.ok).toBe(true);
    expect(read.diagnostics).toEqual([
      '"tools" is not supported by Jarvis Code plugins; ignored',
      '"apps" is not supported by Jarvis Code plugins; ignored',
      '"inject" is not supported by Jarvis Code plugins; ignored',
      '"configFile" is not supported by Jarvis Code plugins; ignored',
      'unknown field "repository"; ignored',
    ]);
  });

  it('a field of the wrong shape is a diagnostic; the other fields still load', () => {
    const read = readManifest(
      pluginFolder({
        'jarvis.plugin.json': {
          name: 'p',
          version: 3,
          keywords: 'one',
          interface: { displayName: 5, shortDescription: 'ok' },
          skills: 7,
          sessionStart: 'skill',
          mcpServers: [],
          hooks: {},
          systemPrompt: 'kept',
        },
      }),
    );
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.diagnostics).toEqual(
      expect.arrayContaining([
        '"version" must be a string; ignored',
        '"keywords" must be an array of strings; ignored',
        '"interface.displayName" must be a string; ignored',
        '"skills" must be a "./" path or an array of them; ignored',
        '"sessionStart" must be an object like {"skill": "<name>"}; ignored',
        '"mcpServers" must be an object of servers by name; ignored',
        '"hooks" must be an array of {event, matcher, command, timeout} entries; ignored',
      ]),
    );
    expect(read.manifest).toMatchObject({ interface: { shortDescription: 'ok' }, systemPrompt: 'kept', skills: [] });
  });

  it('a manifest that is a symlink to a file outside the plugin is refused', () => {
    const outside = join(tempDir(), 'evil.json');
    writeFileSync(outside, JSON.stringify({ name: 'evil' }));
    const root = tempDir();
    symlinkSync(outside, join(root, 'jarvis.plugin.json'));
    expect(readManifest(root)).toMatchObject({
      ok: false,
      error: expect.stringContaining('outside the plugin folder'),
    });
    const viaDir = tempDir();
    mkdirSync(join(viaDir, 'x'));
    symlinkSync(join(outside, '..'), join(viaDir, '.kimi-plugin'));
    writeFileSync(join(outside, '..', 'plugin.json'), JSON.stringify({ name: 'evil' }));
    expect(readManifest(viaDir)).toMatchObject({
      ok: false,
      error: expect.stringContaining('outside the plugin folder'),
    });
  });
});
