// The goal driver: keeps a goal going. At the first step of every turn while the goal is active it
// injects the goal (objective, criterion, what is used) — at turn boundaries only, never between
// steps. After every goal turn it books the turn, its completion tokens and its time, then:
//   interrupted / failed turn → paused;  a budget used up → blocked;  no progress (max_idle_turns goal
//   turns in a row without a tool call, or the same final answer twice in a row) → paused;  still
//   active → it submits a continuation turn (a wrap-up prompt from WRAP_UP_FRACTION of any budget);
//   completed → the first queued goal (upcoming-goals.json) starts.
import { renderTemplate } from '../../tools/defineTool';
import continueText from '../../tools/goal/prompts/goalContinue.md';
import contextText from '../../tools/goal/prompts/goalContext.md';
import wrapUpText from '../../tools/goal/prompts/goalWrapUp.md';
import {
  budgetFraction,
  spentBudget,
  WRAP_UP_FRACTION,
  type Goal,
  type GoalChange,
} from '../../tools/goal/goalService';
import type { GoalController } from './goals';
import type { TurnExtension, TurnOutcome } from '../loop/loop';
import type { Session } from '../session/session';

export type GoalCommand =
  | { kind: 'status' | 'pause' | 'resume' | 'cancel' | 'next_manage' }
  | { kind: 'create' | 'replace' | 'next'; objective: string }
  | { kind: 'invalid'; message: string };

const NO_ARGUMENT = new Set(['status', 'pause', 'resume', 'cancel']);

/**
 * Parses `/goal …` (undefined when the text is not a /goal command). Keywords are subcommands only
 * as the first word; `/goal -- <text>` and `/goal next -- <text>` take the text as an objective.
 */
export function parseGoalCommand(input: string): GoalCommand | undefined {
  const match = /^\s*\/goal(?:\s+([\s\S]*))?$/.exec(input);
  if (!match) return undefined;
  const rest = (match[1] ?? '').trim();
  if (!rest) return { kind: 'status' };
  const escaped = /^--(?:\s+([\s\S]*))?$/.exec(rest);
  if (escaped)
    return escaped[1]?.trim()
      ? { kind: 'create', objective: escaped[1].trim() }
      : { kind: 'invalid', message: '/goal -- needs an objective after the --.' };
  const [, word, tail = ''] = /^(\S+)(?:\s+([\s\S]*))?$/.exec(rest)!;
  const args = tail.trim();
  if (NO_ARGUMENT.has(word)) {
    if (!args) return { kind: word as 'status' };
    return {
      kind: 'invalid',
      message: `/goal ${word} takes no arguments. To use "${word} …" as the objective, write /goal -- ${rest}`,
    };
  }
  if (word === 'replace' || word === 'next') {
    if (word === 'next' && args === 'manage') return { kind: 'next_manage' };
    const objective = args.replace(/^--(\s+|$)/, '').trim();
    if (!objective) return { kind: 'invalid', message: `/goal ${word} needs an objective.` };
    return { kind: word, objective };
  }
  return { kind: 'create', objective: rest };
}

function formatMs(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** "3 of 10 turns, 1200 tokens, 2 min" — each with its limit when one is set. */
export function describeUsage(goal: Goal): string {
  const of = (limit: number | undefined, show: (n: number) => string) =>
    limit === undefined ? '' : ` of ${show(limit)}`;
  return [
    `${goal.used.turns}${of(goal.budget.turns, String)} turns`,
    `${goal.used.tokens}${of(goal.budget.tokens, String)} tokens`,
    `${formatMs(goal.used.timeMs)}${of(goal.budget.timeMs, formatMs)}`,
  ].join(', ');
}

/** The goal block injected at the start of each turn while the goal is active. */
export function goalContext(goal: Goal): string {
  const wrapUp =
    budgetFraction(goal) >= WRAP_UP_FRACTION
      ? '\nMost of the budget is used: wrap up now and bring the goal to a verified end.'
      : '';
  return renderTemplate(contextText.trim(), {
    OBJECTIVE: goal.objective,
    CRITERION: goal.completionCriterion ?? '(none given: decide what "done" means and verify it)',
    STATUS: goal.status,
    USAGE: describeUsage(goal),
    WRAP_UP: wrapUp,
  });
}

/** The prompt of an automatic continuation turn. */
export function continuationPrompt(goal: Goal): string {
  if (budgetFraction(goal) >= WRAP_UP_FRACTION)
    return renderTemplate(wrapUpText.trim(), { USAGE: describeUsage(goal) });
  return continueText.trim();
}

function pauseReason(outcome: TurnOutcome): string {
  if (outcome.reason === 'cancelled')
    return outcome.error ? `paused: ${outcome.error}` : 'paused: the turn was interrupted';
  return `paused: the turn stopped (${outcome.reason})${outcome.error ? `: ${outcome.error}` : ''}`;
}

/** `[goal]` in config.toml. */
export interface GoalSettings {
  /** Consecutive goal turns without a tool call before the goal pauses for "no progress". */
  maxIdleTurns: number;
}

export const DEFAULT_GOAL_SETTINGS: GoalSettings = { maxIdleTurns: 3 };

/** The reason a goal pauses when its turns stop doing anything. */
export const NO_PROGRESS = 'no progress';

/**
 * Watches the goal's turns for a model that only talks: without it, a text-only model would get a
 * continuation turn after every answer, for ever. In memory only: a resumed goal starts paused.
 */
class ProgressWatch {
  private idleTurns = 0;
  private lastText: string | undefined;

  constructor(private readonly maxIdleTurns: number) {}

  reset(): void {
    this.idleTurns = 0;
    this.lastText = undefined;
  }

  /** Books one completed goal turn; returns why the goal makes no progress, if it does not. */
  check(outcome: TurnOutcome): string | undefined {
    this.idleTurns = outcome.toolCalls ? 0 : this.idleTurns + 1;
    const text = outcome.text.trim();
    const repeated = text !== '' && text === this.lastText;
    this.lastText = text;
    if (repeated) return `${NO_PROGRESS}: the model gave the same answer two turns in a row`;
    if (this.idleTurns >= this.maxIdleTurns)
      return `${NO_PROGRESS}: ${this.idleTurns} goal turns in a row without a tool call ([goal] max_idle_turns)`;
    return undefined;
  }
}

interface TurnMark {
  turnId: string;
  goalId?: string;
  wasActive: boolean;
  outputTokens: number;
  startedAt: number;
}

export class GoalDriver {
  private turn: TurnMark | undefined;
  private readonly progress: ProgressWatch;
  private watchedGoal: string | undefined;

  constructor(
    private readonly session: Session,
    private readonly goals: GoalController,
    private readonly now: () => number = Date.now,
    settings: GoalSettings = DEFAULT_GOAL_SETTINGS,
  ) {
    this.progress = new ProgressWatch(settings.maxIdleTurns);
  }

  readonly extension: TurnExtension = {
    beforeStep: () => this.beforeStep(),
    afterTurn: (agent, outcome) => this.afterTurn(outcome, (text) => agent.submit({ kind: 'continuation', text })),
  };

  private beforeStep(): void {
    const { state } = this.session;
    const turnId = state.openTurn?.turnId;
    if (!turnId || this.turn?.turnId === turnId) return;
    const goal = state.goal;
    const wasActive = goal?.status === 'active';
    this.turn = { turnId, goalId: goal?.id, wasActive, outputTokens: state.usage.outputTokens, startedAt: this.now() };
    if (wasActive)
      this.session.commit({
        type: 'message',
        message: { role: 'user', content: [{ type: 'text', text: goalContext(goal!) }] },
      });
  }

  private afterTurn(outcome: TurnOutcome, submitContinuation: (text: string) => void): void {
    const mark = this.turn;
    this.turn = undefined;
    const goal = this.goals.current();
    if (!goal || !mark || mark.turnId !== outcome.turnId) return;
    const counted = (mark.wasActive && mark.goalId === goal.id) || goal.startTurnId === outcome.turnId;
    if (!counted) return;
    goal.used.turns += 1;
    goal.used.tokens += Math.max(0, this.session.state.usage.outputTokens - mark.outputTokens);
    goal.used.timeMs += Math.max(0, this.now() - mark.startedAt);
    // A new goal, or one resumed after it stopped, starts with a clean record.
    if (this.watchedGoal !== goal.id) this.progress.reset();
    this.watchedGoal = goal.id;
    let change: GoalChange = 'progress';
    if (goal.status === 'active') {
      const spent = spentBudget(goal);
      const stalled = outcome.reason === 'completed' && !spent ? this.progress.check(outcome) : undefined;
      if (outcome.reason !== 'completed') Object.assign(goal, { status: 'paused', reason: pauseReason(outcome) });
      else if (spent) Object.assign(goal, { status: 'blocked', reason: spent });
      else if (stalled) Object.assign(goal, { status: 'paused', reason: stalled });
      if (goal.status !== 'active') change = 'status';
    }
    this.goals.commit(change, goal);
    if (goal.status !== 'active') this.watchedGoal = undefined;
    if (goal.status === 'active') submitContinuation(continuationPrompt(goal));
    else if (goal.status === 'complete') this.goals.startNextQueued();
  }
}
