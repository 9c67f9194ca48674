// CronList: the session's scheduled tasks, soonest fire first; records separated by `---`.
import { z } from 'zod';
import { defineTool } from '../defineTool';
import description from './cronList.md';
import { CRON_SERVICE, formatCronJob } from './cronService';

export const cronListTool = defineTool({
  name: 'CronList',
  services: [CRON_SERVICE],
  description,
  deferred: true,
  schema: z.object({}),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(_args, ctx) {
    const jobs = ctx.services.get(CRON_SERVICE).list();
    if (!jobs.length) return { content: 'No scheduled tasks in this session.', summary: '0 scheduled tasks' };
    return { content: jobs.map(formatCronJob).join('\n---\n'), summary: `${jobs.length} scheduled task(s)` };
  },
});
