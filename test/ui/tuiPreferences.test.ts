// tui.toml as the running UI applies it (docs/ui.md "Themes"): the /theme picker's live preview,
// restore and save; /reload-tui; and saving the theme without disturbing the rest of the file.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Component } from '@mariozechner/pi-tui';
import { afterEach, describe, expect, it } from 'vitest';
import { saveTuiTheme } from '../../src/store/tuiConfig';
import { listThemes, loadTheme } from '../../src/ui/theme';
import type { ViewState } from '../../src/ui/transcript/block';
import { TuiPreferences } from '../../src/ui/tuiPreferences';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'jarvis-prefs-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setUp(tuiToml?: string) {
  const home = tmp();
  mkdirSync(join(home, 'themes'));
  writeFileSync(
    join(home, 'themes', 'ember.json'),
    JSON.stringify({ name: 'ember', displayName: 'Ember glow', colors: { roleUser: '#FF5F1F' } }),
  );
  if (tuiToml !== undefined) writeFileSync(join(home, 'tui.toml'), tuiToml);
  const view: ViewState = { theme: loadTheme('dark', home).theme, expanded: false, cwd: home };
  const notices: string[] = [];
  let panel: Component | undefined;
  let restyles = 0;
  const prefs = new TuiPreferences({
    home,
    cwd: home,
    env: {},
    view,
    notice: (level, text) => notices.push(`${level}: ${text}`),
    showPanel: (p) => (panel = p),
    restyle: () => restyles++,
    requestRender: () => undefined,
  });
  const problems = prefs.load();
  return { home, view, notices, prefs, problems, panel: () => panel, restyles: () => restyles };
}

describe('/theme', () => {
  it('previews the highlighted theme, restores the previous one on Esc', () => {
    const t = setUp();
    expect(t.view.theme.name).toBe('auto');
    t.prefs.openThemePicker();
    const picker = t.panel()!;
    const text = picker.render(80).join('\n');
    expect(text).toContain('Custom: ember');
    expect(text).toContain('Ember glow');
    picker.handleInput!('\x1b[B'); // ↓ dark
    picker.handleInput!('\x1b[B'); // ↓ light
    expect(t.view.theme.name).toBe('light');
    expect(t.restyles()).toBe(2);
    picker.handleInput!('\x1b');
    expect(t.panel()).toBeUndefined();
    expect(t.view.theme.name).toBe('auto');
    expect(t.notices).toEqual([]);
  });

  it('Enter keeps the theme and saves it to tui.toml, keeping the rest of the file', () => {
    const t = setUp('# my settings\nrender_latex = false\n\n[status_line]\nitems = ["model"]\n');
    t.prefs.openThemePicker();
    for (let i = 0; i < 3; i++) t.panel()!.handleInput!('\x1b[B');
    expect(t.view.theme.palette.roleUser).toBe('#FF5F1F');
    t.panel()!.handleInput!('\r');
    expect(t.panel()).toBeUndefined();
    expect(t.view.theme.label).toBe('Custom: ember');
    expect(readFileSync(join(t.home, 'tui.toml'), 'utf8')).toBe(
      'theme = "ember"\n# my settings\nrender_latex = false\n\n[status_line]\nitems = ["model"]\n',
    );
    expect(t.notices).toEqual([expect.stringMatching(/^success: Theme: Custom: ember \(saved to .*tui\.toml\)\.$/)]);
  });

  it('picking the theme already in use says "Theme unchanged" and writes nothing', () => {
    const t = setUp();
    t.prefs.openThemePicker();
    t.panel()!.handleInput!('\r');
    expect(t.notices).toEqual(['info: Theme unchanged.']);
    expect(() => readFileSync(join(t.home, 'tui.toml'))).toThrow();
  });

  it('a theme that cannot be saved is still used, with an error that says so', () => {
    const t = setUp();
    mkdirSync(join(t.home, 'tui.toml')); // a folder where the file should be
    t.prefs.openThemePicker();
    t.panel()!.handleInput!('\x1b[B');
    t.panel()!.handleInput!('\r');
    expect(t.view.theme.name).toBe('dark');
    expect(t.notices[0]).toMatch(/^error: Theme Dark is used now but could not be saved to .*tui\.toml: /);
  });

  it('lists the themes folder again each time it opens', () => {
    const t = setUp();
    expect(listThemes(t.home).map((c) => c.label)).toEqual(['Auto (dark)', 'Dark', 'Light', 'Custom: ember']);
    writeFileSync(join(t.home, 'themes', 'zeta.json'), '{broken');
    const later = listThemes(t.home);
    expect(later.at(-1)).toMatchObject({
      name: 'zeta',
      label: 'Custom: zeta',
      description: expect.stringContaining('malformed'),
    });
  });
});

describe('/reload-tui', () => {
  it('applies the edited tui.toml and the active theme file again', () => {
    const t = setUp('theme = "ember"\n');
    expect(t.view.theme.palette.roleUser).toBe('#FF5F1F');
    expect(t.view.renderLatex).toBe(true);
    writeFileSync(
      join(t.home, 'themes', 'ember.json'),
      JSON.stringify({ name: 'ember', colors: { roleUser: '#010203' } }),
    );
    writeFileSync(
      join(t.home, 'tui.toml'),
      'theme = "ember"\nrender_latex = false\n[editor]\ncommand = "vim"\n[status_line]\nitems = ["model", "git"]\n',
    );
    t.prefs.reload();
    expect(t.view.theme.palette.roleUser).toBe('#010203');
    expect(t.view.renderLatex).toBe(false);
    expect(t.prefs.editorCommand).toBe('vim');
    expect(t.prefs.statusItems).toEqual(['model', 'git']);
    expect(t.restyles()).toBe(1);
    expect(t.notices).toEqual([
      expect.stringMatching(
        /^success: Reloaded .*tui\.toml: theme Custom: ember, LaTeX off, status line model, git\.$/,
      ),
    ]);
  });

  it('a malformed tui.toml falls back to the defaults with a warning', () => {
    const t = setUp('theme = "light"\n');
    writeFileSync(join(t.home, 'tui.toml'), 'theme = [\n');
    t.prefs.reload();
    expect(t.view.theme.name).toBe('auto');
    expect(t.notices[0]).toMatch(/^warning: .*using default UI settings$/);
  });
});

describe('saveTuiTheme', () => {
  it('replaces the top-level theme line only', () => {
    const dir = tmp();
    const path = join(dir, 'tui.toml');
    writeFileSync(path, 'theme = "dark"  \n[other]\ntheme = "not this one"\n');
    saveTuiTheme(path, 'light');
    expect(readFileSync(path, 'utf8')).toBe('theme = "light"\n[other]\ntheme = "not this one"\n');
  });

  it('creates the file when there is none', () => {
    const path = join(tmp(), 'tui.toml');
    saveTuiTheme(path, 'dark');
    expect(readFileSync(path, 'utf8')).toBe('theme = "dark"\n');
  });
});
