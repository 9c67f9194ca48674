// A custom theme whose folder is missing falls back to the built-in dark theme with a warning saying so;
// a folder that exists but cannot be read says that instead (docs/ui.md "Themes").
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTheme, themesDir } from '../../src/ui/theme';

describe('the themes folder', () => {
  it('missing: "no … folder"; unreadable: the error, both with the built-in dark theme', () => {
    const home = mkdtempSync(join(tmpdir(), 'jarvis-themes-'));
    const missing = loadTheme('ocean', home);
    expect(missing.theme.name).toBe('dark');
    expect(missing.warnings).toEqual([`theme "ocean": no ${themesDir(home)} folder; using the built-in dark theme`]);

    mkdirSync(dirname(themesDir(home)), { recursive: true });
    symlinkSync(themesDir(home), themesDir(home)); // a link to itself: ELOOP
    const unreadable = loadTheme('ocean', home);
    expect(unreadable.theme.name).toBe('dark');
    expect(unreadable.warnings[0]).toMatch(new RegExp(`^theme "ocean": ${themesDir(home)} cannot be read \\(.*ELOOP`));
  });
});
