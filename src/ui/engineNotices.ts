// What the transcript says when the engine reports a change the user did not type: plan mode switched,
// a goal moved, a turn the engine started by itself. Pure mappings from events to notices, so the
// wording lives in one place and is testable without a terminal.
import { describeUsage } from '../engine/background/goalDriver';
import type { TurnOrigin } from '../engine/session/records';
import { displayPath } from '../store/paths';
import type { Goal, GoalChange } from '../tools/goal/goalService';

export interface UiNotice {
  level: 'info' | 'warning' | 'error' | 'success';
  text: string;
  hint?: string;
}

export function planModeNotice(active: boolean, planPath: string): UiNotice {
  if (!active) return { level: 'info', text: 'Plan mode off.' };
  return {
    level: 'info',
    text: `Plan mode on: the agent explores and writes its plan to ${displayPath(planPath)}; it changes nothing else until you approve.`,
    hint: 'Shift-Tab or /plan off leaves plan mode.',
  };
}

/** `queuedGoals`: how many upcoming goals wait behind this one. */
export function goalNotice(change: GoalChange, goal: Goal | null, queuedGoals: number): UiNotice | undefined {
  switch (change) {
    case 'created':
    case 'replaced':
      return goal
        ? {
            level: 'success',
            text: `Goal ${change === 'created' ? 'started' : 'replaced'}: ${goal.objective}`,
            hint: '/goal status · /goal pause · /goal cancel',
          }
        : undefined;
    case 'budget':
      return goal ? { level: 'info', text: `Goal budget set. Used so far: ${describeUsage(goal)}.` } : undefined;
    case 'cancelled':
      return { level: 'info', text: 'Goal cancelled.' };
    case 'blocker':
      return goal?.blocker
        ? {
            level: 'warning',
            text: `The agent reports a blocker (${goal.blocker.turns} of 3 goal turns): ${goal.blocker.text}`,
          }
        : undefined;
    case 'progress':
      return undefined;
    case 'status':
      if (!goal) return undefined;
      if (goal.status === 'active') return { level: 'info', text: 'Goal active again.' };
      if (goal.status === 'paused')
        return {
          level: 'warning',
          text: `Goal paused${goal.reason ? `: ${goal.reason.replace(/^paused: /, '')}` : '.'}`,
          hint: '/goal resume continues it.',
        };
      if (goal.status === 'blocked') {
        const waiting = queuedGoals ? ` ${queuedGoals} queued goal(s) wait for this one.` : '';
        return {
          level: 'warning',
          text: `Goal blocked: ${goal.reason ?? 'the agent needs your input'}`,
          hint: `Used: ${describeUsage(goal)}. /goal resume after helping, or /goal cancel.${waiting}`,
        };
      }
      return {
        level: 'success',
        text: `Goal complete${goal.reason ? `: ${goal.reason}` : '.'}`,
        hint: `Used: ${describeUsage(goal)}.`,
      };
  }
}

/** The line shown when a turn starts that the user did not send (a goal continuing, a task finishing). */
export function automaticTurnNotice(origin: Exclude<TurnOrigin, 'user'>): string {
  if (origin === 'system') return 'Goal: continuing automatically (/goal pause stops after this turn, Esc now).';
  if (origin === 'cron')
    return 'A scheduled task fired; its prompt runs now (CronList shows the schedule, Esc stops this turn).';
  return 'A background task finished; the agent is looking at it.';
}
