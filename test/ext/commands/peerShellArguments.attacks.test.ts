// What the user types after an opencode command (`$ARGUMENTS`, `$N` in a `` !`cmd` `` line) or a Gemini CLI
// command (`{{args}}` in `!{…}`) is data wherever the line puts it (ext/commands/peerTemplates.ts, through
// ext/plugins/shellLineArguments.ts). Each row is run through the real bash: the canary is never created and the
// attack text comes out as given; a Gemini line whose own `$1` could be confused with the arguments is refused.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandGemini, expandOpencode, type TemplateExpansion } from '../../../src/ext/commands/peerTemplates';
import { tempDir } from '../../helpers/files';

const rows: Array<{ name: string; expand: (args: string) => TemplateExpansion; attack: string }> = [
  {
    name: 'opencode, "$ARGUMENTS" in double quotes, a command substitution',
    expand: (a) => expandOpencode('Look: !`printf %s "$ARGUMENTS"`', a),
    attack: '$(touch CANARY)',
  },
  {
    name: 'opencode, "$ARGUMENTS" in double quotes, a quote closing it',
    expand: (a) => expandOpencode('Look: !`printf %s "$ARGUMENTS"`', a),
    attack: 'x"; touch CANARY; echo "',
  },
  {
    name: "opencode, '$1' in single quotes, a quote closing it",
    expand: (a) => expandOpencode("Look: !`printf %s '$1'`", a),
    attack: "x';touch${IFS}CANARY;'",
  },
  {
    name: 'Gemini, "{{args}}" in double quotes, a quote closing it',
    expand: (a) => expandGemini('Look: !{printf %s "{{args}}"}', a, 'look'),
    attack: 'x"; touch CANARY; echo "',
  },
  {
    name: 'Gemini, {{args}} bare, a second command and a substitution',
    expand: (a) => expandGemini('Look: !{printf %s {{args}}}', a, 'look'),
    attack: 'x; touch CANARY $(touch CANARY)',
  },
];

describe('arguments in opencode and Gemini shell lines are data', () => {
  it.each(rows)('$name', ({ expand, attack }) => {
    const dir = tempDir('jarvis-peer-bang-');
    const canary = join(dir, 'pwned');
    const typed = attack.split('CANARY').join(canary);
    const expanded = expand(typed);
    if (!expanded.ok) throw new Error(expanded.message);
    expect(expanded.bangs).toHaveLength(1);
    const [bang] = expanded.bangs;
    expect(bang.refused).toBeUndefined();
    const out = execFileSync('bash', ['-c', bang.command], { cwd: dir, encoding: 'utf8' });
    expect(existsSync(canary)).toBe(false);
    // A bare {{args}} is split into words by the shell, as Gemini CLI's own quoting does; nothing runs either way.
    expect(out.replace(/\s+/g, '')).toBe(typed.replace(/\s+/g, ''));
  });

  it('a Gemini line with {{args}} and a $1 of its own is refused, its template kept, the words not in it', () => {
    const expanded = expandGemini('!{f() { echo "$1"; }; f {{args}}}', 'x; touch y', 'look');
    if (!expanded.ok) throw new Error(expanded.message);
    expect(expanded.bangs[0].refused).toMatch(/both \{\{args\}\} and a \$ARGUMENTS or \$N of its own/);
    expect(expanded.text).toContain('!{f() { echo "$1"; }; f {{args}}}');
  });
});
