// Scheduled tasks as the Cron tools see them. The engine's scheduler (engine/background/cronScheduler.ts) keeps the
// jobs with the session and fires them through the agent's step queue; tools reach it through
// `CRON_SERVICE`. docs/scheduled-tasks.md describes the rules.
import { serviceKey } from '../defineTool';

/** Jobs one session may hold at once. */
export const MAX_CRON_JOBS = 50;
/** The prompt limit, in UTF-8 bytes. */
export const MAX_CRON_PROMPT_BYTES = 8_192;
/** Recurring jobs older than this fire a last time (stale="true") and are deleted. */
export const CRON_STALE_AFTER_DAYS = 7;

export interface CronJobView {
  id: string;
  cron: string;
  humanSchedule: string;
  /** ISO time of the next (jittered) fire. */
  nextFireAt: string;
  recurring: boolean;
  prompt: string;
  ageDays: number;
  /** A recurring job past its 7 days: its next fire is its last. */
  stale: boolean;
}

export type CronCreateResult = { ok: true; job: CronJobView } | { ok: false; message: string };

export interface CronService {
  create(args: { cron: string; prompt: string; recurring: boolean }): CronCreateResult;
  /** Active jobs, soonest fire first. */
  list(): CronJobView[];
  /** False when there is no such job (never existed, deleted, or a one-shot that already fired). */
  delete(id: string): boolean;
}

export const CRON_SERVICE = serviceKey<CronService>()('cron');

/** One CronList record; records are separated by `---`. */
export function formatCronJob(job: CronJobView): string {
  return [
    `id: ${job.id}`,
    `cron: ${job.cron}`,
    `humanSchedule: ${job.humanSchedule}`,
    `nextFireAt: ${job.nextFireAt}`,
    `recurring: ${job.recurring}`,
    `ageDays: ${job.ageDays}`,
    `stale: ${job.stale}`,
    `prompt: ${job.prompt.length > 200 ? `${job.prompt.slice(0, 200)}…` : job.prompt}`,
  ].join('\n');
}
