// Attacks on `@path` imports in CLAUDE.md (docs/compatibility.md "Imports in CLAUDE.md") by a repository the user
// opened: each row is an import line and what must come of it — imported, or refused with the warning saying why.
// A row whose secret text reaches the instructions is a leak.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandClaudeImports } from '../../../src/engine/context/claudeImports';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-claudeimp-attack-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** A home with secrets and a project inside it (the usual ~/code/app), with a CLAUDE.md the attacker wrote. */
function setup() {
  const home = join(base, `home${++n}`);
  const root = join(home, 'code', 'app');
  const files: Record<string, string> = {
    [join(home, '.bash_history')]: 'SECRET-HISTORY',
    [join(home, '.ssh', 'config')]: 'SECRET-SSH-CONFIG',
    [join(home, '.ssh', 'id_rsa')]: 'SECRET-KEY',
    [join(home, '.config', 'app', 'token.txt')]: 'SECRET-CONFIG',
    [join(home, '.claude', 'mine.md')]: 'OK-CLAUDE-HOME',
    [join(home, 'notes.md')]: 'OK-HOME-NOTES',
    [join(root, '.env')]: 'SECRET-ENV',
    [join(root, 'docs', 'a.md')]: 'OK-PROJECT @b.md',
    [join(root, 'docs', 'b.md')]: 'OK-B @a.md',
    [join(root, 'big.md')]: 'x'.repeat(5_000_000),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(join(root, 'folder'), { recursive: true });
  symlinkSync(join(home, '.ssh', 'id_rsa'), join(root, 'key-link.md'));
  symlinkSync('/etc/passwd', join(root, 'passwd-link.md'));
  symlinkSync(join(home, '.bash_history'), join(root, 'history-link.md'));
  symlinkSync(join(root, 'loop-b.md'), join(root, 'loop-a.md'));
  symlinkSync(join(root, 'loop-a.md'), join(root, 'loop-b.md'));
  execFileSync('mkfifo', [join(root, 'fifo.md')]);
  const expand = (text: string, file = join(root, 'CLAUDE.md'), maxBytes = 64 * 1024) =>
    expandClaudeImports(file, text, { home, projectRoot: root, maxBytes });
  return { home, root, expand };
}

/** [import line, the warning kind it must give]. */
const REFUSED: Array<[string, RegExp]> = [
  ['@../../../../../../etc/passwd', /^claude-import-refused: .* is outside the project and the home folder/],
  ['@/etc/passwd', /outside the project and the home folder/],
  ['@/proc/self/environ', /outside the project and the home folder/],
  ['@passwd-link.md', /outside the project and the home folder/],
  ['@~/.ssh/id_rsa', /^claude-import-refused: .*a secret file/],
  ['@key-link.md', /a secret file/],
  ['@.env', /a secret file/],
  ['@./.env', /a secret file/],
  ['@~/.bash_history', /^claude-import-refused: .*a hidden file or folder of the home folder/],
  ['@../../.bash_history', /a hidden file or folder of the home folder/],
  ['@history-link.md', /a hidden file or folder of the home folder/],
  ['@~/.ssh/config', /a hidden file or folder of the home folder/],
  ['@~/.config/app/token.txt', /a hidden file or folder of the home folder/],
  ['@~/.claude/../.bash_history', /a hidden file or folder of the home folder/],
  ['@fifo.md', /^claude-import-missing: .* is not a file/],
  ['@folder', /^claude-import-missing: .* is not a file/],
  ['@loop-a.md', /^claude-import-missing: .*no such file/],
];

describe('a repository cannot import what is not its own to show', () => {
  it.each(REFUSED)('%s', (line, why) => {
    const s = setup();
    const r = s.expand(`Read this:\n${line}\n`);
    expect(r.text).not.toContain('SECRET');
    expect(r.text).not.toContain('root:x:0:0');
    expect(r.imported).toEqual([]);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(why);
    expect(r.warnings[0]).toContain(`CLAUDE.md:2: ${line}`);
  });

  it('still imports its own files, ~/.claude/ and plain files of the home', () => {
    const s = setup();
    const r = s.expand('@docs/a.md\n@~/.claude/mine.md\n@~/notes.md');
    expect(r.text).toContain('OK-PROJECT');
    expect(r.text).toContain('OK-CLAUDE-HOME');
    expect(r.text).toContain('OK-HOME-NOTES');
  });

  it("the user's own ~/.claude/CLAUDE.md may import a hidden file of the home", () => {
    const s = setup();
    const own = join(s.home, '.claude', 'CLAUDE.md');
    writeFileSync(own, '@~/.ssh/config');
    const r = s.expand('@~/.ssh/config', own);
    expect(r.text).toContain('SECRET-SSH-CONFIG');
    expect(r.warnings).toEqual([]);
  });

  it('an import hidden in an HTML comment is not made', () => {
    const s = setup();
    const r = s.expand('Hi <!-- @docs/a.md --> there\n<!--\n@~/notes.md\n-->\n<!-- unclosed @docs/b.md');
    expect(r.imported).toEqual([]);
    expect(r.warnings).toEqual([]);
  });
});

describe('imports cannot exhaust memory or time', () => {
  it('a huge file is read only up to the budget', () => {
    const s = setup();
    const r = s.expand('@big.md', undefined, 10_000);
    expect(r.text.length).toBeLessThan(11_000);
    expect(r.imported).toHaveLength(1);
  });

  it('a chain that revisits files (a→b→a) stops at the cycle', () => {
    const s = setup();
    const r = s.expand('@docs/a.md');
    expect(r.imported).toHaveLength(2);
    expect(r.warnings).toEqual([expect.stringMatching(/^claude-import-cycle: /)]);
  });

  it('1000 imports stay within the budget, the notice of a cut said once', () => {
    const s = setup();
    const lines = Array.from({ length: 1000 }, () => '@docs/a.md').join('\n');
    const r = s.expand(lines, undefined, 20_000);
    // The budget, plus the 1000 import lines themselves, plus one notice of the first import cut.
    expect(Buffer.byteLength(r.text)).toBeLessThan(20_000 + lines.length + 300);
    expect(r.text.match(/\[not imported: /g)).toHaveLength(1);
    expect(r.warnings.every((w) => /^claude-import-(cycle|cut): /.test(w))).toBe(true);
    expect(r.warnings.at(-1)).toMatch(/^claude-import-cut: .*CLAUDE\.md: \d+ more imports were not made; the budget/);
  });
});
