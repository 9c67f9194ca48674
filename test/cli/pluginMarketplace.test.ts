// `jarvis plugin marketplace [source]` (docs/plugins.md "Marketplaces"): the built binary lists the
// shipped marketplace, a file given on the command line, and a loopback http marketplace set with
// JARVIS_CODE_PLUGIN_MARKETPLACE_URL, with install state, updates and the problems of bad entries.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, runJarvis } from '../helpers/cli';
import { serve, startFixtureServer, type FixtureServer } from '../helpers/fixtureServer';
import { pluginFolder } from '../ext/plugins/pluginFixture';

describe('jarvis plugin marketplace', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(() => server.close());

  it('lists the marketplace shipped with Jarvis by default', async () => {
    const dirs = makeCliDirs();
    const out = await runJarvis(['plugin', 'marketplace'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Marketplace .*plugins\/marketplace\.json \(default\)$/m);
    expect(out.stdout).toContain('Curated\n  superpowers — Superpowers  (not installed)');
    expect(out.stdout).toContain('      source: https://github.com/obra/superpowers');
  });

  it('lists a file named on the command line: tiers as given (never official), install state, and the problems', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    const acme = pluginFolder({ 'jarvis.plugin.json': { name: 'acme', version: '1.0.0' } });
    expect((await runJarvis(['plugin', 'install', acme], { env, cwd: dirs.cwd })).code).toBe(0);
    writeFileSync(
      join(dirs.cwd, 'market.json'),
      JSON.stringify({
        version: '1',
        plugins: [
          {
            id: 'acme',
            source: './acme',
            tier: 'official',
            version: '1.1.0',
            displayName: 'Acme',
            description: 'Acme things',
          },
          { id: 'Bad', source: './bad' },
          { id: 'other', source: 'https://github.com/o/other', tier: 'curated' },
        ],
      }),
    );
    const out = await runJarvis(['plugin', 'marketplace', 'market.json'], { env, cwd: dirs.cwd });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Marketplace ${join(dirs.cwd, 'market.json')}\n`);
    expect(out.stdout).toContain('Curated\n  other  (not installed)\n      source: https://github.com/o/other');
    expect(out.stdout).toContain(
      `Third-party\n  acme 1.1.0 — Acme  (installed 1.0.0, update 1.1.0 available)\n      Acme things\n      source: ${join(dirs.cwd, 'acme')}`,
    );
    expect(out.stdout).toContain('Problems (2):');
    expect(out.stdout).toContain(
      '  - plugins[0] "acme": only the default marketplace can list official plugins; listed as third-party.',
    );
    expect(out.stdout).toContain('  - plugins[1] "Bad": the id must match');

    const json = JSON.parse(
      (await runJarvis(['plugin', 'marketplace', 'market.json', '--json'], { env, cwd: dirs.cwd })).stdout,
    );
    expect(
      json.entries.map((e: { id: string; installedVersion?: string | null; update?: string | null }) => [
        e.id,
        e.installedVersion,
        e.update,
      ]),
    ).toEqual([
      ['acme', '1.0.0', '1.1.0'],
      ['other', undefined, undefined],
    ]);
    expect(json.diagnostics).toHaveLength(2);
  });

  it('reads JARVIS_CODE_PLUGIN_MARKETPLACE_URL over http when [web] allows loopback; refuses it otherwise', async () => {
    server.route(
      '/m.json',
      serve(
        JSON.stringify({
          version: '2',
          plugins: [{ id: 'docs', source: 'docs.zip', tier: 'official', version: '2.0.0' }],
        }),
        'application/json',
      ),
    );
    const dirs = makeCliDirs();
    const env = cliEnv(dirs, { JARVIS_CODE_PLUGIN_MARKETPLACE_URL: `${server.url}/m.json` });
    const refused = await runJarvis(['plugin', 'marketplace'], { env, cwd: dirs.cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `jarvis plugin marketplace: Could not fetch the plugin marketplace ${server.url}/m.json: Refused to fetch`,
    );
    writeFileSync(join(dirs.home, 'config.toml'), '[web]\nallow_private_network = true\n');
    const out = await runJarvis(['plugin', 'marketplace'], { env, cwd: dirs.cwd });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Marketplace ${server.url}/m.json (default)`);
    expect(out.stdout).toContain(`Official\n  docs 2.0.0  (not installed)\n      source: ${server.url}/docs.zip`);
  });

  it('a marketplace that cannot be read exits 1 with the reason', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.cwd, 'broken.json'), '{"version": "2", "plugins": [');
    const broken = await runJarvis(['plugin', 'marketplace', 'broken.json'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(
      /^jarvis plugin marketplace: The plugin marketplace .*broken\.json is not valid JSON/,
    );
    const missing = await runJarvis(['plugin', 'marketplace', 'nowhere.json'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no such file');
  });
});
