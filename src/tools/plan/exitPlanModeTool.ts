// ExitPlanMode: reads the plan file and asks the user to approve it (auto mode approves by itself;
// YOLO does not skip it). Approval, or "reject and exit", leaves plan mode.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, type ToolResult } from '../defineTool';
import description from './exitPlanMode.md';
import {
  MAX_PLAN_OPTION_LABEL_CHARS,
  MAX_PLAN_OPTIONS,
  PLAN_SERVICE,
  RESERVED_PLAN_LABELS,
  type PlanReviewAnswer,
} from './planService';

const reserved = new Set(RESERVED_PLAN_LABELS.map((l) => l.toLowerCase()));

const option = z.object({
  label: z
    .string()
    .trim()
    .min(1, 'label must not be empty')
    .max(MAX_PLAN_OPTION_LABEL_CHARS, `label must be at most ${MAX_PLAN_OPTION_LABEL_CHARS} characters`)
    .refine(
      (l) => !reserved.has(l.toLowerCase()),
      `label must not be one of the reserved labels ${RESERVED_PLAN_LABELS.join(', ')}`,
    )
    .describe('Short name of the approach.'),
  description: z.string().describe('What this approach does differently.'),
});

const schema = z.object({
  options: z
    .array(option)
    .min(1, 'options, when given, must hold 1 to 3 alternatives (omit it for none)')
    .max(MAX_PLAN_OPTIONS, `options must hold at most ${MAX_PLAN_OPTIONS} alternatives`)
    .refine(
      (opts) => new Set(opts.map((o) => o.label.toLowerCase())).size === opts.length,
      'option labels must be unique',
    )
    .optional()
    .describe('1–3 alternative approaches the user may pick from.'),
});

function error(content: string): ToolResult {
  return { content, isError: true };
}

function outcomeText(answer: PlanReviewAnswer, planPath: string): ToolResult {
  switch (answer.decision) {
    case 'approve': {
      const chosen = answer.option ? ` The user chose the option "${answer.option}": follow that approach.` : '';
      return {
        content: `The user approved the plan (${planPath}). Plan mode is off.${chosen} Start implementing it now.`,
        summary: answer.option ? `Plan approved: ${answer.option}` : 'Plan approved',
      };
    }
    case 'reject':
      return {
        content:
          'The user rejected the plan. Plan mode stays on. Stop here and wait for the user to say what they want instead.',
        summary: 'Plan rejected',
      };
    case 'reject_and_exit':
      return {
        content:
          'The user rejected the plan and turned plan mode off. Do not implement the plan; stop and wait for their next instruction.',
        summary: 'Plan rejected; left plan mode',
      };
    case 'revise':
      return {
        content: `The user wants the plan revised. Plan mode stays on. Their feedback:\n${answer.feedback}\n\nUpdate the plan file (${planPath}) accordingly, then call ExitPlanMode again.`,
        summary: 'Plan revision requested',
      };
  }
}

export const exitPlanModeTool = defineTool({
  name: 'ExitPlanMode',
  services: [PLAN_SERVICE],
  deferred: true,
  description,
  constants: { MAX_PLAN_OPTIONS, MAX_PLAN_OPTION_LABEL_CHARS, RESERVED_LABELS: RESERVED_PLAN_LABELS.join(', ') },
  schema,
  readOnly: true,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    const plan = ctx.services.get(PLAN_SERVICE);
    if (!plan.active || !plan.planPath)
      return error(
        'Plan mode is not on, so there is no plan to submit. Use EnterPlanMode first if the task needs a plan.',
      );
    const planPath = plan.planPath;
    let text: string;
    try {
      text = await readFile(planPath, 'utf8');
    } catch {
      text = '';
    }
    if (!text.trim())
      return error(
        `The plan file ${planPath} is missing or empty. Write your plan there with Write, then call ExitPlanMode again.`,
      );
    const outcome = await plan.review({ plan: text, options: args.options ?? [] }, ctx.signal);
    if (outcome.status === 'unavailable') {
      return error(
        `The plan cannot be reviewed here: ${outcome.reason} Plan mode stays on. Present the plan in your reply and ask the user to approve it in plain text.`,
      );
    }
    // Auto mode approves by itself: say so, never that the user did (no one looked at the plan).
    if (outcome.autoApproved) {
      return {
        content: `The plan (${planPath}) was auto-approved: auto permission mode approves plans without asking anyone. Plan mode is off. Start implementing it now.`,
        summary: 'Auto-approved',
      };
    }
    return outcomeText(outcome.answer, planPath);
  },
});
