// Installing a plugin whose commands hold `` !`cmd` `` lines lists, per command, the shell commands it runs
// before sending (an info line, not a diagnostic), so the user deciding to trust it can read them
// (docs/plugins.md, "Managing plugins from the shell").
import { describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, runJarvis } from '../helpers/cli';
import { pluginFolder } from '../ext/plugins/pluginFixture';

const COMMIT = [
  '---',
  'allowed-tools: Bash(git status:*)',
  'description: Create a git commit',
  '---',
  '- Status: !`git status`',
  '- Diff: !`git diff HEAD`',
  'Commit it. $ARGUMENTS',
].join('\n');

function gitflow(): string {
  return pluginFolder({
    '.claude-plugin/plugin.json': { name: 'gitflow', version: '1.0.0' },
    'commands/commit.md': COMMIT,
    'commands/plain.md': '---\ndescription: No shell\n---\nJust text with `code` and ! marks!',
    'commands/env.md': 'Environment: !`cat ${CLAUDE_PLUGIN_ROOT}/.env`',
  });
}

describe('jarvis plugin install: shell commands of !`cmd` lines', () => {
  it('install and info list each command that runs shell commands, with its commands in order', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    const run = (...args: string[]) => runJarvis(['plugin', ...args], { env, cwd: dirs.cwd });
    const installed = await run('install', gitflow());
    expect(installed.code, installed.stderr).toBe(0);
    const block = [
      'Shell commands its commands run before sending their prompt (their !`cmd` lines):',
      '  /gitflow:commit:',
      '    git status',
      '    git diff HEAD',
      '  /gitflow:env:',
      '    cat ${CLAUDE_PLUGIN_ROOT}/.env',
    ].join('\n');
    expect(installed.stdout).toContain(block);
    expect(installed.stdout).not.toContain('/gitflow:plain:');
    expect(installed.stdout).not.toMatch(/Diagnostics:[\s\S]*git status/);

    const info = await run('info', 'gitflow');
    expect(info.stdout).toContain(block);
    const json = JSON.parse((await run('info', 'gitflow', '--json')).stdout) as {
      commands: Array<{ name: string; runs: string[] }>;
    };
    expect(json.commands.find((c) => c.name === 'gitflow:commit')?.runs).toEqual(['git status', 'git diff HEAD']);
    expect(json.commands.find((c) => c.name === 'gitflow:plain')?.runs).toEqual([]);
  });

  it('a plugin whose commands run nothing gets no such line', async () => {
    const dirs = makeCliDirs();
    const source = pluginFolder({
      '.claude-plugin/plugin.json': { name: 'quiet', version: '1.0.0' },
      'commands/hi.md': 'Say hi. !not a command',
    });
    const installed = await runJarvis(['plugin', 'install', source], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).not.toContain('Shell commands');
  });
});
