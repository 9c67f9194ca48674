// CronCreate: schedules a prompt to fire later in this session (docs/scheduled-tasks.md).
import { z } from 'zod';
import { defineTool } from '../defineTool';
import description from './cronCreate.md';
import { CRON_SERVICE, CRON_STALE_AFTER_DAYS, MAX_CRON_JOBS, MAX_CRON_PROMPT_BYTES } from './cronService';

export const cronCreateTool = defineTool({
  name: 'CronCreate',
  services: [CRON_SERVICE],
  description,
  deferred: true,
  constants: { MAX_PROMPT_BYTES: MAX_CRON_PROMPT_BYTES, MAX_JOBS: MAX_CRON_JOBS, STALE_DAYS: CRON_STALE_AFTER_DAYS },
  schema: z.object({
    cron: z.string().describe('5-field cron expression, local time.'),
    prompt: z.string().describe('The prompt to inject when it fires.'),
    recurring: z.boolean().default(true).describe('false: fire once, then delete.'),
  }),
  readOnly: false,
  defaultApproval: 'ask',
  subject: (a) => `CronCreate(${a.cron})`,
  async execute(args, ctx) {
    const result = ctx.services.get(CRON_SERVICE).create(args);
    if (!result.ok) return { content: result.message, isError: true };
    const { job } = result;
    return {
      content: [
        `id: ${job.id}`,
        `humanSchedule: ${job.humanSchedule}`,
        `nextFireAt: ${job.nextFireAt}`,
        `recurring: ${job.recurring}`,
      ].join('\n'),
      summary: `${job.id} ${job.humanSchedule}`,
    };
  },
});
