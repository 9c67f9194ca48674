// The commands about how the UI looks (docs/ui.md "Themes", "Status line", "Full-screen mode"): /theme
// opens the picker with a live preview, /reload-tui applies tui.toml again without touching the session,
// /fullscreen switches between the normal screen and the alternate one.
import type { SlashCommand } from './slashCommands';

export const LOOK_COMMANDS: SlashCommand[] = [
  {
    name: 'theme',
    aliases: [],
    description: 'pick the colour theme (live preview; Enter saves it to tui.toml)',
    run: (h) => h.preferences.openThemePicker(),
  },
  {
    name: 'fullscreen',
    aliases: [],
    description: 'full-screen mode: on, off, or toggle (the conversation scrolls with PgUp/PgDn)',
    run(h, args) {
      const word = args.trim().toLowerCase();
      if (word && word !== 'on' && word !== 'off')
        return h.notice('error', `Expected on or off, got "${args.trim()}".`);
      const on = word ? word === 'on' : !h.fullScreen;
      if (on === h.fullScreen) return h.notice('info', `Full-screen mode is already ${on ? 'on' : 'off'}.`);
      h.fullScreen = on;
      h.notice(
        'info',
        on
          ? 'Full-screen mode on: PgUp/PgDn scroll the conversation; /fullscreen off returns to the normal screen.'
          : 'Full-screen mode off.',
      );
    },
  },
  {
    name: 'reload-tui',
    aliases: [],
    description: 'apply tui.toml again (theme, LaTeX, editor, status line)',
    run: (h) => h.preferences.reload(),
  },
];
