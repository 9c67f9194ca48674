import { describe, expect, it } from 'vitest';
import {
  COMMAND_DESCRIPTION_MAX,
  expandPluginCommand,
  loadPluginCommands,
  NO_DESCRIPTION,
  parsePluginCommand,
} from '../../../src/ext/plugins/pluginCommands';
import { pluginFolder } from './pluginFixture';

async function commandsOf(files: Record<string, string>, paths: string[]) {
  const root = pluginFolder(files);
  const diagnostics: string[] = [];
  const commands = await loadPluginCommands(root, 'acme-finance', paths, (d) => diagnostics.push(d));
  return { commands, diagnostics };
}

describe('plugin slash commands (SPEC §9.4)', () => {
  it('a folder registers every .md under it by its relative path; frontmatter name wins', async () => {
    const { commands, diagnostics } = await commandsOf(
      {
        'commands/report.md': '---\ndescription: Fetch and summarise a stock\n---\n\nFetch $ARGUMENTS and summarise.',
        'commands/frontend/component.md': 'Build a component',
        'commands/renamed.md': '---\nname: custom/name\n---\nBody',
        'commands/notes.txt': 'not a command',
      },
      ['./commands/'],
    );
    expect(diagnostics).toEqual([]);
    expect(commands.map((c) => [c.name, c.command, c.description])).toEqual([
      ['acme-finance:frontend/component', 'frontend/component', 'Build a component'],
      ['acme-finance:custom/name', 'custom/name', 'Body'],
      ['acme-finance:report', 'report', 'Fetch and summarise a stock'],
    ]);
  });

  it('a single .md file registers only it; a non-.md file or a missing path is a diagnostic', async () => {
    const { commands, diagnostics } = await commandsOf({ 'one.md': 'One', 'two.md': 'Two', 'tool.sh': 'x' }, [
      './one.md',
      './tool.sh',
      './missing',
    ]);
    expect(commands.map((c) => c.name)).toEqual(['acme-finance:one']);
    expect(diagnostics).toEqual([
      'commands: "./tool.sh" is not a .md file or a folder; skipped',
      'commands: "./missing" does not exist; skipped',
    ]);
  });

  it('description: frontmatter, else the first non-empty body line cut at 240, else "No description provided."', async () => {
    const long = 'y'.repeat(300);
    const { commands } = await commandsOf(
      { 'c/long.md': `\n\n${long}\nmore`, 'c/empty.md': '---\nname: empty\n---\n\n' },
      ['./c'],
    );
    expect(commands.find((c) => c.command === 'long')?.description).toBe('y'.repeat(COMMAND_DESCRIPTION_MAX));
    expect(commands.find((c) => c.command === 'empty')?.description).toBe(NO_DESCRIPTION);
  });

  it('$ARGUMENTS is replaced (every occurrence); without it the arguments are appended as ARGUMENTS:', async () => {
    const { commands } = await commandsOf(
      { 'c/a.md': 'Fetch $ARGUMENTS now; compare $ARGUMENTS.', 'c/b.md': 'Summarise the repo.' },
      ['./c'],
    );
    const [a, b] = commands;
    expect(expandPluginCommand(a, 'TSLA')).toBe('Fetch TSLA now; compare TSLA.');
    expect(expandPluginCommand(a, '')).toBe('Fetch  now; compare .');
    expect(expandPluginCommand(b, 'focus on tests')).toBe('Summarise the repo.\n\nARGUMENTS: focus on tests');
    expect(expandPluginCommand(b, '')).toBe('Summarise the repo.');
  });

  it('parses /<plugin>:<command> args; unknown commands of a known plugin explain; other text is not a plugin command', async () => {
    const { commands } = await commandsOf({ 'c/report.md': 'Report on $ARGUMENTS' }, ['./c']);
    const plugins = ['acme-finance'];
    expect(parsePluginCommand('/acme-finance:report TSLA  ', commands, plugins)).toMatchObject({
      ok: true,
      args: 'TSLA',
      text: 'Report on TSLA',
    });
    expect(parsePluginCommand('/acme-finance:nope', commands, plugins)).toEqual({
      ok: false,
      message: 'The plugin "acme-finance" has no command "nope". Its commands: /acme-finance:report.',
    });
    expect(parsePluginCommand('/other:report', commands, plugins)).toBeUndefined();
    expect(parsePluginCommand('/skill:report', commands, plugins)).toBeUndefined();
    expect(parsePluginCommand('report TSLA', commands, plugins)).toBeUndefined();
  });
});
