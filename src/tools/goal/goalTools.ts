// The goal tools: CreateGoal, GetGoal, SetGoalBudget, UpdateGoal. Rules that need the session's
// history (one goal per session, blocker streaks, budgets) are the engine's (engine/background/goals.ts).
import { z } from 'zod';
import { defineTool, type ToolResult } from '../defineTool';
import createDescription from './createGoal.md';
import getDescription from './getGoal.md';
import {
  BLOCK_REASONS,
  BLOCKED_AFTER_TURNS,
  BUDGET_UNITS,
  GOAL_SERVICE,
  goalView,
  MAX_OBJECTIVE_CHARS,
  normalizeBudget,
  type GoalResult,
} from './goalService';
import setBudgetDescription from './setGoalBudget.md';
import updateDescription from './updateGoal.md';

function fromResult(result: GoalResult, summary: string): ToolResult {
  if (!result.ok) return { content: result.error, isError: true };
  const view = JSON.stringify(goalView(result.goal), null, 2);
  return { content: result.message ? `${result.message}\n${view}` : view, summary };
}

export const createGoalTool = defineTool({
  name: 'CreateGoal',
  services: [GOAL_SERVICE],
  deferred: true,
  description: createDescription,
  constants: { MAX_OBJECTIVE_CHARS },
  schema: z.object({
    objective: z
      .string()
      .trim()
      .min(1, 'objective must not be empty')
      .max(MAX_OBJECTIVE_CHARS, `objective must be at most ${MAX_OBJECTIVE_CHARS} characters`),
    completionCriterion: z.string().trim().min(1, 'completionCriterion must not be empty when given').optional(),
    replace: z.boolean().default(false).describe('Abandon the current unfinished goal and start this one.'),
  }),
  readOnly: false,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    return fromResult(ctx.services.get(GOAL_SERVICE).create(args), 'Goal created');
  },
});

export const getGoalTool = defineTool({
  name: 'GetGoal',
  services: [GOAL_SERVICE],
  deferred: true,
  description: getDescription,
  schema: z.object({}),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(_args, ctx) {
    const goal = ctx.services.get(GOAL_SERVICE).current();
    return { content: JSON.stringify(goalView(goal), null, 2), summary: goal ? `Goal ${goal.status}` : 'No goal' };
  },
});

export const setGoalBudgetTool = defineTool({
  name: 'SetGoalBudget',
  services: [GOAL_SERVICE],
  deferred: true,
  description: setBudgetDescription,
  schema: z.object({
    value: z.number().positive('value must be a positive number'),
    unit: z.enum(BUDGET_UNITS),
  }),
  readOnly: false,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    const budget = normalizeBudget(args.value, args.unit);
    if ('error' in budget) return { content: budget.error, isError: true };
    return fromResult(ctx.services.get(GOAL_SERVICE).setBudget(budget.kind, budget.value), 'Goal budget set');
  },
});

export const updateGoalTool = defineTool({
  name: 'UpdateGoal',
  services: [GOAL_SERVICE],
  deferred: true,
  description: updateDescription,
  constants: { BLOCKED_AFTER_TURNS },
  schema: z.object({
    status: z.enum(['active', 'complete', 'blocked']),
    summary: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe('Required with complete: what was achieved and how it was verified.'),
    blocker: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe('Required with blocked: what stops you, in the same words each time.'),
    reason: z
      .enum(BLOCK_REASONS)
      .optional()
      .describe('With blocked: the objective itself is impossible, unsafe or contradictory.'),
  }),
  readOnly: false,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    if (args.status === 'complete' && !args.summary)
      return {
        content: 'UpdateGoal with status "complete" needs a `summary` of what was achieved and how it was verified.',
        isError: true,
      };
    if (args.status === 'blocked' && !args.blocker)
      return {
        content: 'UpdateGoal with status "blocked" needs a `blocker` describing what stops you.',
        isError: true,
      };
    return fromResult(ctx.services.get(GOAL_SERVICE).update(args), `Goal ${args.status}`);
  },
});
