import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  configPath,
  displayPath,
  expandTilde,
  jarvisHome,
  logsDir,
  sessionIndexPath,
  sessionsDirFor,
  sessionsRoot,
  tuiConfigPath,
  userHistoryDir,
  userHistoryPath,
  workDirKey,
} from '../../src/store/paths';

describe('jarvisHome', () => {
  it.each([
    [{ HOME: '/home/u' }, '/home/u/.jarvis-code'],
    [{ HOME: '/home/u', JARVIS_CODE_HOME: '' }, '/home/u/.jarvis-code'],
    [{ HOME: '/home/u', JARVIS_CODE_HOME: '   ' }, '/home/u/.jarvis-code'],
    [{ HOME: '/home/u', JARVIS_CODE_HOME: '/data/jarvis' }, '/data/jarvis'],
    [{ HOME: '/home/u', JARVIS_CODE_HOME: '~/alt' }, '/home/u/alt'],
    [{ HOME: '/home/u', JARVIS_CODE_HOME: '~' }, '/home/u'],
    [{ HOME: '/home/u', JARVIS_CODE_HOME: '/data/jarvis/' }, '/data/jarvis'],
  ])('%j → %s', (env, expected) => {
    expect(jarvisHome(env)).toBe(expected);
  });

  it('resolves a relative JARVIS_CODE_HOME against the current directory', () => {
    expect(jarvisHome({ HOME: '/home/u', JARVIS_CODE_HOME: 'rel' })).toBe(`${process.cwd()}/rel`);
  });
});

describe('workDirKey', () => {
  const hash12 = (p: string) => createHash('sha256').update(p).digest('hex').slice(0, 12);

  it.each([
    ['/home/u/My Project', 'my-project'],
    ['/home/u/repo.v2__final', 'repo-v2-final'],
    ['/', 'root'],
    ['/home/u/日本語', 'root'],
    ['/home/u/--x--', 'x'],
  ])('%s → slug %s', (path, slug) => {
    expect(workDirKey(path)).toBe(`wd_${slug}_${hash12(path)}`);
  });

  it('caps the slug at 40 characters without a trailing dash', () => {
    const key = workDirKey(`/tmp/${'a'.repeat(39)}-bbbbbbb`);
    const slug = key.split('_')[1];
    expect(slug).toBe('a'.repeat(39));
    expect(workDirKey(`/tmp/${'c'.repeat(60)}`).split('_')[1]).toHaveLength(40);
  });

  it('keeps same-named folders apart and ignores a trailing slash', () => {
    expect(workDirKey('/a/app')).not.toBe(workDirKey('/b/app'));
    expect(workDirKey('/a/app/')).toBe(workDirKey('/a/app'));
    expect(workDirKey('/a/app')).toMatch(/^wd_app_[0-9a-f]{12}$/);
  });
});

describe('data locations', () => {
  it('lays files out under the home (SPEC §3.18)', () => {
    const home = '/h/.jarvis-code';
    expect(configPath(home)).toBe('/h/.jarvis-code/config.toml');
    expect(tuiConfigPath(home)).toBe('/h/.jarvis-code/tui.toml');
    expect(sessionsRoot(home)).toBe('/h/.jarvis-code/sessions');
    expect(sessionsDirFor(home, '/w/app')).toBe(`/h/.jarvis-code/sessions/${workDirKey('/w/app')}`);
    expect(sessionIndexPath(home)).toBe('/h/.jarvis-code/session_index.jsonl');
    expect(userHistoryDir(home)).toBe('/h/.jarvis-code/user-history');
    const md5 = createHash('md5').update('/w/app').digest('hex');
    expect(userHistoryPath(home, '/w/app')).toBe(`/h/.jarvis-code/user-history/${md5}.jsonl`);
    expect(logsDir(home)).toBe('/h/.jarvis-code/logs');
  });

  it('expands and shortens ~', () => {
    const env = { HOME: '/home/u' };
    expect(expandTilde('~/x', env)).toBe('/home/u/x');
    expect(expandTilde('/abs/~', env)).toBe('/abs/~');
    expect(displayPath('/home/u/.jarvis-code/config.toml', env)).toBe('~/.jarvis-code/config.toml');
    expect(displayPath('/home/user2/x', env)).toBe('/home/user2/x');
  });
});
