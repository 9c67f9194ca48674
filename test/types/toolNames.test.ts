import { describe, expect, it } from 'vitest';
import { patternMatches } from '../../src/engine/policy/permissionRules';
import { builtinTools } from '../../src/tools/registry';
import { TOOL_SEARCH_NAME } from '../../src/tools/toolSearch/toolSearchTool';
import { BUILTIN_TOOL_NAMES, canonicalToolName, isKnownToolName, TOOL_NAME_ALIASES } from '../../src/types/toolNames';

describe('tool-name aliases (docs/compatibility.md)', () => {
  it('the built-in list is the registry’s (with every web backend), and every alias points at a built-in', () => {
    // `search` and `braveTools` switched on only to list every web tool; nothing is called.
    const web = { allowPrivateNetwork: false, search: {}, braveTools: true } as never;
    const registry = builtinTools({ web }).map((t) => t.name);
    const expected = [...new Set([...registry.filter((n) => !n.startsWith('Brave')), TOOL_SEARCH_NAME])].sort();
    expect([...BUILTIN_TOOL_NAMES].sort()).toEqual(expected);
    for (const target of Object.values(TOOL_NAME_ALIASES)) expect(BUILTIN_TOOL_NAMES).toContain(target);
  });

  it('maps Claude Code and opencode names, fixes the case of ours, leaves other names alone', () => {
    expect(
      ['WebFetch', 'TodoWrite', 'BashOutput', 'KillShell', 'LS', 'MultiEdit', 'Task', 'NotebookRead'].map(
        canonicalToolName,
      ),
    ).toEqual(['FetchURL', 'TodoList', 'TaskOutput', 'TaskStop', 'Glob', 'Edit', 'Agent', 'Read']);
    expect(['bash', 'read', 'webfetch', 'todowrite', 'list', 'glob'].map(canonicalToolName)).toEqual([
      'Bash',
      'Read',
      'FetchURL',
      'TodoList',
      'Glob',
      'Glob',
    ]);
    expect(canonicalToolName('mcp__github__search')).toBe('mcp__github__search');
    expect(isKnownToolName('Frobnicate')).toBe(false);
    expect(isKnownToolName('TowerSpawn') && isKnownToolName('mcp__x__y') && isKnownToolName('WebFetch')).toBe(true);
  });

  it('permission rules written for Claude Code match Jarvis subjects', () => {
    const cwd = '/repo';
    expect(patternMatches('WebFetch(domain:example.com)', 'FetchURL(https://example.com/a?b)', cwd)).toBe(true);
    expect(patternMatches('WebFetch(domain:example.com)', 'FetchURL(https://example.com.evil.org/)', cwd)).toBe(false);
    expect(patternMatches('WebFetch(domain:*.example.com)', 'FetchURL(http://docs.example.com)', cwd)).toBe(true);
    expect(patternMatches('WebFetch(domain:example.com)', 'FetchURL(not a url)', cwd)).toBe(false);
    expect(patternMatches('Bash(npm test:*)', 'Bash(npm test -- --watch)', cwd)).toBe(true);
    expect(patternMatches('Bash(npm test:*)', 'Bash(npm install)', cwd)).toBe(false);
    expect(patternMatches('TodoWrite', 'TodoList', cwd)).toBe(true);
    expect(patternMatches('read(/repo/**)', 'Read(/repo/src/a.ts)', cwd)).toBe(true);
  });
});
