// Claude Code command folders read as Claude Code names them (docs/compatibility.md, "Claude Code commands"): the
// path joined by `:`, project over user, a name owned elsewhere shadowed, links followed, fields not applied noted;
// the commands are listed by the `/` menu text and by ACP editors.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { availableCommands } from '../../../src/acp/slashCommands';
import { loadClaudeCommands, type ClaudeCommandFolder } from '../../../src/ext/commands/claudeCommands';
import { commandListDescription, parsePluginCommand } from '../../../src/ext/plugins/pluginCommands';
import { putFile, tempDir } from '../../helpers/files';

function folders(): { project: ClaudeCommandFolder; user: ClaudeCommandFolder } {
  return {
    project: { dir: join(tempDir(), '.claude', 'commands'), scope: 'project', off: false },
    user: { dir: join(tempDir(), '.claude', 'commands'), scope: 'user', off: false },
  };
}

describe('loadClaudeCommands', () => {
  it('names by path with `:`, the project before the user, a skill of the same name first', async () => {
    const { project, user } = folders();
    putFile(join(project.dir, 'review.md'), '---\ndescription: Project review\n---\nReview $1');
    putFile(join(project.dir, 'frontend/react/component.md'), 'Make a component $ARGUMENTS');
    putFile(join(project.dir, 'deploy.md'), 'Deploy');
    putFile(join(project.dir, '.hidden/x.md'), 'not read');
    putFile(join(project.dir, 'notes.txt'), 'not a command');
    putFile(join(user.dir, 'review.md'), 'Personal review');
    putFile(join(user.dir, 'standup.md'), 'Standup');
    const load = await loadClaudeCommands([project, user], (name) =>
      name === 'deploy' ? 'the skill deploy' : undefined,
    );
    expect(load.commands.map((c) => [c.name, c.scope])).toEqual([
      ['frontend:react:component', 'project'],
      ['review', 'project'],
      ['standup', 'user'],
    ]);
    expect(load.skipped).toEqual([
      { path: join(project.dir, 'deploy.md'), why: 'shadowed: /deploy is already the skill deploy' },
      { path: join(user.dir, 'review.md'), why: `shadowed: /review is already ${join(project.dir, 'review.md')}` },
    ]);
    expect(load.found.map((f) => f.names)).toEqual([['frontend:react:component', 'review'], ['standup']]);
  });

  it('lists with where it comes from; ACP editors get the name and the argument hint', async () => {
    const { project } = folders();
    putFile(
      join(project.dir, 'git/commit.md'),
      '---\ndescription: Commit\nargument-hint: [message]\n---\nCommit: $ARGUMENTS',
    );
    const { commands } = await loadClaudeCommands([project]);
    expect(commandListDescription(commands[0])).toBe('[message] — Commit (project:git)');
    const update = availableCommands({ ids: [], commands, promptSections: '', sessionStartSkills: [] }) as {
      availableCommands: Array<{ name: string; input?: unknown }>;
    };
    expect(update.availableCommands.find((c) => c.name === 'git:commit')?.input).toEqual({ hint: '[message]' });
    const parsed = parsePluginCommand('/git:commit fix the tests', commands, []);
    expect(parsed).toMatchObject({ ok: true, text: 'Commit: fix the tests' });
    expect(parsePluginCommand('/usr/bin/env ls', commands, [])).toBeUndefined();
  });

  it('follows a linked file or folder (a dotfiles manager); a broken link is reported, not dropped silently', async () => {
    const { user } = folders();
    const dotfiles = tempDir();
    putFile(join(dotfiles, 'standup.md'), 'Standup');
    putFile(join(dotfiles, 'team/retro.md'), 'Retro');
    mkdirSync(user.dir, { recursive: true });
    symlinkSync(join(dotfiles, 'standup.md'), join(user.dir, 'standup.md'));
    symlinkSync(join(dotfiles, 'team'), join(user.dir, 'team'));
    symlinkSync(join(dotfiles, 'gone.md'), join(user.dir, 'gone.md'));
    const load = await loadClaudeCommands([user]);
    expect(load.commands.map((c) => c.name)).toEqual(['standup', 'team:retro']);
    expect(load.skipped).toEqual([{ path: join(user.dir, 'gone.md'), why: 'cannot be read (ENOENT); a broken link?' }]);
  });

  it('notes what is not applied, once per field; supported fields never; a folder switched off is not read', async () => {
    const { project } = folders();
    putFile(
      join(project.dir, 'fix.md'),
      [
        '---',
        'description: Fix an issue',
        'allowed-tools: [Bash(git diff:*)]',
        'disable-model-invocation: true',
        'model: claude-3-5-haiku-20241022',
        'context: fork',
        'name: something-else',
        '---',
        'Fix #$1',
      ].join('\n'),
    );
    const [fix] = (await loadClaudeCommands([project])).commands;
    expect(fix.allowedTools).toEqual(['Bash(git diff:*)']);
    expect(fix.notes).toEqual([
      `"model" is not applied: the command runs on the session's model (switch with /model or --model)`,
      '"context" is not applied: the command runs in the conversation, not in a forked subagent',
      '"name: something-else" is not used: Claude Code names a command by its path (/fix)',
    ]);
    writeFileSync(join(project.dir, 'plain.md'), 'Plain');
    const off = await loadClaudeCommands([{ ...project, off: true }]);
    expect(off.commands).toEqual([]);
  });
});
