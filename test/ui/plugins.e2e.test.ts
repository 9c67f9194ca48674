// The /plugins manager and /reload end to end (docs/plugins.md): the real binary in tmux, a marketplace
// file and plugin folders on disk, the mock model server.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, requestText, send, tempDir, waitForRequests } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

function pluginFolder(root: string, id: string, manifest: Record<string, unknown> = {}): string {
  const dir = join(root, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'jarvis.plugin.json'),
    JSON.stringify({ name: id, version: '1.0.0', description: `The ${id} plugin`, ...manifest }),
  );
  return dir;
}

const installed = (home: string) =>
  (
    JSON.parse(readFileSync(join(home, 'plugins', 'installed.json'), 'utf8')) as {
      plugins: Array<{ id: string; enabled: boolean; tier?: string }>;
    }
  ).plugins;

describe.skipIf(!hasTmux)('the /plugins manager (tmux)', { timeout: 90_000 }, () => {
  it('switches tabs, installs from the Custom tab after confirming, and disables the plugin with Space', async () => {
    const fixtures = tempDir('jarvis-plugin-src-');
    const custom = pluginFolder(fixtures, 'fixture-tools');
    pluginFolder(fixtures, 'house-docs');
    writeFileSync(
      join(fixtures, 'marketplace.json'),
      JSON.stringify({
        version: '2',
        plugins: [
          {
            id: 'house-docs',
            tier: 'official',
            displayName: 'House Docs',
            version: '1.0.0',
            description: 'Official documents helper',
            source: './house-docs',
          },
          {
            id: 'community-kit',
            tier: 'curated',
            displayName: 'Community Kit',
            description: 'A curated helper',
            source: './community-kit',
          },
        ],
      }),
    );
    const app = await start({ env: { JARVIS_CODE_PLUGIN_MARKETPLACE_URL: join(fixtures, 'marketplace.json') } });
    send(app, '/plugins');
    await app.tmux.waitFor('Space enable/disable');
    app.tmux.keys('Tab');
    await app.tmux.waitFor('House Docs 1.0.0');
    expect(app.tmux.screen()).not.toContain('Community Kit');
    app.tmux.keys('Tab');
    await app.tmux.waitFor('Community Kit');
    expect(app.tmux.screen()).not.toContain('House Docs');
    app.tmux.keys('BTab');
    await app.tmux.waitFor('House Docs 1.0.0');
    app.tmux.keys('Tab', 'Tab');
    await app.tmux.waitFor('Install a plugin from a local folder');

    app.tmux.type(custom);
    app.tmux.keys('Enter');
    await app.tmux.waitFor('Install the third-party plugin');
    app.tmux.keys('Enter');
    // Installed, then the Installed tab shows it enabled.
    await app.tmux.waitFor(/● fixture-tools 1\.0\.0/);
    expect(installed(app.home).find((p) => p.id === 'fixture-tools')).toMatchObject({
      enabled: true,
      tier: 'third-party',
    });

    app.tmux.keys('Space');
    await app.tmux.waitFor(/○ fixture-tools 1\.0\.0 +\(disabled\)/);
    expect(installed(app.home).find((p) => p.id === 'fixture-tools')).toMatchObject({ enabled: false });

    app.tmux.keys('Escape');
    const transcript = await app.tmux.waitForGone('Tab/Shift-Tab switch tabs');
    expect(transcript).toContain('Disabled the plugin fixture-tools.');
    expect(transcript).toContain('Changes apply after /reload or /new.');
  });

  it('a plugin installed, then disabled, in the running UI takes effect at /reload', async () => {
    const fixtures = tempDir('jarvis-plugin-src-');
    const dir = pluginFolder(fixtures, 'greeter', { commands: './commands' });
    mkdirSync(join(dir, 'commands'));
    writeFileSync(
      join(dir, 'commands', 'hello.md'),
      '---\ndescription: Say hello\n---\nGREETER-BODY: greet $ARGUMENTS warmly.\n',
    );
    const app = await start({ turns: [{ text: 'Greeted.' }, { text: 'Plain answer.' }] });
    send(app, `/plugins install ${dir}`);
    await app.tmux.waitFor('Install the third-party plugin from');
    app.tmux.keys('Enter');
    await app.tmux.waitFor('Installed the plugin greeter 1.0.0.');
    // No message yet, so no session: the plugin applies from the first message.
    send(app, '/reload');
    await app.tmux.waitFor('they apply from your first message');
    send(app, '/greeter:hello Ada');
    await app.tmux.waitFor('Greeted.');
    await waitForRequests(app, 1);
    expect(requestText(app, 0)).toContain('GREETER-BODY: greet Ada warmly.');

    send(app, '/plugins disable greeter');
    await app.tmux.waitFor('Disabled the plugin greeter.');
    send(app, '/reload');
    await app.tmux.waitFor('the session goes on with them');
    // The command is gone: the line is refused as an unknown name and stays in the input; nothing is sent.
    send(app, '/greeter:hello Bob');
    await app.tmux.waitFor('Unknown command /greeter:hello');
    expect(app.server.requests).toHaveLength(1);
    app.tmux.keys('C-u');
    send(app, 'hello Bob');
    await app.tmux.waitFor('Plain answer.');
    await waitForRequests(app, 2);
    expect(JSON.stringify(app.server.requests[1].body.messages.at(-1))).not.toContain('GREETER-BODY');
  });

  it('/reload reopens the session with what changed on disk; the conversation goes on', async () => {
    const app = await start({ turns: [{ text: 'First answer.' }, { text: 'Skill answer.' }] });
    send(app, 'hello');
    await app.tmux.waitFor('First answer.');
    // A skill added while the UI runs is unknown until /reload.
    mkdirSync(join(app.home, 'skills', 'greet'), { recursive: true });
    writeFileSync(
      join(app.home, 'skills', 'greet', 'SKILL.md'),
      '---\nname: greet\ndescription: Greets warmly\n---\nSay hello like a pirate.\n',
    );
    send(app, '/reload');
    await app.tmux.waitFor(
      'Reloaded config.toml, plugins, skills, agents, hooks and MCP servers; the session goes on with them.',
    );
    send(app, '/skill:greet');
    await app.tmux.waitFor('Skill answer.');
    await waitForRequests(app, 2);
    expect(requestText(app, 1)).toContain('Say hello like a pirate.');
    expect(requestText(app, 1)).toContain('First answer.');
  });

  it('/reload with a broken config.toml changes nothing and says what is wrong', async () => {
    const app = await start({ turns: [{ text: 'Still here.' }] });
    writeFileSync(join(app.home, 'config.toml'), 'default_model = [unclosed\n');
    send(app, '/reload');
    await app.tmux.waitFor('Nothing was reloaded: invalid configuration');
    send(app, 'are you there');
    await app.tmux.waitFor('Still here.');
  });
});
