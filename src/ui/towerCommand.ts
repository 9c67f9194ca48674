// `/tower on|off|status|teardown|<objective>` (docs/tower.md "In the terminal UI"): Tower mode from
// the TUI. The Tower tools exist only with the experimental flag, so without it every form says how
// to turn it on. `status` (and a bare `/tower`) opens the dashboard panel.
import { renderTemplate } from '../tools/defineTool';
import { TOWER_TOOL_NAMES } from '../tools/tower/towerService';
import type { TowerRuntime } from '../engine/tower/towerRuntime';
import type { CommandHost, SlashCommand } from './slashCommands';
import objectiveBrief from './towerObjective.md';

const FLAG_HINT =
  'Start jarvis with JARVIS_CODE_EXPERIMENTAL_TOWER=1 (or JARVIS_CODE_EXPERIMENTAL_FLAG=1); the tools are assembled at start-up, so a restart is needed.';

/** The session's Tower, opened now if needed; undefined (with a notice) without the flag. */
function towerOf(h: CommandHost): TowerRuntime | undefined {
  const rt = h.ensureRuntime();
  if (!rt) return undefined;
  if (!rt.tower) {
    h.notice('error', 'Tower mode is experimental and not enabled in this session.', FLAG_HINT);
    return undefined;
  }
  return rt.tower;
}

/** Turns the mode on: the workspace is initialised (or taken over) and the coordinator's tools are loaded. */
async function turnOn(h: CommandHost, tower: TowerRuntime): Promise<boolean> {
  try {
    const said = await tower.coordinator().init(undefined);
    h.runtime?.offered.load(TOWER_TOOL_NAMES);
    h.notice(
      'info',
      `Tower mode on. ${said.split('\n')[0]}`,
      '/tower <objective> hands the coordinator an objective; /tower status shows the dashboard.',
    );
    return true;
  } catch (e) {
    h.notice('error', `Tower mode could not start: ${(e as Error).message}`);
    return false;
  }
}

async function showStatus(h: CommandHost, tower: TowerRuntime): Promise<void> {
  try {
    h.popup('Tower', (await tower.coordinator().status()).split('\n'));
  } catch (e) {
    h.notice('error', (e as Error).message);
  }
}

export const TOWER_COMMAND: SlashCommand = {
  name: 'tower',
  aliases: [],
  description: 'Tower mode (experimental): on, off, status, teardown, or <objective>',
  async run(h, args) {
    const word = args.trim();
    const tower = towerOf(h);
    if (!tower) return;
    const verb = word.toLowerCase();
    if (!word || verb === 'status') return showStatus(h, tower);
    if (verb === 'on') return void (await turnOn(h, tower));
    if (verb === 'off') {
      await tower.spawner.stopAll('Tower mode was turned off');
      h.notice(
        'info',
        'Tower mode off: its agents were stopped. Missions, branches and worktrees are kept; /tower on resumes, /tower teardown cleans up.',
      );
      return;
    }
    if (verb === 'teardown') {
      try {
        h.popup('Tower teardown', (await tower.coordinator().teardown(false)).split('\n'));
      } catch (e) {
        h.notice(
          'error',
          (e as Error).message,
          'A damaged state file: ask the agent to call TowerTeardown with force: true.',
        );
      }
      return;
    }
    if (h.busy) {
      h.notice('warning', '/tower <objective> needs an idle agent.', 'Wait for the turn to end or press Esc.');
      return;
    }
    if (!(await turnOn(h, tower))) return;
    h.sendCommandPrompt(`/tower ${word}`, renderTemplate(objectiveBrief, { OBJECTIVE: word }));
  },
};
