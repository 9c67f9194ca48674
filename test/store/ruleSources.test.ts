// Each permission rule carries the file and line it was written at, so decisions can name it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, permissionRuleSources } from '../../src/store/config';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('permission rule sources', () => {
  it('loadConfig gives the line of each [[permission.rules]] header', () => {
    const home = mkdtempSync(join(tmpdir(), 'jarvis-rules-'));
    dirs.push(home);
    const text = [
      'default_permission_mode = "manual"',
      '# [[permission.rules]] in a comment is not counted: the header must start the line',
      '',
      '',
      '',
      '[[permission.rules]]',
      'decision = "deny"',
      'pattern = "Bash(rm *)"',
      '',
      '  [[ permission.rules ]]',
      'decision = "allow"',
      'pattern = "Bash(git *)"',
    ].join('\n');
    writeFileSync(join(home, 'config.toml'), text);
    const loaded = loadConfig(home);
    expect(loaded.config.permission.rules.map((r) => r.pattern)).toEqual(['Bash(rm *)', 'Bash(git *)']);
    expect(loaded.ruleSources.map((s) => s.replace(/^.*\//, ''))).toEqual(['config.toml:6', 'config.toml:10']);
  });

  it('skips headers inside multi-line strings; an inline array names the file only', () => {
    const text = 'a = """\n[[permission.rules]]\n"""\n[[permission.rules]]\ndecision = "deny"\n';
    expect(permissionRuleSources(text, '/x/config.toml', 1)).toEqual(['/x/config.toml:4']);
    expect(
      permissionRuleSources('[permission]\nrules = [{ decision = "deny", pattern = "Bash" }]\n', '/x/config.toml', 1),
    ).toEqual(['/x/config.toml']);
  });
});
