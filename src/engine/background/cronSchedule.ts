// Cron expressions for scheduled tasks (docs/scheduled-tasks.md): the standard five fields in the
// local time zone, checked field by field so a mistake is reported by name, described in words, and
// the deterministic jitter that keeps every session from firing on the same second.
import { Cron } from 'croner';

export class CronExpressionError extends Error {}

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const MONTH_WORDS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAY_WORDS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  { name: 'day-of-week', min: 0, max: 7, names: WEEKDAYS },
];

const FORM = 'Use five fields: minute hour day-of-month month day-of-week (e.g. "*/5 * * * *" or "30 9 * * 1-5").';

function fieldError(expr: string, field: FieldSpec, value: string, why: string): CronExpressionError {
  return new CronExpressionError(
    `Invalid cron expression "${expr}": the ${field.name} field "${value}" ${why}. ${FORM}`,
  );
}

function parseValue(expr: string, field: FieldSpec, whole: string, text: string): number {
  const named = field.names?.indexOf(text.toUpperCase()) ?? -1;
  if (named >= 0) return field.name === 'month' ? named + 1 : named;
  if (!/^\d+$/.test(text)) {
    const allowed = field.names
      ? `numbers ${field.min}-${field.max} or names like ${field.names[0]}`
      : `numbers ${field.min}-${field.max}`;
    throw fieldError(expr, field, whole, `is not valid (allowed: ${allowed}, *, ranges a-b, steps /n and lists a,b)`);
  }
  const n = Number(text);
  if (n < field.min || n > field.max) throw fieldError(expr, field, whole, `is out of range ${field.min}-${field.max}`);
  return n;
}

/** Checks one field; only the standard syntax (no L, W, #, ?): croner accepts more than other crons do. */
function checkField(expr: string, field: FieldSpec, text: string): void {
  for (const item of text.split(',')) {
    if (!item) throw fieldError(expr, field, text, 'has an empty list item');
    const [range, step, extra] = item.split('/');
    if (extra !== undefined) throw fieldError(expr, field, text, 'has more than one step');
    if (step !== undefined && (!/^\d+$/.test(step) || Number(step) === 0))
      throw fieldError(expr, field, text, 'has a step that is not a positive number');
    if (range === '*') continue;
    const [from, to, more] = range.split('-');
    if (more !== undefined) throw fieldError(expr, field, text, 'has a malformed range');
    const a = parseValue(expr, field, text, from);
    if (to !== undefined && a > parseValue(expr, field, text, to))
      throw fieldError(expr, field, text, 'has a range whose start is after its end');
  }
}

export interface CronSchedule {
  readonly expr: string;
  /** The schedule in words ("every 5 minutes", "at 09:30 on Monday through Friday"). */
  readonly humanSchedule: string;
  /** The first matching minute strictly after `after` (ms since epoch), in the local time zone. */
  nextMatch(after: number): number | undefined;
}

export function parseCron(expr: string): CronSchedule {
  const text = expr.trim();
  const parts = text.split(/\s+/);
  if (parts.length !== 5 || !text)
    throw new CronExpressionError(
      `Invalid cron expression "${expr}": it has ${text ? parts.length : 0} field(s), not 5. ${FORM}`,
    );
  parts.forEach((part, i) => checkField(text, FIELDS[i], part));
  let cron: Cron;
  try {
    // Day-of-month and day-of-week together match either, as in classic cron.
    cron = new Cron(text, { paused: true, legacyMode: true });
  } catch (e) {
    throw new CronExpressionError(
      `Invalid cron expression "${expr}": ${e instanceof Error ? e.message.replace(/^CronPattern: /, '') : String(e)}. ${FORM}`,
    );
  }
  if (!cron.nextRun())
    throw new CronExpressionError(
      `Invalid cron expression "${expr}": it never matches a date (e.g. February 30). ${FORM}`,
    );
  return {
    // Stored and listed with single spaces, however it was typed.
    expr: parts.join(' '),
    humanSchedule: describeCron(parts),
    nextMatch(after) {
      return cron.nextRun(new Date(after))?.getTime();
    },
  };
}

// ---- words ----

function plural(n: number, unit: string): string {
  return n === 1 ? `every ${unit}` : `every ${n} ${unit}s`;
}

function listWords(field: string, names: readonly string[], words: readonly string[], base: number): string {
  const word = (v: string) => {
    const index = /^\d+$/.test(v) ? Number(v) - base : names.indexOf(v);
    return words[index] ?? v;
  };
  return field
    .split(',')
    .map((item) => item.split('-').map(word).join(' through '))
    .join(', ');
}

const pad = (v: string) => v.padStart(2, '0');

function describeTime(minute: string, hour: string): string {
  const num = /^\d+$/;
  if (num.test(minute) && num.test(hour)) return `at ${pad(hour)}:${pad(minute)}`;
  if (minute === '*' && hour === '*') return 'every minute';
  const stepMinutes = /^\*\/(\d+)$/.exec(minute);
  if (stepMinutes && hour === '*') return plural(Number(stepMinutes[1]), 'minute');
  if (num.test(minute) && hour === '*') return `every hour at minute ${Number(minute)}`;
  const stepHours = /^\*\/(\d+)$/.exec(hour);
  if (num.test(minute) && stepHours) return `${plural(Number(stepHours[1]), 'hour')} at minute ${Number(minute)}`;
  if (num.test(minute) && num.test(hour.split(',')[0])) return `at minute ${Number(minute)} of hours ${hour}`;
  return `at minutes ${minute} of hours ${hour}`;
}

function describeCron([minute, hour, dom, month, dow]: string[]): string {
  const parts = [describeTime(minute, hour)];
  const days: string[] = [];
  if (dom !== '*') days.push(`on day ${dom} of the month`);
  if (dow !== '*')
    days.push(dow === '1-5' ? 'on weekdays' : `on ${listWords(dow.toUpperCase(), WEEKDAYS, WEEKDAY_WORDS, 0)}`);
  if (days.length) parts.push(days.join(' or '));
  else if (parts[0].startsWith('at ') && /^\d+$/.test(minute) && /^\d+$/.test(hour)) parts[0] = `every day ${parts[0]}`;
  if (month !== '*') parts.push(`in ${listWords(month.toUpperCase(), MONTHS, MONTH_WORDS, 1)}`);
  return parts.join(' ');
}

// ---- jitter ----

/** A fraction in [0, 1) fixed by the job id, so a job's jitter never changes between runs. */
export function jitterFraction(id: string): number {
  return Number.parseInt(id.slice(0, 8), 16) / 0x1_0000_0000;
}

export const MAX_RECURRING_JITTER_MS = 15 * 60_000;
export const RECURRING_JITTER_SHARE = 0.1;
export const ONE_SHOT_JITTER_MS = 90_000;

/**
 * How long after its nominal time `nominal` a fire actually happens: recurring jobs move forward by up
 * to min(10 % of the period to the following fire, 15 min); one-shots only when they fall exactly on
 * :00 or :30, by up to 90 s.
 */
export function jitterMs(schedule: CronSchedule, id: string, nominal: number, recurring: boolean): number {
  const fraction = jitterFraction(id);
  if (!recurring) {
    const minute = new Date(nominal).getMinutes();
    return minute === 0 || minute === 30 ? Math.floor(fraction * ONE_SHOT_JITTER_MS) : 0;
  }
  const following = schedule.nextMatch(nominal);
  if (following === undefined) return 0;
  return Math.floor(fraction * Math.min(RECURRING_JITTER_SHARE * (following - nominal), MAX_RECURRING_JITTER_MS));
}
