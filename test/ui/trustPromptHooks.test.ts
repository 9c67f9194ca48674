// The workspace-trust question names the hooks of Claude Code's project settings (they run commands), and asks again
// when such a file changed since the folder was trusted (docs/hooks.md, "Claude Code hooks").
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPAT } from '../../src/store/compat';
import { setWorkspaceTrust } from '../../src/store/trust';
import { needsTrustDecision, projectHookLines } from '../../src/ui/dialogs/trustPrompt';
import { tempDir } from '../helpers/files';

function project(hooks: object) {
  const cwd = tempDir();
  mkdirSync(join(cwd, '.git'));
  mkdirSync(join(cwd, '.claude'));
  writeFileSync(join(cwd, '.claude/settings.json'), JSON.stringify({ hooks }, null, 2));
  return cwd;
}

const guard = {
  PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'python3 .claude/hooks/guard.py' }] }],
};

describe('trust prompt and Claude Code project hooks', () => {
  it('lists each settings file with its hooks and commands', () => {
    const cwd = project(guard);
    expect(projectHookLines(cwd, DEFAULT_COMPAT)).toEqual([
      `${join(cwd, '.claude/settings.json')}: 1 hook`,
      '  PreToolUse: python3 .claude/hooks/guard.py',
    ]);
    expect(projectHookLines(cwd, { ...DEFAULT_COMPAT, claude: false })).toEqual([]);
  });

  it('asks again when a settings file changed since the folder was trusted', () => {
    const home = tempDir();
    const cwd = project(guard);
    expect(needsTrustDecision(home, cwd)).toBe(true);
    setWorkspaceTrust(home, cwd, true);
    expect(needsTrustDecision(home, cwd)).toBe(false);
    writeFileSync(join(cwd, '.claude/settings.local.json'), JSON.stringify({ hooks: guard }));
    expect(needsTrustDecision(home, cwd)).toBe(true);
    setWorkspaceTrust(home, cwd, true);
    expect(needsTrustDecision(home, cwd)).toBe(false);
  });
});
