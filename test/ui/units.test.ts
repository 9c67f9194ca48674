// Unit tests of the UI's pure parts: themes, stored trust and history, Markdown splitting, diffs,
// completion, slash-command parsing, turn-end messages and the screen's differential output.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userHistoryPath } from '../../src/store/paths';
import { isWorkspaceTrusted, setWorkspaceTrust, workspaceTrust } from '../../src/store/trust';
import { appendUserHistory, loadUserHistory } from '../../src/store/userHistory';
import { filterCommands, InputCompletion, matchPaths } from '../../src/ui/completion';
import { putFile, tempDir } from '../helpers/files';
import { diffLines, diffStats } from '../../src/ui/diffView';
import { contextPercent } from '../../src/ui/footer';
import { splitStableMarkdown } from '../../src/ui/markdown';
import { Screen } from '../../src/ui/screen';
import { parseSlash, SLASH_COMMANDS } from '../../src/ui/slashCommands';
import { shellContext } from '../../src/ui/shellMode';
import { DARK, detectBackground, LIGHT, loadTheme, THEME_TOKENS } from '../../src/ui/theme';
import { turnEndNotice } from '../../src/ui/turnMessages';

const tmp = () => mkdtempSync(join(tmpdir(), 'jarvis-ui-unit-'));

describe('themes', () => {
  it('built-in palettes define every token of SPEC §9.5', () => {
    for (const t of THEME_TOKENS) {
      expect(DARK[t]).toMatch(/^#[0-9A-F]{6}$/);
      expect(LIGHT[t]).toMatch(/^#[0-9A-F]{6}$/);
    }
    expect(DARK.primary).toBe('#4FA8FF');
    expect(LIGHT.shellMode).toBe('#7C3AED');
  });

  it('auto follows COLORFGBG and falls back to dark', () => {
    expect(detectBackground({ COLORFGBG: '0;15' })).toBe('light');
    expect(detectBackground({ COLORFGBG: '15;0' })).toBe('dark');
    expect(detectBackground({})).toBe('dark');
    expect(detectBackground({ COLORFGBG: '0;15', CI: 'true' })).toBe('dark');
    expect(detectBackground({ COLORFGBG: '0;15', CI: '0' })).toBe('light');
    expect(loadTheme('auto', tmp(), { COLORFGBG: '0;15' }).theme.base).toBe('light');
  });

  it('loads a custom theme: bad colours fall back to the base, unknown tokens are ignored', () => {
    const home = tmp();
    mkdirSync(join(home, 'themes'));
    writeFileSync(
      join(home, 'themes', 'ocean.json'),
      JSON.stringify({ name: 'ocean', base: 'light', colors: { primary: '#112233', error: 'red', bogus: '#000000' } }),
    );
    const { theme, warnings } = loadTheme('ocean', home);
    expect(theme.label).toBe('Custom: ocean');
    expect(theme.palette.primary).toBe('#112233');
    expect(theme.palette.error).toBe(LIGHT.error);
    expect(warnings.join('\n')).toContain('colors.error');
  });

  it('a missing or malformed custom theme falls back to dark with a warning', () => {
    const home = tmp();
    expect(loadTheme('nope', home).theme.palette).toEqual(DARK);
    mkdirSync(join(home, 'themes'));
    writeFileSync(join(home, 'themes', 'broken.json'), '{not json');
    const r = loadTheme('broken', home);
    expect(r.theme.palette).toEqual(DARK);
    expect(r.warnings[0]).toContain('malformed');
  });
});

describe('workspace trust store', () => {
  it('is undecided until answered, then remembered per folder', () => {
    const home = tmp();
    expect(workspaceTrust(home, '/some/project')).toBeUndefined();
    setWorkspaceTrust(home, '/some/project', false);
    expect(workspaceTrust(home, '/some/project')?.trusted).toBe(false);
    setWorkspaceTrust(home, '/other', true);
    expect(isWorkspaceTrusted(home, '/other')).toBe(true);
    expect(isWorkspaceTrusted(home, '/some/project')).toBe(false);
  });
});

describe('user history', () => {
  it('appends per directory under user-history/<md5>.jsonl and skips torn lines', () => {
    const home = tmp();
    appendUserHistory(home, '/a', 'first');
    appendUserHistory(home, '/a', 'second');
    appendUserHistory(home, '/b', 'elsewhere');
    writeFileSync(userHistoryPath(home, '/a'), `${readFileSync(userHistoryPath(home, '/a'), 'utf8')}{"text": "tor`);
    expect(loadUserHistory(home, '/a')).toEqual(['first', 'second']);
    expect(loadUserHistory(home, '/b')).toEqual(['elsewhere']);
    expect(userHistoryPath(home, '/a')).toMatch(/user-history\/[0-9a-f]{32}\.jsonl$/);
  });
});

describe('streaming Markdown split', () => {
  it('cuts at the last blank line outside a code fence', () => {
    expect(splitStableMarkdown('one\n\ntwo\n\nthr')).toEqual({ stable: 'one\n\ntwo', tail: 'thr' });
    expect(splitStableMarkdown('```\na\n\nb\n')).toEqual({ stable: '', tail: '```\na\n\nb\n' });
    expect(splitStableMarkdown('- a\n\n- b\n\nx')).toEqual({ stable: '- a\n\n- b', tail: 'x' });
  });
});

describe('diffs', () => {
  it('finds the minimal line changes', () => {
    const ops = diffLines('a\nb\nc\nd', 'a\nB\nc\nd\ne');
    expect(diffStats(ops)).toEqual({ added: 2, removed: 1 });
    expect(ops.filter((o) => o.kind === 'same').map((o) => o.text)).toEqual(['a', 'c', 'd']);
    expect(diffStats(diffLines('', 'x\ny'))).toEqual({ added: 2, removed: 0 });
  });
});

describe('completion', () => {
  it('filters commands by name and alias', () => {
    expect(filterCommands(SLASH_COMMANDS, 'res').map((c) => c.name)).toEqual(['sessions']);
    expect(filterCommands(SLASH_COMMANDS, 'quit').map((c) => c.name)).toEqual(['exit']);
    expect(filterCommands(SLASH_COMMANDS, '').length).toBe(SLASH_COMMANDS.length);
  });

  it('ranks path matches (prefix, then basename, then substring)', () => {
    const paths = ['docs/', 'docs/main.md', 'src/', 'src/main.ts', 'main.go'].map((path) => ({ path, mtimeMs: 0 }));
    expect(matchPaths(paths, 'mai')[0]).toBe('main.go');
    expect(matchPaths(paths, 'src/')).toEqual(['src/', 'src/main.ts']);
  });

  it('ranks by recency within a match: recently mentioned first, then newest modified', () => {
    const paths = [
      { path: 'a/old.ts', mtimeMs: 1 },
      { path: 'b/new.ts', mtimeMs: 9 },
      { path: 'c/mid.ts', mtimeMs: 5 },
    ];
    expect(matchPaths(paths, '')).toEqual(['b/new.ts', 'c/mid.ts', 'a/old.ts']);
    expect(matchPaths(paths, '.ts', ['a/old.ts'])).toEqual(['a/old.ts', 'b/new.ts', 'c/mid.ts']);
  });

  it('@-completion lists what Glob sees (ignore files, no secrets, no .git), mentioned paths first', async () => {
    const cwd = tempDir('jarvis-complete-');
    for (const [path, text] of [
      ['.gitignore', 'dist/\n'],
      ['dist/x.js', ''],
      ['src/a.ts', ''],
      ['src/b.ts', ''],
      ['.env', 'K=1'],
      ['.git/config', ''],
    ])
      putFile(join(cwd, path), text);
    const completion = new InputCompletion(cwd, () => []);
    const list = async (query: string) =>
      (await completion.getSuggestions([`@${query}`], 0, query.length + 1))?.items.map((i) => i.value) ?? [];
    expect((await list('')).sort()).toEqual(['.gitignore', 'src/', 'src/a.ts', 'src/b.ts']);
    completion.noteMentions('look at @src/b.ts');
    expect((await list('src/'))[0]).toBe('src/b.ts');
    const applied = completion.applyCompletion(
      ['see @my'],
      0,
      7,
      { value: 'my notes.md', label: 'my notes.md' },
      '@my',
    );
    expect(applied.lines).toEqual(['see @"my notes.md" ']);
  });
});

describe('slash commands', () => {
  it('parses known commands and aliases; unknown text is not a command', () => {
    expect(parseSlash('/clear')?.command.name).toBe('new');
    expect(parseSlash('/title  My work ')?.args).toBe('My work');
    expect(parseSlash('/nonexistent thing')).toBeUndefined();
    expect(parseSlash('/q')?.command.name).toBe('exit');
  });
});

describe('messages', () => {
  it('turn ends say what to do next', () => {
    expect(turnEndNotice('completed')).toBeUndefined();
    expect(turnEndNotice('cancelled')?.text).toBe('Interrupted.');
    expect(turnEndNotice('failed', '401 Unauthorized')?.hint).toContain('API key');
  });

  it('context percent and shell context', () => {
    expect(contextPercent(50, 200)).toBe(25);
    expect(contextPercent(0, 0)).toBe(0);
    expect(shellContext('ls', { output: 'a\nb\n', exitCode: 0, omittedChars: 0, interrupted: false })).toContain(
      '$ ls\na\nb\n[exit code: 0]',
    );
  });
});

describe('screen', () => {
  function fakeTerminal() {
    const writes: string[] = [];
    return { writes, term: { write: (d: string) => void writes.push(d), columns: 40, rows: 10 } };
  }

  it('redraws only from the first changed line, inside synchronized output', () => {
    const { writes, term } = fakeTerminal();
    let lines = ['a', 'b', 'c'];
    const screen = new Screen(term, { render: () => lines, invalidate: () => undefined }, () => []);
    screen.renderNow();
    lines = ['a', 'b', 'C'];
    screen.renderNow();
    const last = writes[writes.length - 1];
    expect(last.startsWith('\x1b[?2026h')).toBe(true);
    expect(last.endsWith('\x1b[?2026l')).toBe(true);
    expect(last).toContain('C');
    expect(last).not.toContain('a\x1b');
    const before = writes.length;
    screen.renderNow();
    expect(writes.length).toBe(before);
  });

  it('writes finished lines above the live region once', () => {
    const { writes, term } = fakeTerminal();
    const screen = new Screen(term, { render: () => ['live'], invalidate: () => undefined }, () => []);
    screen.renderNow();
    screen.pushScrollback(['done 1', 'done 2']);
    screen.renderNow();
    expect(writes[writes.length - 1]).toMatch(/done 1.*\r\ndone 2.*\r\n\x1b\[\?7llive/);
    screen.renderNow();
    expect(writes.join('').match(/done 1/g)).toHaveLength(1);
    screen.stop();
  });
});

describe('engine notices', () => {
  it('map plan mode, goal changes and automatic turns to what the transcript says', async () => {
    const { automaticTurnNotice, goalNotice, planModeNotice } = await import('../../src/ui/engineNotices');
    expect(planModeNotice(false, '/x/plan.md')).toEqual({ level: 'info', text: 'Plan mode off.' });
    expect(planModeNotice(true, '/x/plan.md').text).toContain('/x/plan.md');
    const goal = {
      objective: 'ship it',
      status: 'blocked',
      reason: 'needs a key',
      used: { turns: 2, tokens: 10, timeMs: 1000 },
      budget: {},
    } as never;
    expect(goalNotice('cancelled', null, 0)).toEqual({ level: 'info', text: 'Goal cancelled.' });
    expect(goalNotice('progress', goal, 0)).toBeUndefined();
    const blocked = goalNotice('status', goal, 2)!;
    expect(blocked.level).toBe('warning');
    expect(blocked.text).toBe('Goal blocked: needs a key');
    expect(blocked.hint).toContain('2 queued goal(s) wait for this one.');
    expect(automaticTurnNotice('notification')).toBe('A background task finished; the agent is looking at it.');
    expect(automaticTurnNotice('system')).toMatch(/^Goal: continuing automatically/);
  });
});
