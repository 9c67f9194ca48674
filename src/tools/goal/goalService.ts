// Goals as the goal tools see them: the shape of a goal, the budget rules, and the service the
// engine implements (engine/background/goals.ts) over the session journal.
import { serviceKey } from '../defineTool';

export const MAX_OBJECTIVE_CHARS = 4_000;
export const MIN_TIME_BUDGET_MS = 1_000;
export const MAX_TIME_BUDGET_MS = 24 * 60 * 60 * 1_000;
/** From this share of any budget on, continuation prompts ask the agent to wrap up. */
export const WRAP_UP_FRACTION = 0.75;
/** Consecutive goal turns with the same blocker before UpdateGoal may report `blocked`. */
export const BLOCKED_AFTER_TURNS = 3;

export type GoalStatus = 'active' | 'paused' | 'blocked' | 'complete';
export const BUDGET_UNITS = ['turns', 'tokens', 'milliseconds', 'seconds', 'minutes', 'hours'] as const;
export type BudgetUnit = (typeof BUDGET_UNITS)[number];
export type BudgetKind = 'turns' | 'tokens' | 'timeMs';
export const BLOCK_REASONS = ['impossible', 'unsafe', 'contradictory'] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

export interface Goal {
  id: string;
  objective: string;
  completionCriterion?: string;
  status: GoalStatus;
  createdAt: string;
  /** Limits the user asked for; absent = none. */
  budget: Partial<Record<BudgetKind, number>>;
  /** Goal turns run (the starting turn counts), completion tokens, active time. */
  used: Record<BudgetKind, number>;
  /** Why it stopped: the pause reason, the blocker, or the completion summary. */
  reason?: string;
  /** The same blocker reported on consecutive goal turns (see BLOCKED_AFTER_TURNS). */
  blocker?: { text: string; turns: number; lastTurn: number };
  /** The turn in which the agent created the goal: it counts toward the turn budget. */
  startTurnId?: string;
}

export type GoalResult = { ok: true; goal: Goal; message?: string } | { ok: false; error: string };

export interface GoalService {
  current(): Goal | undefined;
  create(input: { objective: string; completionCriterion?: string; replace: boolean }): GoalResult;
  setBudget(kind: BudgetKind, value: number): GoalResult;
  update(input: {
    status: 'active' | 'complete' | 'blocked';
    summary?: string;
    blocker?: string;
    reason?: BlockReason;
  }): GoalResult;
}

export const GOAL_SERVICE = serviceKey<GoalService>()('goals');

const UNIT_MS: Partial<Record<BudgetUnit, number>> = {
  milliseconds: 1,
  seconds: 1_000,
  minutes: 60_000,
  hours: 3_600_000,
};

/** SetGoalBudget's rule: time within 1 s…24 h; turns and tokens rounded, at least 1. */
export function normalizeBudget(
  value: number,
  unit: BudgetUnit,
): { kind: BudgetKind; value: number } | { error: string } {
  if (!Number.isFinite(value) || value <= 0)
    return { error: `The budget value must be a positive number, got ${value}.` };
  const factor = UNIT_MS[unit];
  if (factor === undefined) return { kind: unit as 'turns' | 'tokens', value: Math.max(1, Math.round(value)) };
  const ms = Math.round(value * factor);
  if (ms < MIN_TIME_BUDGET_MS || ms > MAX_TIME_BUDGET_MS) {
    return { error: `A time budget must be between 1 second and 24 hours; ${value} ${unit} is ${ms} ms.` };
  }
  return { kind: 'timeMs', value: ms };
}

/** The largest share of any budget used so far (0 with no budget). */
export function budgetFraction(goal: Goal): number {
  let max = 0;
  for (const kind of ['turns', 'tokens', 'timeMs'] as const) {
    const limit = goal.budget[kind];
    if (limit) max = Math.max(max, goal.used[kind] / limit);
  }
  return max;
}

/** The first budget that is used up, in words; undefined while all have room. */
export function spentBudget(goal: Goal): string | undefined {
  const names: Record<BudgetKind, string> = { turns: 'turns', tokens: 'tokens', timeMs: 'ms' };
  for (const kind of ['turns', 'tokens', 'timeMs'] as const) {
    const limit = goal.budget[kind];
    if (limit !== undefined && goal.used[kind] >= limit)
      return `budget reached: ${goal.used[kind]} of ${limit} ${names[kind]} used`;
  }
  return undefined;
}

/** GetGoal's view: objective, criterion, status, budgets with what remains, terminal reason. */
export function goalView(goal: Goal | undefined): Record<string, unknown> {
  if (!goal) return { goal: null };
  const budget = (kind: BudgetKind) => {
    const limit = goal.budget[kind];
    return limit === undefined
      ? { used: goal.used[kind], limit: null, remaining: null }
      : { used: goal.used[kind], limit, remaining: Math.max(0, limit - goal.used[kind]) };
  };
  return {
    goal: {
      objective: goal.objective,
      completionCriterion: goal.completionCriterion ?? null,
      status: goal.status,
      budgets: { turns: budget('turns'), tokens: budget('tokens'), timeMs: budget('timeMs') },
      ...(goal.status !== 'active' && goal.reason ? { terminalReason: goal.reason } : {}),
    },
  };
}

/** What a `goal` journal record changed (the record carries the whole goal after the change). */
export type GoalChange = 'created' | 'replaced' | 'budget' | 'status' | 'blocker' | 'progress' | 'cancelled';
