// The commands about how the UI looks (docs/ui.md "Themes", "Status line"): /theme opens the picker with
// a live preview, /reload-tui applies tui.toml again without touching the session.
import type { SlashCommand } from './slashCommands';

export const LOOK_COMMANDS: SlashCommand[] = [
  { name: 'theme', aliases: [], description: 'pick the colour theme (live preview; Enter saves it to tui.toml)', run: (h) => h.preferences.openThemePicker() },
  { name: 'reload-tui', aliases: [], description: 'apply tui.toml again (theme, LaTeX, editor, status line)', run: (h) => h.preferences.reload() },
];
