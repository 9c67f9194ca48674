// EnterPlanMode: turns plan mode on and tells the agent how to work in it and where its plan goes.
// The restrictions themselves are enforced by the engine (engine/policy/planMode.ts), around every tool.
import { z } from 'zod';
import { defineTool, renderTemplate } from '../defineTool';
import description from './enterPlanMode.md';
import { PLAN_SERVICE } from './planService';
import workflow from './planWorkflow.md';

export const enterPlanModeTool = defineTool({
  name: 'EnterPlanMode',
  services: [PLAN_SERVICE],
  deferred: true,
  description,
  schema: z.object({}),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(_args, ctx) {
    const { planPath, alreadyActive } = ctx.services.get(PLAN_SERVICE).enter();
    const head = alreadyActive ? 'Plan mode was already on.' : 'Plan mode is on.';
    return {
      content: `${head}\n\n${renderTemplate(workflow.trim(), { PLAN_PATH: planPath })}`,
      summary: alreadyActive ? 'Already in plan mode' : 'Entered plan mode',
    };
  },
});
