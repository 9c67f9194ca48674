// The session's `/names` (src/engine/delegation/slashNames.ts): one list from every source, and the message for a
// first word that names none of them — paths and plain text are not commands.
import { describe, expect, it } from 'vitest';
import {
  closestSlashNames,
  knownSlashNames,
  unknownSlashName,
  type SlashName,
} from '../../../src/engine/delegation/slashNames';
import type { PluginCommand } from '../../../src/ext/plugins/pluginCommands';
import type { SkillCatalog } from '../../../src/ext/skills/skillCatalog';

const skills = { all: [{ name: 'commit' }, { name: 'review-pr' }, { name: 'help' }] } as unknown as SkillCatalog;
const command = (plugin: string, name: string) =>
  ({ plugin, command: name, name: `${plugin}:${name}` }) as PluginCommand;
const known: SlashName[] = knownSlashNames({
  frontEnd: ['help', 'h', 'compact', 'model'],
  skills,
  plugins: { commands: [command('acme', 'report'), command('acme', 'frontend/component')] },
});
const nothingExists = () => false;

describe('slash names', () => {
  it('gathers front-end commands, skills (both forms unless a command has the name) and plugin commands', () => {
    expect(known).toEqual([
      { name: 'help', kind: 'command' },
      { name: 'h', kind: 'command' },
      { name: 'compact', kind: 'command' },
      { name: 'model', kind: 'command' },
      { name: 'skill:commit', kind: 'skill' },
      { name: 'commit', kind: 'skill' },
      { name: 'skill:review-pr', kind: 'skill' },
      { name: 'review-pr', kind: 'skill' },
      { name: 'skill:help', kind: 'skill' },
      { name: 'acme:report', kind: 'plugin command' },
      { name: 'acme:frontend/component', kind: 'plugin command' },
    ]);
  });

  it('an unknown name is refused with the closest names, whatever their source', () => {
    const typo = unknownSlashName('/comit the work', known, 'HINT', nothingExists);
    expect(typo?.name).toBe('comit');
    expect(typo?.message).toContain('Unknown command /comit');
    expect(typo?.message).toContain('nothing was sent');
    expect(typo?.message).toContain('/commit (skill)');
    expect(closestSlashNames('compcat', known).map((k) => k.name)).toEqual(['compact']);
    expect(closestSlashNames('acme:reprot', known).map((k) => k.name)).toEqual(['acme:report']);
    expect(closestSlashNames('review', known).map((k) => k.name)).toEqual(['review-pr']);
    // A skill is offered once, in its closer form.
    expect(closestSlashNames('skill:comit', known).map((k) => k.name)).toEqual(['skill:commit']);
    // Nothing close: the front end's hint says how to see the names.
    expect(unknownSlashName('/zzzzzz', known, 'Type / to see them.', nothingExists)?.message).toContain(
      'Type / to see them.',
    );
  });

  it('known names, plain text and paths go through', () => {
    for (const input of ['/help', '/H', '/commit now', '/skill:commit', '/acme:frontend/component x', '/Review-PR'])
      expect(unknownSlashName(input, known, '', nothingExists), input).toBeUndefined();
    for (const input of [
      'fix /usr/bin/x',
      '/usr/bin/x is missing',
      '/tmp/build.log shows an error',
      '/ alone',
      '//comment',
      '/123 items',
      ' /leading-space text',
      '/*.ts files',
    ])
      expect(unknownSlashName(input, known, '', nothingExists), input).toBeUndefined();
    // A one-word path that exists (`/etc`, `/tmp`) is a path.
    expect(unknownSlashName('/etc is read-only', known, '')).toBeUndefined();
    expect(unknownSlashName('/no-such-thing-here', known, '')).toBeDefined();
    // The first word only: a name on the next line is text.
    expect(unknownSlashName('/comit\nmore', known, '', nothingExists)?.name).toBe('comit');
    expect(unknownSlashName('please\n/comit', known, '', nothingExists)).toBeUndefined();
  });
});
