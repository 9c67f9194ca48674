// tui.toml as the running UI sees it (docs/ui.md): the theme, LaTeX rendering, the external editor and
// the status line, applied at start, again by /reload-tui (without touching the session), and by the
// /theme picker, which previews live and saves the kept theme to tui.toml.
import type { Component } from '@mariozechner/pi-tui';
import { displayPath, tuiConfigPath } from '../store/paths';
import { loadTuiConfig, saveTuiTheme, type LoadedTuiConfig, type StatusLineItem } from '../store/tuiConfig';
import { ThemePicker } from './dialogs/themePicker';
import { contextPercent, type FooterState } from './footer';
import { StatusLineCommand } from './statusLineCommand';
import { listThemes, loadTheme, type Theme } from './theme';
import type { ViewState } from './transcript/block';

export interface PreferencesHost {
  readonly home: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly view: ViewState;
  notice(level: 'info' | 'warning' | 'error' | 'success', text: string, hint?: string): void;
  /** Shows a panel in the input box's place (undefined closes it). */
  showPanel(panel: Component | undefined): void;
  /** The theme or the rendering changed: redraw everything, the transcript included. */
  restyle(): void;
  requestRender(): void;
}

/** What the status-line command gets on stdin (docs/ui.md "Status line"). */
export interface StatusSnapshot {
  version: string;
  session_id: string | null;
  cwd: string;
  model: string;
  git_branch: string | null;
  permission_mode: string;
  plan_mode: boolean;
  swarm_mode: boolean;
  busy: boolean;
  context: { used_tokens: number; limit_tokens: number; percent: number };
  tokens: { input: number; output: number };
  background_tasks: number;
  goal: { status: string; turns: number } | null;
}

export class TuiPreferences {
  editorCommand = '';
  statusItems: StatusLineItem[] = [];
  private statusCommand: StatusLineCommand | undefined;
  private themeName = 'auto';

  constructor(private readonly host: PreferencesHost) {}

  /** Reads tui.toml and applies it; returns what the user should be told (bad values, a malformed file). */
  load(): string[] {
    const tui = loadTuiConfig(this.host.home);
    const loaded = loadTheme(tui.config.theme, this.host.home, this.host.env);
    this.apply(tui, loaded.theme);
    return [...loaded.warnings, ...tui.warnings, ...(tui.notice ? [tui.notice] : [])];
  }

  /** /reload-tui: tui.toml and the active theme file read again; the session is not touched. */
  reload(): void {
    const problems = this.load();
    for (const p of problems) this.host.notice('warning', p);
    const { view } = this.host;
    const status = this.statusCommand
      ? 'the status-line command'
      : this.statusItems.length
        ? `status line ${this.statusItems.join(', ')}`
        : 'the default status line';
    this.host.notice(
      'success',
      `Reloaded ${displayPath(tuiConfigPath(this.host.home))}: theme ${view.theme.label}, LaTeX ${view.renderLatex ? 'on' : 'off'}, ${status}.`,
    );
    this.host.restyle();
  }

  private apply(tui: LoadedTuiConfig, theme: Theme): void {
    const { view } = this.host;
    this.themeName = tui.config.theme;
    view.theme = theme;
    view.renderLatex = tui.config.render_latex;
    this.editorCommand = tui.config.editor.command;
    this.statusItems = tui.config.status_line.items;
    this.statusCommand?.dispose();
    const command = tui.config.status_line.command.trim();
    this.statusCommand = command
      ? new StatusLineCommand({
          command,
          cwd: this.host.cwd,
          env: this.host.env,
          onChange: () => this.host.requestRender(),
          onError: (message) =>
            this.host.notice('warning', message, 'Fix [status_line] command in tui.toml, then /reload-tui.'),
        })
      : undefined;
  }

  /** The status-line command's line for this state (it runs in the background when the state changed). */
  customStatus(state: FooterState, extra: { version: string; sessionId: string | undefined }): string | undefined {
    if (!this.statusCommand) return undefined;
    this.statusCommand.update(statusSnapshot(state, extra));
    return this.statusCommand.line;
  }

  /** /theme: the picker, with the themes folder read again. */
  openThemePicker(): void {
    const { host } = this;
    const original = host.view.theme;
    const originalName = this.themeName;
    const loaded = new Map<string, { theme: Theme; warnings: string[] }>();
    const themeOf = (name: string) => {
      let entry = loaded.get(name);
      if (!entry) loaded.set(name, (entry = loadTheme(name, host.home, host.env)));
      return entry;
    };
    const show = (theme: Theme) => {
      host.view.theme = theme;
      host.restyle();
    };
    host.showPanel(
      new ThemePicker({
        choices: listThemes(host.home, host.env),
        current: originalName,
        theme: () => host.view.theme,
        preview: (name) => show(themeOf(name).theme),
        cancel: () => {
          host.showPanel(undefined);
          show(original);
        },
        keep: (name) => {
          host.showPanel(undefined);
          if (name === originalName) {
            show(original);
            host.notice('info', 'Theme unchanged.');
            return;
          }
          const { theme, warnings } = themeOf(name);
          show(theme);
          this.themeName = name;
          for (const w of warnings) host.notice('warning', w);
          this.persist(name, theme);
        },
      }),
    );
  }

  private persist(name: string, theme: Theme): void {
    const path = tuiConfigPath(this.host.home);
    try {
      saveTuiTheme(path, name);
    } catch (e) {
      this.host.notice(
        'error',
        `Theme ${theme.label} is used now but could not be saved to ${displayPath(path)}: ${(e as Error).message}`,
        'Check that the file is writable; it applies to this session until then.',
      );
      return;
    }
    this.host.notice('success', `Theme: ${theme.label} (saved to ${displayPath(path)}).`);
  }

  dispose(): void {
    this.statusCommand?.dispose();
    this.statusCommand = undefined;
  }
}

export function statusSnapshot(
  s: FooterState,
  extra: { version: string; sessionId: string | undefined },
): StatusSnapshot {
  return {
    version: extra.version,
    session_id: extra.sessionId ?? null,
    cwd: s.cwd,
    model: s.model,
    git_branch: s.branch ?? null,
    permission_mode: s.mode,
    plan_mode: s.plan,
    swarm_mode: !!s.swarm,
    busy: s.busy,
    context: {
      used_tokens: s.contextTokens,
      limit_tokens: s.contextLimit,
      percent: contextPercent(s.contextTokens, s.contextLimit),
    },
    tokens: { input: s.tokens?.input ?? 0, output: s.tokens?.output ?? 0 },
    background_tasks: s.tasks ?? 0,
    goal: s.goal ? { status: s.goal.status, turns: s.goal.turns } : null,
  };
}
