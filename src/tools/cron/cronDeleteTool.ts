// CronDelete: cancels a scheduled task. An effect outside the plan, so plan mode refuses it.
import { z } from 'zod';
import { defineTool } from '../defineTool';
import description from './cronDelete.md';
import { CRON_SERVICE } from './cronService';

export const cronDeleteTool = defineTool({
  name: 'CronDelete',
  services: [CRON_SERVICE],
  description,
  deferred: true,
  schema: z.object({
    id: z.string().min(1, 'id must not be empty').describe('The task id from CronCreate or CronList.'),
  }),
  readOnly: false,
  defaultApproval: 'ask',
  subject: (a) => `CronDelete(${a.id})`,
  accesses: (_a, ctx) => [{ kind: 'exec', cwd: ctx.cwd }],
  async execute(args, ctx) {
    if (!ctx.services.get(CRON_SERVICE).delete(args.id)) {
      return {
        content: `No cron job with id ${args.id}. One-time tasks are deleted once they fire; CronList shows the tasks that remain.`,
        isError: true,
      };
    }
    return { content: `Deleted scheduled task ${args.id}; it will not fire again.`, summary: `deleted ${args.id}` };
  },
});
