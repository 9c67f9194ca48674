import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  enterPlanModeTool,
  exitPlanModeTool,
  PLAN_SERVICE,
  RESERVED_PLAN_LABELS,
  type PlanModeService,
  type PlanReviewAnswer,
  type PlanReviewOutcome,
  type PlanReviewRequest,
} from '../../../src/tools/plan';
import { makeToolHarness } from '../../helpers/toolHarness';

function setup(o: { active?: boolean; plan?: string; outcome?: PlanReviewOutcome } = {}) {
  const harness = makeToolHarness();
  const planPath = join(harness.scratchDir, 'plans', 'main', 'plan-test.md');
  if (o.plan !== undefined) {
    mkdirSync(dirname(planPath), { recursive: true });
    writeFileSync(planPath, o.plan);
  }
  const reviews: Array<Omit<PlanReviewRequest, 'planPath'>> = [];
  const service: PlanModeService & { isActive: boolean } = {
    isActive: o.active ?? true,
    get active() {
      return this.isActive;
    },
    planPath,
    enter() {
      const alreadyActive = this.isActive;
      this.isActive = true;
      return { planPath, alreadyActive };
    },
    async review(request) {
      reviews.push(request);
      return o.outcome ?? { status: 'reviewed', answer: { decision: 'approve' }, autoApproved: false };
    },
  };
  harness.register(PLAN_SERVICE, service);
  return { harness, reviews, planPath, service };
}

const opt = (label: string) => ({ label, description: `the ${label} way` });

describe('EnterPlanMode', () => {
  it('returns the workflow and the plan file path', async () => {
    const { harness, planPath, service } = setup({ active: false });
    const r = await harness.run(enterPlanModeTool, {});
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('Plan mode is on.');
    expect(r.text).toContain(`Plan file: ${planPath}`);
    expect(r.text).toContain('ExitPlanMode');
    expect(service.isActive).toBe(true);
    expect((await harness.run(enterPlanModeTool, {})).text).toContain('already on');
  });
});

describe('ExitPlanMode options validation', () => {
  it.each<[string, Array<{ label: string; description: string }>, string]>([
    ['an empty list', [], '1 to 3'],
    ['four options', [opt('a'), opt('b'), opt('c'), opt('d')], 'at most 3'],
    ['an 81-character label', [opt('x'.repeat(81))], 'at most 80 characters'],
    ['duplicate labels', [opt('Fast'), opt('fast')], 'unique'],
    ...RESERVED_PLAN_LABELS.map((label): [string, Array<{ label: string; description: string }>, string] => [
      `the reserved label "${label}"`,
      [opt(label)],
      'reserved',
    ]),
    ['a reserved label in another case', [opt('reject and exit')], 'reserved'],
  ])('rejects %s', async (_name, options, message) => {
    const { harness, reviews } = setup({ plan: '# Plan' });
    const r = await harness.run(exitPlanModeTool, { options });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(message);
    expect(reviews).toEqual([]);
  });

  it('accepts 1–3 options with labels up to 80 characters', async () => {
    const { harness, reviews } = setup({ plan: '# Plan' });
    expect((await harness.run(exitPlanModeTool, { options: [opt('x'.repeat(80))] })).isError).toBeFalsy();
    expect((await harness.run(exitPlanModeTool, { options: [opt('a'), opt('b'), opt('c')] })).isError).toBeFalsy();
    expect((await harness.run(exitPlanModeTool, {})).isError).toBeFalsy();
    expect(reviews.map((r) => r.options.length)).toEqual([1, 3, 0]);
    expect(reviews[0].plan).toBe('# Plan');
  });
});

describe('ExitPlanMode outcomes', () => {
  it('refuses outside plan mode', async () => {
    const { harness } = setup({ active: false, plan: 'x' });
    const r = await harness.run(exitPlanModeTool, {});
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Plan mode is not on');
  });

  it('refuses when the plan file is missing or empty', async () => {
    for (const plan of [undefined, '  \n']) {
      const { harness, planPath, reviews } = setup({ plan });
      const r = await harness.run(exitPlanModeTool, {});
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`${planPath} is missing or empty`);
      expect(reviews).toEqual([]);
    }
  });

  it.each<[string, PlanReviewAnswer, RegExp]>([
    ['approve', { decision: 'approve' }, /approved the plan .* Start implementing/],
    ['approve with an option', { decision: 'approve', option: 'Fast' }, /chose the option "Fast"/],
    ['reject', { decision: 'reject' }, /rejected the plan\. Plan mode stays on/],
    ['reject and exit', { decision: 'reject_and_exit' }, /rejected the plan and turned plan mode off/],
    [
      'revise',
      { decision: 'revise', feedback: 'use sqlite' },
      /revised[\s\S]*use sqlite[\s\S]*call ExitPlanMode again/,
    ],
  ])('reports %s to the model', async (_name, answer, text) => {
    const { harness } = setup({ plan: '# Plan', outcome: { status: 'reviewed', answer, autoApproved: false } });
    const r = await harness.run(exitPlanModeTool, { options: [opt('Fast')] });
    expect(r.isError).toBeFalsy();
    expect(r.text).toMatch(text);
  });

  it('shows "Auto-approved" when auto mode approved it', async () => {
    const { harness } = setup({
      plan: '# Plan',
      outcome: { status: 'reviewed', answer: { decision: 'approve' }, autoApproved: true },
    });
    const r = await harness.run(exitPlanModeTool, {});
    expect(r.summary).toBe('Auto-approved');
    expect(r.text).toMatch(/was auto-approved: auto permission mode approves plans without asking anyone/);
    expect(r.text).not.toMatch(/user approved/i);
  });

  it('fails with a plain-text fallback when no one can review', async () => {
    const { harness } = setup({ plan: '# Plan', outcome: { status: 'unavailable', reason: 'no front end.' } });
    const r = await harness.run(exitPlanModeTool, {});
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Plan mode stays on');
  });

  it('tool descriptions stay small', () => {
    for (const t of [enterPlanModeTool, exitPlanModeTool])
      expect(t.renderedDescription.length).toBeLessThanOrEqual(1_200);
    expect(exitPlanModeTool.renderedDescription).toContain('Approve, Reject, Reject and Exit, Revise');
  });
});
