// `/goal …` (docs/plan-goals-context.md): starts, reports and steers the session's goal; `/goal next
// manage` opens the queue of upcoming goals in a panel (dialogs/goalQueuePanel.ts) to reorder, edit
// and delete them.
import { parseGoalCommand } from '../engine/background/goals';
import type { Runtime } from '../engine/runtime/runtime';
import { GoalQueuePanel } from './dialogs/goalQueuePanel';
import type { CommandHost, SlashCommand } from './slashCommands';

function manageQueue(h: CommandHost, rt: Runtime): void {
  const loaded = rt.goals.upcoming();
  if (!loaded.length) {
    h.notice('info', 'No upcoming goals.', 'Queue one with /goal next <objective>.');
    return;
  }
  h.showPanel(
    ({ close, terminal, requestRender }) =>
      new GoalQueuePanel(h.theme, {
        goals: loaded,
        terminal,
        requestRender,
        onClose: close,
        onSave(goals) {
          // A queued goal may have started meanwhile (the current one completed): saving would bring it back.
          if (JSON.stringify(rt.goals.upcoming()) !== JSON.stringify(loaded))
            return 'The queue changed while it was open (a queued goal started). Press Esc and open /goal next manage again.';
          const result = rt.goals.setUpcoming(goals);
          if (!result.ok) return result.message;
          h.notice(
            'info',
            goals.length
              ? `Saved the queue: ${goals.length} upcoming goal${goals.length === 1 ? '' : 's'}.`
              : 'Cleared the queue of upcoming goals.',
          );
          return undefined;
        },
      }),
  );
}

export const GOAL_COMMAND: SlashCommand = {
  name: 'goal',
  aliases: [],
  description: 'goal: <objective>, status, pause, resume, cancel, replace, next, next manage',
  run(h, args) {
    const command = parseGoalCommand(`/goal ${args}`) ?? { kind: 'status' as const };
    if (command.kind === 'invalid') {
      h.notice('error', command.message);
      return;
    }
    const readOnly =
      command.kind === 'status' ||
      command.kind === 'next_manage' ||
      command.kind === 'pause' ||
      command.kind === 'cancel';
    if (readOnly && !h.runtime) {
      h.notice(
        'info',
        command.kind === 'status'
          ? 'No goal.'
          : command.kind === 'next_manage'
            ? 'No upcoming goals.'
            : 'There is no goal yet.',
      );
      return;
    }
    const rt = readOnly ? h.runtime! : h.ensureRuntime();
    if (!rt) return;
    if (command.kind === 'next_manage') return manageQueue(h, rt);
    const result = rt.goals.run(command);
    // Goal events report starts, pauses, resumes and cancellations; show what no event says.
    const quiet =
      result.ok && command.kind !== 'status' && !(command.kind === 'next' && result.message.startsWith('Queued'));
    if (quiet) return;
    if (command.kind === 'status') h.popup('Goal', result.message.split('\n'));
    else h.notice(result.ok ? 'info' : 'warning', result.message);
  },
};
