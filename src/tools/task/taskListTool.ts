// TaskList: the session's background tasks, newest first.
import { z } from 'zod';
import { defineTool } from '../defineTool';
import description from './taskList.md';
import { describeTask, TASK_SERVICE } from './taskService';

export const DEFAULT_LIMIT = 20;
export const MIN_LIMIT = 1;
export const MAX_LIMIT = 100;

export const taskListTool = defineTool({
  name: 'TaskList',
  services: [TASK_SERVICE],
  // Rarely needed (a finished task announces itself with its id), and every request pays for a core schema;
  // listed in ToolSearch (docs/tools.md).
  deferred: true,
  description,
  constants: { DEFAULT_LIMIT, MIN_LIMIT, MAX_LIMIT },
  schema: z.object({
    active_only: z.boolean().default(true),
    limit: z.number().int().min(MIN_LIMIT).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  }),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    const tasks = ctx.services.get(TASK_SERVICE);
    const all = tasks.list({ activeOnly: args.active_only });
    if (all.length === 0) {
      const content = args.active_only
        ? 'No background tasks are running. Use active_only: false to include finished tasks.'
        : 'This session has no background tasks.';
      return { content, summary: '0 tasks' };
    }
    const shown = all.slice(0, args.limit);
    const header = args.active_only
      ? `${all.length} running task(s)`
      : `${all.length} task(s), ${tasks.runningCount()} running`;
    const more = all.length > shown.length ? `\n(showing the newest ${shown.length}; raise limit to see more)` : '';
    return {
      content: `${header}:\n${shown.map((t) => `- ${describeTask(t)}`).join('\n')}${more}`,
      summary: `${all.length} task(s)`,
    };
  },
});
