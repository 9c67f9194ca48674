// tui.toml: UI preferences (docs/configuration.md). The app is forgiving — a malformed file falls back to the
// defaults and the user sees a notice, because a typo in a colour preference must not block work.
// `jarvis doctor tui` is strict and reports the same problem as an error.
import { readFileSync } from 'node:fs';
import { replacePrivateFileSync } from './privateFiles';
import { z } from 'zod';
import { ConfigError, bool, oneOf, parseToml, str, stringList, table, validateAgainst } from './configFields';
import { displayPath, tuiConfigPath } from './paths';

/** SPEC's items plus `context` (the share of the context window in use) and `tokens` (the session's totals). */
export const STATUS_LINE_ITEMS = ['mode', 'goal', 'model', 'context', 'tokens', 'tasks', 'cwd', 'git', 'tips'] as const;
export type StatusLineItem = (typeof STATUS_LINE_ITEMS)[number];

const tuiSchema = table({
  theme: z
    .string({ error: 'a theme name ("auto", "dark", "light" or a custom theme)' })
    .min(1, {
      error: 'a theme name ("auto", "dark", "light" or a custom theme)',
    })
    .default('auto'),
  render_latex: bool().default(true),
  disable_paste_burst: bool().default(false),
  cache_expiry_hint: bool().default(true),
  editor: table({ command: str().default('') }).prefault({}),
  notifications: table({
    enabled: bool().default(true),
    notification_condition: oneOf(['unfocused', 'always']).default('unfocused'),
  }).prefault({}),
  upgrade: table({ auto_install: bool().default(true) }).prefault({}),
  status_line: table({ items: stringList().default([]), command: str().default('') }).prefault({}),
});

/** The parsed file; status-line items are the known ones only (unknown ones are dropped with a warning). */
export type TuiConfig = Omit<z.output<typeof tuiSchema>, 'status_line'> & {
  status_line: { items: StatusLineItem[]; command: string };
};

export function defaultTuiConfig(): TuiConfig {
  return tuiSchema.parse({}) as TuiConfig;
}

export interface ParsedTuiConfig {
  config: TuiConfig;
  warnings: string[];
}

/** Strict validation of tui.toml text (doctor). Throws ConfigError. */
export function parseTuiConfigText(text: string, file: string): ParsedTuiConfig {
  const config = validateAgainst(tuiSchema, parseToml(text, file), file);
  const warnings: string[] = [];
  const unknown = config.status_line.items.filter((item) => !(STATUS_LINE_ITEMS as readonly string[]).includes(item));
  if (unknown.length) {
    // docs/ui.md: unknown ids are skipped with a warning, not rejected.
    warnings.push(
      `${displayPath(file)}: status_line.items: unknown item ${unknown.map((u) => JSON.stringify(u)).join(', ')} skipped ` +
        `(known: ${STATUS_LINE_ITEMS.join(', ')})`,
    );
    config.status_line.items = config.status_line.items.filter((item) => !unknown.includes(item));
  }
  return { config: config as TuiConfig, warnings };
}

export interface LoadedTuiConfig {
  config: TuiConfig;
  path: string;
  existed: boolean;
  /** Set when the file was malformed and the defaults are in use. */
  notice?: string;
  warnings: string[];
}

/** For the app: never throws for a bad file, never creates one. */
export function loadTuiConfig(home: string, opts: { path?: string } = {}): LoadedTuiConfig {
  const path = opts.path ?? tuiConfigPath(home);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { config: defaultTuiConfig(), path, existed: false, warnings: [] };
    return {
      config: defaultTuiConfig(),
      path,
      existed: true,
      warnings: [],
      notice: `${displayPath(path)} could not be read (${String(err)}); using default UI settings`,
    };
  }
  try {
    const { config, warnings } = parseTuiConfigText(text, path);
    return { config, path, existed: true, warnings };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return {
      config: defaultTuiConfig(),
      path,
      existed: true,
      warnings: [],
      notice: `${err.message} — using default UI settings`,
    };
  }
}

/**
 * Sets the top-level `theme` key of tui.toml (/theme), keeping everything else in the file as it is:
 * the existing `theme = …` line is replaced, or one is added at the top. Written to a temporary file
 * and renamed over, so an interrupted write never leaves half a file. Throws with the OS error.
 */
export function saveTuiTheme(path: string, theme: string): void {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const line = `theme = ${JSON.stringify(theme)}`;
  const lines = text.split('\n');
  const firstTable = lines.findIndex((l) => /^\s*\[/.test(l));
  const topEnd = firstTable < 0 ? lines.length : firstTable;
  const at = lines.slice(0, topEnd).findIndex((l) => /^\s*theme\s*=/.test(l));
  if (at >= 0) lines[at] = line;
  else lines.unshift(line);
  let next = lines.join('\n');
  if (!next.endsWith('\n')) next += '\n';
  replacePrivateFileSync(path, next);
}
