import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/store/configFields';
import { defaultTuiConfig, loadTuiConfig, parseTuiConfigText } from '../../src/store/tuiConfig';

const FIXTURES = join(__dirname, '../fixtures/config');

function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'jarvis-tui-'));
}

describe('tui.toml', () => {
  it('has the documented defaults', () => {
    expect(defaultTuiConfig()).toEqual({
      theme: 'auto',
      render_latex: true,
      disable_paste_burst: false,
      cache_expiry_hint: true,
      editor: { command: '' },
      notifications: { enabled: true, notification_condition: 'unfocused' },
      upgrade: { auto_install: true },
      status_line: { items: [], command: '' },
    });
  });

  it('loads a full valid file', () => {
    const loaded = loadTuiConfig('/unused', { path: join(FIXTURES, 'tui-valid.toml') });
    expect(loaded.notice).toBeUndefined();
    expect(loaded.existed).toBe(true);
    expect(loaded.config).toEqual({
      theme: 'light',
      render_latex: false,
      disable_paste_burst: true,
      cache_expiry_hint: false,
      editor: { command: 'vim' },
      notifications: { enabled: false, notification_condition: 'always' },
      upgrade: { auto_install: false },
      status_line: { items: ['mode', 'model', 'git'], command: './status.sh' },
    });
  });

  it('a missing file means defaults, no notice, and no file is created', () => {
    const home = tempHome();
    expect(loadTuiConfig(home)).toEqual({
      config: defaultTuiConfig(),
      path: join(home, 'tui.toml'),
      existed: false,
      warnings: [],
    });
    expect(readdirSync(home)).toEqual([]);
  });

  it.each([
    ['render_latex = "yes"', 'render_latex: expected true or false, got "yes"'],
    [
      '[notifications]\nnotification_condition = "sometimes"',
      'notifications.notification_condition: expected one of "unfocused", "always", got "sometimes"',
    ],
    ['colour = "red"', 'colour: unknown key (the top level accepts: theme,'],
    ['them = "dark"', 'them: unknown key — did you mean "theme"?'],
    ['theme = ', 'TOML syntax error at line 1'],
  ])('malformed %j → defaults plus a notice (app), an error (strict)', (text, message) => {
    const home = tempHome();
    const path = join(home, 'tui.toml');
    writeFileSync(path, text);
    const loaded = loadTuiConfig(home);
    expect(loaded.config).toEqual(defaultTuiConfig());
    expect(loaded.notice).toContain(message);
    expect(loaded.notice).toContain('using default UI settings');
    expect(() => parseTuiConfigText(text, path)).toThrow(ConfigError);
    expect(() => parseTuiConfigText(text, path)).toThrow(message);
  });

  it('skips unknown status line items with a warning', () => {
    const { config, warnings } = parseTuiConfigText('[status_line]\nitems = ["mode", "weather"]', '/t/tui.toml');
    expect(config.status_line.items).toEqual(['mode']);
    expect(warnings).toEqual([
      '/t/tui.toml: status_line.items: unknown item "weather" skipped (known: mode, goal, model, context, tokens, tasks, cwd, git, tips)',
    ]);
  });
});
