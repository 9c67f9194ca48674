// The slash commands (docs/ui.md) this UI implements. A command is listed only if it works. Each group of
// commands lives in its own module and is spread into SLASH_COMMANDS below; add a new group the same way.
import { exportMarkdown } from '../engine/runtime/exportMarkdown';
import { displayPath } from '../store/paths';
import type { CommandHost, SlashCommand } from './commandHost';
import { GOAL_COMMAND } from './goalCommand';
import { helpLines } from './keymap';
import { LOOK_COMMANDS } from './lookCommands';
import { lspCommand } from './lspCommand';
import { MCP_COMMANDS } from './mcpCommands';
import { memoryCommand } from './memoryCommand';
import { PLUGIN_COMMANDS } from './plugins/pluginEntry';
import { SESSION_COMMANDS } from './sessionCommands';
import { SWARM_COMMAND } from './swarmCommand';
import { TOWER_COMMAND } from './towerCommand';

export type { CommandHost, PanelHost, PickItem, SlashCommand } from './commandHost';

export const SLASH_COMMANDS: SlashCommand[] = [
  {
    name: 'help',
    aliases: ['h', '?'],
    description: 'keys and commands',
    run: (h) => h.popup('Jarvis Code — help', helpLines(SLASH_COMMANDS)),
  },
  { name: 'new', aliases: ['clear'], description: 'start a fresh session', idleOnly: true, run: (h) => h.newSession() },
  ...SESSION_COMMANDS,
  memoryCommand,
  lspCommand,
  {
    name: 'version',
    aliases: [],
    description: 'the version',
    run: (h) => h.notice('info', `Jarvis Code ${h.version}`),
  },
  {
    name: 'export-md',
    aliases: ['export'],
    description: 'write the conversation to a Markdown file',
    idleOnly: true,
    run(h, args) {
      const s = h.session;
      if (!s) {
        h.notice('warning', 'Nothing to export yet: the session starts with the first message.');
        return;
      }
      try {
        const { path } = exportMarkdown(s, { cwd: h.cwd, path: args.trim() || undefined, modelId: h.modelLabel });
        h.notice('success', `Exported to ${displayPath(path)}`);
      } catch (e) {
        h.notice('error', (e as Error).message, 'Give another path: /export-md <path>.');
      }
    },
  },
  {
    name: 'plan',
    aliases: [],
    description: 'plan mode: on, off, clear (no argument toggles)',
    run(h, args) {
      const word = args.trim().toLowerCase();
      if (word === 'clear') return clearPlan(h);
      if (word && word !== 'on' && word !== 'off') {
        h.notice('error', `Expected on, off or clear, got "${args.trim()}".`);
        return;
      }
      const on = word === 'on' ? true : word === 'off' ? false : !h.planMode;
      if (on === h.planMode) h.notice('info', `Plan mode is already ${on ? 'on' : 'off'}.`);
      else h.planMode = on;
    },
  },
  GOAL_COMMAND,
  {
    name: 'compact',
    aliases: [],
    description: 'summarise the conversation to free context (optional instruction)',
    idleOnly: true,
    run: (h, args) => h.compact(args.trim()),
  },
  {
    name: 'undo',
    aliases: [],
    description: 'withdraw the last n prompts (no n: pick from a list)',
    idleOnly: true,
    run(h, args) {
      const word = args.trim();
      if (!word) return h.undo();
      const count = Number(word);
      if (!Number.isInteger(count) || count < 1) {
        h.notice('error', `Expected a number of prompts (1 or more), got "${word}".`);
        return;
      }
      h.undo(count);
    },
  },
  {
    name: 'rewind',
    aliases: [],
    description: 'go back to before a prompt: conversation, files, or both',
    idleOnly: true,
    run: (h) => h.rewind(),
  },
  {
    name: 'fork',
    aliases: [],
    description: 'copy this session (you stay in this one)',
    idleOnly: true,
    run(h) {
      const rt = h.runtime;
      if (!rt) {
        h.notice('warning', 'Nothing to fork yet: the session starts with the first message.');
        return;
      }
      try {
        const fork = h.forkSession();
        h.copyToClipboard(fork.resumeCommand);
        h.notice(
          'success',
          `Forked this session. Continue the copy with: ${fork.resumeCommand}`,
          `You are still in ${rt.session.id}. The command was also sent to the clipboard (where the terminal allows it).`,
        );
      } catch (e) {
        h.notice('error', (e as Error).message);
      }
    },
  },
  {
    name: 'remote',
    aliases: [],
    description: 'share this session with a browser or phone: on, off, status',
    run: (h, args) =>
      h.remote ? h.remote.command(args) : h.notice('warning', 'This front end cannot share its session.'),
  },
  { name: 'exit', aliases: ['quit', 'q'], description: 'quit', idleOnly: true, run: (h) => h.exit() },
  ...MCP_COMMANDS,
  SWARM_COMMAND,
  ...LOOK_COMMANDS,
  ...PLUGIN_COMMANDS,
  TOWER_COMMAND,
];

function clearPlan(h: CommandHost): void {
  if (h.busy || h.compacting) {
    h.notice('warning', '/plan clear is not available while the agent works.', 'Press Esc to interrupt first.');
    return;
  }
  const rt = h.runtime;
  if (!rt?.plan.planPath) {
    h.notice('info', 'There is no plan to clear yet.');
    return;
  }
  const path = rt.plan.clearPlan();
  h.notice('success', `Plan cleared. The next plan goes to ${displayPath(path)}.`);
}

export function findCommand(name: string): SlashCommand | undefined {
  const n = name.toLowerCase();
  return SLASH_COMMANDS.find((c) => c.name === n || c.aliases.includes(n));
}

/** `/name args` → the command and its arguments; undefined when the text is not a known command. */
export function parseSlash(text: string): { command: SlashCommand; args: string } | undefined {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  const command = findCommand(m[1]);
  return command ? { command, args: m[2] ?? '' } : undefined;
}
