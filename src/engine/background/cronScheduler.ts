// The session's scheduled tasks (CronCreate/CronList/CronDelete; docs/scheduled-tasks.md). Jobs are
// saved in `<session>/cron/jobs.json` after every change, so a resumed session reloads them; `/new` and
// `/fork` start without them. One timer waits for the soonest fire; a fire hands its prompt, wrapped in a
// `<cron-fire>` envelope, to `fire`, which queues it on the agent's step queue like a prompt. Fire times
// missed while the process slept or was not running are counted and delivered as one fire.
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync } from 'node:fs';
import { mkdirPrivateSync, writePrivateFileSync } from '../../store/privateFiles';
import { join } from 'node:path';
import {
  CRON_STALE_AFTER_DAYS,
  MAX_CRON_JOBS,
  MAX_CRON_PROMPT_BYTES,
  type CronCreateResult,
  type CronJobView,
  type CronService,
} from '../../tools/cron/cronService';
import { CronExpressionError, jitterMs, parseCron, type CronSchedule } from './cronSchedule';

/** Time as the scheduler sees it; tests inject a clock they move by hand. */
export interface CronClock {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const SYSTEM_CLOCK: CronClock = {
  now: () => Date.now(),
  // Unref'd: a waiting job alone never keeps a process alive (print mode waits for one-shots itself).
  setTimer: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

const DAY_MS = 86_400_000;
/** setTimeout's longest delay; a longer wait re-arms when it ends. */
const MAX_TIMER_MS = 2_147_483_647;
/** Missed fire times counted at most (more than 7 days of a job firing every minute). */
const MAX_COALESCED = 20_000;
const FILE_VERSION = 1;

interface StoredJob {
  id: string;
  cron: string;
  prompt: string;
  recurring: boolean;
  createdAt: number;
  /** The nominal time of the last fire, or the creation time: the next fire is the first match after it. */
  anchor: number;
}

interface Job {
  stored: StoredJob;
  schedule: CronSchedule;
}

export interface CronFire {
  jobId: string;
  text: string;
}

/** A fire handed to the agent: while it still waits in the queue, a later fire of its job merges into it. */
export interface QueuedFire {
  /** True while the agent has not yet started its turn. */
  waiting(): boolean;
  /** Replaces the text of the waiting fire (the merged envelope). */
  update(text: string): void;
}

export interface CronSchedulerOptions {
  /** The session's `cron/` folder. */
  dir: string;
  clock?: CronClock;
  /** Queues a fire on the agent (its own turn, after any running one). */
  fire(fire: CronFire): QueuedFire;
  /** False with JARVIS_DISABLE_CRON=1: nothing fires (the tools are not offered either). */
  enabled: boolean;
  warn(text: string): void;
}

function isStoredJob(value: unknown): value is StoredJob {
  const job = value as Partial<StoredJob> | null;
  return (
    typeof job === 'object' &&
    job !== null &&
    typeof job.id === 'string' &&
    /^[0-9a-f]{8}$/.test(job.id) &&
    typeof job.cron === 'string' &&
    typeof job.prompt === 'string' &&
    typeof job.recurring === 'boolean' &&
    Number.isFinite(job.createdAt) &&
    Number.isFinite(job.anchor)
  );
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** "14:30 on 2026-03-05", in local time. */
function localMinute(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())} on ${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

export class CronScheduler implements CronService {
  private readonly jobs = new Map<string, Job>();
  private readonly clock: CronClock;
  private timer: unknown;
  private closed = false;
  private listeners: Array<() => void> = [];
  /** Per job, its last fire and how many fire times it stands for: one waiting fire per job at most. */
  private readonly queued = new Map<string, { fire: QueuedFire; count: number }>();

  constructor(private readonly opts: CronSchedulerOptions) {
    this.clock = opts.clock ?? SYSTEM_CLOCK;
  }

  private get file(): string {
    return join(this.opts.dir, 'jobs.json');
  }

  /** Reads the saved jobs (a resumed session) and starts waiting; fires missed while away are due at once. */
  start(): void {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        this.opts.warn(`Scheduled tasks could not be read from ${this.file}: ${(e as Error).message}`);
      this.arm();
      return;
    }
    try {
      const data = JSON.parse(text) as { version?: number; jobs?: StoredJob[] };
      if (data.version !== FILE_VERSION || !Array.isArray(data.jobs))
        throw new Error(`unknown format (version ${String(data.version)})`);
      for (const stored of data.jobs) {
        if (!isStoredJob(stored)) throw new Error(`a job entry is malformed: ${JSON.stringify(stored).slice(0, 120)}`);
        this.jobs.set(stored.id, { stored, schedule: parseCron(stored.cron) });
      }
    } catch (e) {
      // Kept beside, never overwritten: the user can repair it and resume again.
      const aside = `${this.file}.unreadable-${this.clock.now()}`;
      this.jobs.clear();
      try {
        renameSync(this.file, aside);
      } catch {
        // Nothing to keep aside if it cannot even be moved; the warning still names the file.
      }
      this.opts.warn(
        `Scheduled tasks in ${this.file} could not be loaded (${(e as Error).message}); the file was kept as ${aside} and the session starts without them.`,
      );
    }
    this.arm();
  }

  create(args: { cron: string; prompt: string; recurring: boolean }): CronCreateResult {
    let schedule: CronSchedule;
    try {
      schedule = parseCron(args.cron);
    } catch (e) {
      if (e instanceof CronExpressionError) return { ok: false, message: e.message };
      throw e;
    }
    const bytes = Buffer.byteLength(args.prompt, 'utf8');
    if (!args.prompt.trim())
      return { ok: false, message: 'The prompt is empty; give the text to inject when the task fires.' };
    if (bytes > MAX_CRON_PROMPT_BYTES)
      return {
        ok: false,
        message: `The prompt is ${bytes} bytes (UTF-8); the limit is ${MAX_CRON_PROMPT_BYTES}. Shorten it, or put the details in a file and have the prompt point to it.`,
      };
    if (this.jobs.size >= MAX_CRON_JOBS)
      return {
        ok: false,
        message: `This session already has ${MAX_CRON_JOBS} scheduled tasks, the most it may hold. Delete one with CronDelete (CronList shows them) first.`,
      };
    let id: string;
    do id = randomBytes(4).toString('hex');
    while (this.jobs.has(id));
    const now = this.clock.now();
    const job: Job = {
      stored: { id, cron: schedule.expr, prompt: args.prompt, recurring: args.recurring, createdAt: now, anchor: now },
      schedule,
    };
    this.jobs.set(id, job);
    const saved = this.save();
    if (saved) {
      this.jobs.delete(id);
      return {
        ok: false,
        message: `The scheduled task could not be saved with the session (${saved}); nothing was scheduled.`,
      };
    }
    this.arm();
    this.changed();
    return { ok: true, job: this.view(job, now) };
  }

  list(): CronJobView[] {
    const now = this.clock.now();
    return [...this.jobs.values()]
      .map((job) => this.view(job, now))
      .sort((a, b) => a.nextFireAt.localeCompare(b.nextFireAt));
  }

  delete(id: string): boolean {
    const job = this.jobs.get(id.trim().toLowerCase());
    if (!job) return false;
    this.jobs.delete(job.stored.id);
    this.queued.delete(job.stored.id);
    const failed = this.save();
    if (failed)
      this.opts.warn(
        `The deletion of scheduled task ${job.stored.id} could not be saved (${failed}); it may come back on resume.`,
      );
    this.arm();
    this.changed();
    return true;
  }

  /** One-shots still waiting to fire (print mode stays alive for them). */
  pendingOneShots(): CronJobView[] {
    return this.opts.enabled ? this.list().filter((j) => !j.recurring) : [];
  }

  recurringJobs(): CronJobView[] {
    return this.list().filter((j) => j.recurring);
  }

  /** Resolves at the next fire, creation or deletion, or when `signal` aborts. */
  nextChange(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.listeners.push(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.changed();
  }

  private changed(): void {
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  /** The nominal time of the job's next fire and when it actually fires (jitter added). */
  private next(job: Job, after = job.stored.anchor): { nominal: number; due: number } | undefined {
    const nominal = job.schedule.nextMatch(after);
    if (nominal === undefined) return undefined;
    return { nominal, due: nominal + jitterMs(job.schedule, job.stored.id, nominal, job.stored.recurring) };
  }

  private view(job: Job, now: number): CronJobView {
    const { stored } = job;
    const next = this.next(job);
    const ageDays = Math.floor(((now - stored.createdAt) / DAY_MS) * 10) / 10;
    const humanSchedule =
      stored.recurring || !next ? job.schedule.humanSchedule : `once, at ${localMinute(next.nominal)}`;
    return {
      id: stored.id,
      cron: stored.cron,
      humanSchedule,
      nextFireAt: next ? new Date(next.due).toISOString() : 'never',
      recurring: stored.recurring,
      prompt: stored.prompt,
      ageDays,
      stale: stored.recurring && now - stored.createdAt > CRON_STALE_AFTER_DAYS * DAY_MS,
    };
  }

  private save(): string | undefined {
    try {
      mkdirPrivateSync(this.opts.dir);
      const tmp = `${this.file}.tmp`;
      const jobs = [...this.jobs.values()].map((j) => j.stored);
      writePrivateFileSync(tmp, `${JSON.stringify({ version: FILE_VERSION, jobs }, null, 2)}\n`);
      renameSync(tmp, this.file);
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  }

  private arm(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    if (this.closed || !this.opts.enabled) return;
    let soonest: number | undefined;
    for (const job of this.jobs.values()) {
      const due = this.next(job)?.due;
      if (due !== undefined && (soonest === undefined || due < soonest)) soonest = due;
    }
    if (soonest === undefined) return;
    const delay = Math.min(Math.max(0, soonest - this.clock.now()), MAX_TIMER_MS);
    this.timer = this.clock.setTimer(() => this.tick(), delay);
  }

  /** Fires every job whose time has come; a job that missed several times fires once for all of them. */
  private tick(): void {
    this.timer = undefined;
    if (this.closed) return;
    const now = this.clock.now();
    let dirty = false;
    for (const job of [...this.jobs.values()]) {
      const { stored } = job;
      let count = 0;
      let last: number | undefined;
      let next = this.next(job);
      while (next && next.due <= now && count < MAX_COALESCED) {
        count++;
        last = next.nominal;
        if (!stored.recurring) break;
        next = this.next(job, next.nominal);
      }
      if (last === undefined) continue;
      dirty = true;
      const stale = stored.recurring && now - stored.createdAt > CRON_STALE_AFTER_DAYS * DAY_MS;
      if (!stored.recurring || stale) this.jobs.delete(stored.id);
      else stored.anchor = last;
      // A fire of this job still waiting for the agent (busy with a long turn) takes this one in.
      const waiting = this.queued.get(stored.id);
      if (waiting?.fire.waiting()) {
        waiting.count = Math.min(waiting.count + count, MAX_COALESCED);
        waiting.fire.update(this.envelope(job, last, waiting.count, stale));
      } else {
        const fire = this.opts.fire({ jobId: stored.id, text: this.envelope(job, last, count, stale) });
        this.queued.set(stored.id, { fire, count });
      }
      if (!this.jobs.has(stored.id)) this.queued.delete(stored.id);
    }
    if (dirty) {
      const failed = this.save();
      if (failed)
        this.opts.warn(
          `Scheduled tasks could not be saved after a fire (${failed}); a resumed session may fire them again.`,
        );
    }
    this.arm();
    if (dirty) this.changed();
  }

  private envelope(job: Job, nominal: number, count: number, stale: boolean): string {
    const { stored } = job;
    const attrs = [
      `id="${stored.id}"`,
      `cron="${escapeAttribute(stored.cron)}"`,
      `scheduledFor="${new Date(nominal).toISOString()}"`,
      `recurring="${stored.recurring}"`,
      `coalescedCount="${count}${count >= MAX_COALESCED ? '+' : ''}"`,
      ...(stale ? ['stale="true"'] : []),
    ];
    const notes: string[] = [];
    if (count > 1) {
      notes.push(
        `(${count} scheduled times were missed while the agent was busy, the session was not running or the machine ` +
          'slept; this is one fire for all of them.)',
      );
    }
    if (stale)
      notes.push(
        `(This recurring task is more than ${CRON_STALE_AFTER_DAYS} days old: this was its last fire and it has been deleted. Call CronCreate again to keep it.)`,
      );
    else if (!stored.recurring) notes.push('(One-time task: it has fired and is now deleted.)');
    return `<cron-fire ${attrs.join(' ')}>\n${stored.prompt}\n</cron-fire>${notes.length ? `\n${notes.join('\n')}` : ''}`;
  }
}
