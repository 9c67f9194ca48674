import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, collect, makeCliDirs, runJarvis, spawnJarvis } from '../helpers/cli';
import { pluginFolder } from '../ext/plugins/pluginFixture';
import { writeZip } from '../../src/platform/zip';

function acme(dir?: string) {
  return pluginFolder(
    {
      'jarvis.plugin.json': {
        name: 'acme',
        version: '1.0.0',
        interface: { displayName: 'Acme' },
        commands: './commands',
        tools: [],
        mcpServers: { srv: { command: 'node', args: ['x.mjs'] } },
      },
      'commands/report.md': '---\ndescription: Report a ticker\n---\nReport $ARGUMENTS',
      'skills/s/SKILL.md': '---\nname: s\ndescription: d\n---\nb',
    },
    dir,
  );
}

describe('jarvis plugin (shell)', () => {
  it('install, list, info, disable, enable, remove; errors exit 1 with the reason', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    const run = (...args: string[]) => runJarvis(['plugin', ...args], { env, cwd: dirs.cwd });
    const source = acme();
    const installed = await run('install', source);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain(`Installed acme 1.0.0 to ${join(dirs.home, 'plugins/managed/acme')} (enabled).`);
    expect(installed.stdout).toContain('"tools" is not supported');

    const list = await run('list');
    expect(list.stdout.trim()).toBe(
      'acme 1.0.0  enabled  (1 command, 1 MCP server) — 1 diagnostic (jarvis plugin info acme)',
    );
    const info = await run('info', 'acme');
    expect(info.stdout).toContain('Acme (acme) 1.0.0 — enabled');
    expect(info.stdout).toContain('/acme:report — Report a ticker');
    expect(info.stdout).toContain('srv  on  node x.mjs  (tools mcp__plugin-acme_srv__*)');
    expect(info.stdout).toContain('  - "tools" is not supported by Jarvis Code plugins; ignored');
    const json = await run('list', '--json');
    expect(JSON.parse(json.stdout)[0]).toMatchObject({ id: 'acme', enabled: true, sourceKind: 'local' });

    expect((await run('disable', 'acme')).stdout).toContain('Disabled acme.');
    expect((await run('reload')).stdout).toContain('acme 1.0.0  disabled');
    expect((await run('enable', 'acme')).stdout).toContain('Enabled acme.');
    const removed = await run('remove', 'acme');
    expect(removed.stdout).toContain(`Removed acme. Its files stay in ${join(dirs.home, 'plugins/managed/acme')}`);
    expect(existsSync(join(dirs.home, 'plugins/managed/acme/jarvis.plugin.json'))).toBe(true);
    expect((await run('list')).stdout).toContain('No plugins are installed.');

    const missing = await run('enable', 'acme');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('jarvis plugin enable: no plugin "acme" is installed');
    const bad = await run('install', join(dirs.cwd, 'nothing-here'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/jarvis plugin install: .*does not exist/);
  });

  it('installing a newer version over an installed one says from which version to which, and where', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    const source = acme();
    expect((await runJarvis(['plugin', 'install', source], { env, cwd: dirs.cwd })).code).toBe(0);
    const manifestPath = join(source, 'jarvis.plugin.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, version: '1.1.0' }));
    const updated = await runJarvis(['plugin', 'install', source], { env, cwd: dirs.cwd });
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain(
      `Updated acme from 1.0.0 to 1.1.0 in ${join(dirs.home, 'plugins/managed/acme')} (enabled).`,
    );
  });

  it('a ZIP with a symlink entry and a file under it: one line on stderr, exit 1, no stack', async () => {
    const dirs = makeCliDirs();
    const archive = join(dirs.cwd, 'evil.zip');
    await writeZip(archive, [
      { name: 'jarvis.plugin.json', data: Buffer.from(JSON.stringify({ name: 'evil', version: '1.0.0' })) },
      { name: 'skills/evil', data: Buffer.from('/tmp'), mode: 0o120777 },
      { name: 'skills/evil/x', data: Buffer.from('payload') },
    ]);
    const r = await runJarvis(['plugin', 'install', archive], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(
      'the entry "skills/evil/x" lies under "skills/evil", which the archive also holds as a file or a symbolic link',
    );
    expect(r.stderr).not.toMatch(/\n\s+at |Error:/);
  });

  it('two processes installing at once both land in installed.json', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    const a = pluginFolder({ 'jarvis.plugin.json': { name: 'first' } });
    const b = pluginFolder({ 'jarvis.plugin.json': { name: 'second' } });
    const [ra, rb] = await Promise.all([
      collect(spawnJarvis(['plugin', 'install', a], { env, cwd: dirs.cwd })),
      collect(spawnJarvis(['plugin', 'install', b], { env, cwd: dirs.cwd })),
    ]);
    expect([ra.code, rb.code]).toEqual([0, 0]);
    const doc = JSON.parse(readFileSync(join(dirs.home, 'plugins/installed.json'), 'utf8'));
    expect(doc.plugins.map((p: { id: string }) => p.id).sort()).toEqual(['first', 'second']);
  });

  it('a broken installed.json is reported, not overwritten', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dirs.home, 'plugins'), { recursive: true });
    writeFileSync(join(dirs.home, 'plugins/installed.json'), 'nope');
    const list = await runJarvis(['plugin', 'list'], { env, cwd: dirs.cwd });
    expect(list.stderr).toMatch(/installed\.json is not valid JSON/);
    const install = await runJarvis(['plugin', 'install', acme()], { env, cwd: dirs.cwd });
    expect(install.code).toBe(1);
    expect(readFileSync(join(dirs.home, 'plugins/installed.json'), 'utf8')).toBe('nope');
  });
});
