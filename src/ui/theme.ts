// Themes (docs/ui.md): the token set, the built-in dark and light palettes, custom theme files
// ($JARVIS_CODE_HOME/themes/*.json) and `auto` detection. Colours are 24-bit SGR sequences.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export const THEME_TOKENS = [
  'primary',
  'accent',
  'text',
  'textStrong',
  'textDim',
  'textMuted',
  'border',
  'borderFocus',
  'success',
  'warning',
  'error',
  'diffAdded',
  'diffRemoved',
  'diffAddedStrong',
  'diffRemovedStrong',
  'diffGutter',
  'diffMeta',
  'roleUser',
  'shellMode',
] as const;
export type ThemeToken = (typeof THEME_TOKENS)[number];
export type Palette = Record<ThemeToken, string>;

export const DARK: Palette = {
  primary: '#4FA8FF',
  accent: '#5BC0BE',
  text: '#E0E0E0',
  textStrong: '#F5F5F5',
  textDim: '#888888',
  textMuted: '#6B6B6B',
  border: '#5A5A5A',
  borderFocus: '#E8A838',
  success: '#4EC87E',
  warning: '#E8A838',
  error: '#E85454',
  diffAdded: '#4EC87E',
  diffRemoved: '#E85454',
  diffAddedStrong: '#7AD99B',
  diffRemovedStrong: '#F08585',
  diffGutter: '#6B6B6B',
  diffMeta: '#888888',
  roleUser: '#FFCB6B',
  shellMode: '#BD93F9',
};

export const LIGHT: Palette = {
  primary: '#1565C0',
  accent: '#00838F',
  text: '#1A1A1A',
  textStrong: '#1A1A1A',
  textDim: '#454545',
  textMuted: '#5F5F5F',
  border: '#737373',
  borderFocus: '#92660A',
  success: '#0E7A38',
  warning: '#92660A',
  error: '#B91C1C',
  diffAdded: '#0E7A38',
  diffRemoved: '#B91C1C',
  diffAddedStrong: '#0E7A38',
  diffRemovedStrong: '#B91C1C',
  diffGutter: '#737373',
  diffMeta: '#5F5F5F',
  roleUser: '#9A4A00',
  shellMode: '#7C3AED',
};

export type Style = (text: string) => string;

export interface Theme {
  /** What the user chose: auto, dark, light or a custom theme name. */
  name: string;
  /** Shown in pickers: "Dark", "Custom: ocean" (for themes/ocean.json). */
  label: string;
  base: 'dark' | 'light';
  palette: Palette;
  fg: Record<ThemeToken, Style>;
  bold: Style;
  dim: Style;
  italic: Style;
  inverse: Style;
  underline: Style;
  strike: Style;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

function sgrColor(hex: string): Style {
  const r = parseInt(hex.slice(1, 3), 16);
  const g = parseInt(hex.slice(3, 5), 16);
  const b = parseInt(hex.slice(5, 7), 16);
  const open = `\x1b[38;2;${r};${g};${b}m`;
  return (text) => `${open}${text}\x1b[39m`;
}

const wrap =
  (open: string, close: string): Style =>
  (text) =>
    `\x1b[${open}m${text}\x1b[${close}m`;

export function makeTheme(name: string, label: string, base: 'dark' | 'light', palette: Palette): Theme {
  const fg = Object.fromEntries(THEME_TOKENS.map((t) => [t, sgrColor(palette[t])])) as Record<ThemeToken, Style>;
  return {
    name,
    label,
    base,
    palette,
    fg,
    bold: wrap('1', '22'),
    dim: wrap('2', '22'),
    italic: wrap('3', '23'),
    inverse: wrap('7', '27'),
    underline: wrap('4', '24'),
    strike: wrap('9', '29'),
  };
}

export interface CustomThemeFile {
  file: string;
  name: string;
  displayName?: string;
  base: 'dark' | 'light';
  colors: Partial<Palette>;
}

/** Parses a custom theme; invalid colours fall back to the base, unknown tokens are ignored. */
export function parseCustomTheme(file: string, text: string): { theme: CustomThemeFile; warnings: string[] } {
  const raw = JSON.parse(text) as Record<string, unknown>;
  if (!raw || typeof raw !== 'object' || typeof raw.name !== 'string' || !raw.name.trim())
    throw new Error(`${basename(file)}: "name" is required`);
  const warnings: string[] = [];
  const base = raw.base === 'light' ? 'light' : 'dark';
  const colors: Partial<Palette> = {};
  const given = raw.colors && typeof raw.colors === 'object' ? (raw.colors as Record<string, unknown>) : {};
  for (const [token, value] of Object.entries(given)) {
    if (!(THEME_TOKENS as readonly string[]).includes(token)) continue;
    if (typeof value === 'string' && HEX.test(value)) colors[token as ThemeToken] = value;
    else warnings.push(`${basename(file)}: colors.${token} must be "#RRGGBB"; using the ${base} theme's colour`);
  }
  return {
    theme: {
      file,
      name: raw.name,
      displayName: typeof raw.displayName === 'string' ? raw.displayName : undefined,
      base,
      colors,
    },
    warnings,
  };
}

export function themesDir(home: string): string {
  return join(home, 'themes');
}

/** `auto`: the terminal's background from COLORFGBG ("fg;bg", bg 7 or 15 = light); unknown → dark. No detection under CI. */
export function detectBackground(env: NodeJS.ProcessEnv = process.env): 'dark' | 'light' {
  if (env.CI && env.CI !== '0') return 'dark';
  const parts = (env.COLORFGBG ?? '').split(';');
  const bg = Number(parts[parts.length - 1]);
  if (Number.isInteger(bg) && (bg === 7 || bg === 15)) return 'light';
  return 'dark';
}

export interface LoadedTheme {
  theme: Theme;
  warnings: string[];
}

/** Resolves a tui.toml `theme` value. A missing or malformed custom theme falls back to dark. */
export function loadTheme(name: string, home: string, env: NodeJS.ProcessEnv = process.env): LoadedTheme {
  if (name === 'dark') return { theme: makeTheme('dark', 'Dark', 'dark', DARK), warnings: [] };
  if (name === 'light') return { theme: makeTheme('light', 'Light', 'light', LIGHT), warnings: [] };
  if (name === 'auto') {
    const bg = detectBackground(env);
    return { theme: makeTheme('auto', `Auto (${bg})`, bg, bg === 'light' ? LIGHT : DARK), warnings: [] };
  }
  const fallback = (why: string): LoadedTheme => ({
    theme: makeTheme('dark', 'Dark', 'dark', DARK),
    warnings: [`theme "${name}": ${why}; using the built-in dark theme`],
  });
  let names: string[];
  try {
    names = readdirSync(themesDir(home)).filter((n) => n.endsWith('.json'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return fallback(`no ${themesDir(home)} folder`);
    return fallback(`${themesDir(home)} cannot be read (${e instanceof Error ? e.message : String(e)})`);
  }
  const candidates = names.filter((n) => n === name || n === `${name}.json`);
  const ordered = [...candidates, ...names.filter((n) => !candidates.includes(n))];
  for (const n of ordered) {
    const path = join(themesDir(home), n);
    try {
      const { theme, warnings } = parseCustomTheme(path, readFileSync(path, 'utf8'));
      if (!candidates.includes(n) && theme.name !== name) continue;
      const palette = { ...(theme.base === 'light' ? LIGHT : DARK), ...theme.colors };
      return { theme: makeTheme(name, customLabel(n), theme.base, palette), warnings };
    } catch (e) {
      if (candidates.includes(n)) return fallback(`${n} is malformed (${(e as Error).message})`);
    }
  }
  return fallback(`no theme file named ${name}.json in ${themesDir(home)}`);
}

/** SPEC §9.5: `themes/ember.json` is shown as "Custom: ember". */
function customLabel(file: string): string {
  return `Custom: ${file.replace(/\.json$/, '')}`;
}

export interface ThemeChoice {
  /** What tui.toml `theme` is set to when this one is kept. */
  name: string;
  label: string;
  description?: string;
}

/** Everything /theme offers, the themes folder read again each time (a file added since shows up). */
export function listThemes(home: string, env: NodeJS.ProcessEnv = process.env): ThemeChoice[] {
  const choices: ThemeChoice[] = [
    { name: 'auto', label: `Auto (${detectBackground(env)})`, description: "follows the terminal's background" },
    { name: 'dark', label: 'Dark' },
    { name: 'light', label: 'Light' },
  ];
  let files: string[] = [];
  try {
    files = readdirSync(themesDir(home))
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch {
    // no themes folder: the built-in themes only
  }
  for (const file of files) {
    let description: string | undefined;
    try {
      const { theme } = parseCustomTheme(file, readFileSync(join(themesDir(home), file), 'utf8'));
      description = theme.displayName ?? `based on ${theme.base}`;
    } catch (e) {
      description = `malformed (${(e as Error).message}): shows the dark theme`;
    }
    choices.push({ name: file.replace(/\.json$/, ''), label: customLabel(file), description });
  }
  return choices;
}
