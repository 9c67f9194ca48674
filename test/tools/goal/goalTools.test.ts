import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GoalController } from '../../../src/engine/background/goals';
import { Session } from '../../../src/engine/session/session';
import {
  createGoalTool,
  getGoalTool,
  GOAL_SERVICE,
  goalTools,
  MAX_OBJECTIVE_CHARS,
  normalizeBudget,
  setGoalBudgetTool,
  spentBudget,
  updateGoalTool,
  budgetFraction,
  type Goal,
} from '../../../src/tools/goal';
import { makeToolHarness } from '../../helpers/toolHarness';

function setup() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-goal-')));
  mkdirSync(join(root, 'home'));
  const session = Session.create({ home: join(root, 'home'), workDir: root, modelAlias: 't', mode: 'manual' });
  const goals = new GoalController(session, () => {});
  const harness = makeToolHarness();
  harness.register(GOAL_SERVICE, goals);
  return { harness, goals, session };
}

describe('SetGoalBudget units and limits', () => {
  it.each([
    [5, 'turns', { kind: 'turns', value: 5 }],
    [2.4, 'turns', { kind: 'turns', value: 2 }],
    [2.6, 'turns', { kind: 'turns', value: 3 }],
    [0.2, 'turns', { kind: 'turns', value: 1 }],
    [1500.5, 'tokens', { kind: 'tokens', value: 1501 }],
    [0.4, 'tokens', { kind: 'tokens', value: 1 }],
    [1000, 'milliseconds', { kind: 'timeMs', value: 1000 }],
    [1, 'seconds', { kind: 'timeMs', value: 1000 }],
    [30, 'minutes', { kind: 'timeMs', value: 1_800_000 }],
    [24, 'hours', { kind: 'timeMs', value: 86_400_000 }],
  ] as const)('%s %s → %j', (value, unit, expected) => {
    expect(normalizeBudget(value, unit)).toEqual(expected);
  });

  it.each([
    [999, 'milliseconds'],
    [0.5, 'seconds'],
    [0.01, 'minutes'],
    [86_400_001, 'milliseconds'],
    [24.001, 'hours'],
    [1441, 'minutes'],
  ] as const)('rejects a time budget outside 1 s…24 h: %s %s', (value, unit) => {
    expect(normalizeBudget(value, unit)).toMatchObject({
      error: expect.stringContaining('between 1 second and 24 hours'),
    });
  });

  it.each([0, -3])('the tool rejects a non-positive value (%s)', async (value) => {
    const { harness } = setup();
    const r = await harness.run(setGoalBudgetTool, { value, unit: 'turns' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('positive');
  });

  it('the tool rejects an unknown unit, and a budget without a goal', async () => {
    const { harness } = setup();
    expect((await harness.run(setGoalBudgetTool, { value: 3, unit: 'days' })).text).toContain('unit');
    expect((await harness.run(setGoalBudgetTool, { value: 3, unit: 'turns' })).text).toContain('no unfinished goal');
  });

  it('sets a budget on the goal, shown by GetGoal with what remains', async () => {
    const { harness } = setup();
    await harness.run(createGoalTool, { objective: 'Ship it', completionCriterion: 'CI green' });
    const r = await harness.run(setGoalBudgetTool, { value: 10, unit: 'minutes' });
    expect(r.isError).toBeFalsy();
    const view = JSON.parse((await harness.run(getGoalTool, {})).text);
    expect(view).toEqual({
      goal: {
        objective: 'Ship it',
        completionCriterion: 'CI green',
        status: 'active',
        budgets: {
          turns: { used: 0, limit: null, remaining: null },
          tokens: { used: 0, limit: null, remaining: null },
          timeMs: { used: 0, limit: 600_000, remaining: 600_000 },
        },
      },
    });
  });
});

describe('CreateGoal / GetGoal / UpdateGoal', () => {
  it('GetGoal returns {"goal": null} without a goal', async () => {
    const { harness } = setup();
    expect(JSON.parse((await harness.run(getGoalTool, {})).text)).toEqual({ goal: null });
  });

  it(`objective: at most ${MAX_OBJECTIVE_CHARS} characters, not empty`, async () => {
    const { harness } = setup();
    const long = await harness.run(createGoalTool, { objective: 'x'.repeat(MAX_OBJECTIVE_CHARS + 1) });
    expect(long.isError).toBe(true);
    expect(long.text).toContain(`at most ${MAX_OBJECTIVE_CHARS}`);
    expect((await harness.run(createGoalTool, { objective: ' ' })).text).toContain('must not be empty');
    expect((await harness.run(createGoalTool, { objective: 'x'.repeat(MAX_OBJECTIVE_CHARS) })).isError).toBeFalsy();
  });

  it('fails when a goal exists unless replace: true', async () => {
    const { harness, goals } = setup();
    await harness.run(createGoalTool, { objective: 'first' });
    const again = await harness.run(createGoalTool, { objective: 'second' });
    expect(again.isError).toBe(true);
    expect(again.text).toContain('replace: true');
    const replaced = await harness.run(createGoalTool, { objective: 'second', replace: true });
    expect(replaced.isError).toBeFalsy();
    expect(goals.current()?.objective).toBe('second');
  });

  it('a complete goal does not block creating the next one', async () => {
    const { harness } = setup();
    await harness.run(createGoalTool, { objective: 'first' });
    await harness.run(updateGoalTool, { status: 'complete', summary: 'done' });
    expect((await harness.run(createGoalTool, { objective: 'second' })).isError).toBeFalsy();
  });

  it('complete needs a summary, blocked needs a blocker; the summary becomes the terminal reason', async () => {
    const { harness } = setup();
    await harness.run(createGoalTool, { objective: 'g' });
    expect((await harness.run(updateGoalTool, { status: 'complete' })).text).toContain('needs a `summary`');
    expect((await harness.run(updateGoalTool, { status: 'blocked' })).text).toContain('needs a `blocker`');
    expect((await harness.run(updateGoalTool, { status: 'paused' })).isError).toBe(true);
    await harness.run(updateGoalTool, { status: 'complete', summary: 'all green' });
    const view = JSON.parse((await harness.run(getGoalTool, {})).text);
    expect(view.goal).toMatchObject({ status: 'complete', terminalReason: 'all green' });
    expect((await harness.run(updateGoalTool, { status: 'active' })).text).toContain('already complete');
  });

  it.each(['impossible', 'unsafe', 'contradictory'])('blocked with reason %s blocks at once', async (reason) => {
    const { harness, goals } = setup();
    await harness.run(createGoalTool, { objective: 'g' });
    const r = await harness.run(updateGoalTool, { status: 'blocked', blocker: 'needs a time machine', reason });
    expect(r.isError).toBeFalsy();
    expect(goals.current()).toMatchObject({ status: 'blocked', reason: `${reason}: needs a time machine` });
  });

  it('blocked without a reason is refused on the first goal turn and counted', async () => {
    const { harness, goals } = setup();
    await harness.run(createGoalTool, { objective: 'g' });
    const r = await harness.run(updateGoalTool, { status: 'blocked', blocker: 'no credentials' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('1 of 3 consecutive goal turns');
    expect(goals.current()).toMatchObject({
      status: 'active',
      blocker: { text: 'no credentials', turns: 1, lastTurn: 1 },
    });
  });

  it('active resumes a blocked goal unless a budget is used up', async () => {
    const { harness, goals } = setup();
    await harness.run(createGoalTool, { objective: 'g' });
    await harness.run(updateGoalTool, { status: 'blocked', blocker: 'x', reason: 'unsafe' });
    expect((await harness.run(updateGoalTool, { status: 'active' })).isError).toBeFalsy();
    expect(goals.current()?.status).toBe('active');
    const goal = goals.current()!;
    goal.budget.turns = 1;
    goal.used.turns = 1;
    goal.status = 'blocked';
    goals.commit('status', goal);
    const r = await harness.run(updateGoalTool, { status: 'active' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('budget reached: 1 of 1 turns');
  });

  it('budget helpers: fraction and spent', () => {
    const goal: Goal = {
      id: 'g',
      objective: 'o',
      status: 'active',
      createdAt: '',
      budget: { turns: 4, timeMs: 1000 },
      used: { turns: 3, tokens: 0, timeMs: 1000 },
    };
    expect(budgetFraction(goal)).toBe(1);
    expect(spentBudget(goal)).toBe('budget reached: 1000 of 1000 ms used');
    goal.used.timeMs = 10;
    expect(budgetFraction(goal)).toBe(0.75);
    expect(spentBudget(goal)).toBeUndefined();
  });

  it('tool descriptions stay small', () => {
    for (const t of goalTools) expect(t.renderedDescription.length, t.name).toBeLessThanOrEqual(1_200);
  });
});
