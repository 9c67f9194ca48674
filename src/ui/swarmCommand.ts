// `/swarm on|off|<task>` (SPEC §2.4, §6.7; docs/ui.md "Swarm mode"): in swarm mode AgentSwarm calls are
// approved without asking. `/swarm <task>` turns it on and sends the task; it turns off again when that
// turn completes normally (if this command turned it on). In manual mode it first offers yolo or auto,
// since a swarm's members ask for every approval a manual session would.
import type { CommandHost, SlashCommand } from './slashCommands';

function setSwarm(h: CommandHost, on: boolean): void {
  h.swarmMode = on;
  h.notice(
    'info',
    on
      ? 'Swarm mode on: AgentSwarm runs without asking.'
      : 'Swarm mode off: AgentSwarm asks for approval in manual mode.',
  );
}

export const SWARM_COMMAND: SlashCommand = {
  name: 'swarm',
  aliases: [],
  description: 'swarm mode: on, off, or <task> to run it in swarm mode',
  run(h, args) {
    const word = args.trim();
    if (!word) return setSwarm(h, !h.swarmMode);
    if (/^(on|off)$/i.test(word)) return setSwarm(h, word.toLowerCase() === 'on');
    if (h.busy) {
      h.notice(
        'warning',
        '/swarm <task> needs an idle agent.',
        'Wait for the turn to end or press Esc; /swarm on works at any time.',
      );
      return;
    }
    if (h.mode !== 'manual') return h.sendSwarmTask(word);
    h.pick(
      'Swarm task in manual mode',
      [
        { value: 'yolo', label: 'Switch to YOLO mode', description: 'subagents run regular tools without asking' },
        { value: 'auto', label: 'Switch to auto mode', description: 'approve everything, sensitive files too' },
        { value: 'manual', label: 'Stay in manual mode', description: 'every subagent asks for its approvals' },
      ],
      (mode) => {
        if (mode === 'yolo' || mode === 'auto') h.mode = mode;
        h.sendSwarmTask(word);
      },
      ["The swarm's subagents ask for approvals like the main agent does. Switch mode first? (Esc: do not send)"],
    );
  },
};
