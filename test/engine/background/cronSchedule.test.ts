import { describe, expect, it } from 'vitest';
import {
  jitterFraction,
  jitterMs,
  MAX_RECURRING_JITTER_MS,
  ONE_SHOT_JITTER_MS,
  parseCron,
} from '../../../src/engine/background/cronSchedule';

const local = (y: number, mo: number, d: number, h: number, mi: number) => new Date(y, mo - 1, d, h, mi).getTime();

describe('cron expressions', () => {
  it.each([
    ['61 * * * *', 'minute', 'out of range 0-59'],
    ['* 24 * * *', 'hour', 'out of range 0-23'],
    ['* * 0 * *', 'day-of-month', 'out of range 1-31'],
    ['* * * 13 *', 'month', 'out of range 1-12'],
    ['* * * * 8', 'day-of-week', 'out of range 0-7'],
    ['*/0 * * * *', 'minute', 'step that is not a positive number'],
    ['5-2 * * * *', 'minute', 'start is after its end'],
    ['* * L * *', 'day-of-month', 'is not valid'],
    ['* * * * MON#2', 'day-of-week', 'is not valid'],
    ['1,,2 * * * *', 'minute', 'empty list item'],
  ])('%s is rejected naming the %s field', (expr, field, why) => {
    expect(() => parseCron(expr)).toThrow(new RegExp(`the ${field} field .*${why}`));
  });

  it('wrong field counts and impossible dates are rejected with the expected form', () => {
    expect(() => parseCron('* * * *')).toThrow(/4 field\(s\), not 5.*minute hour day-of-month month day-of-week/);
    expect(() => parseCron('0 0 0 * * *')).toThrow(/6 field\(s\), not 5/);
    expect(() => parseCron('')).toThrow(/0 field\(s\)/);
    expect(() => parseCron('0 0 30 2 *')).toThrow(/never matches/);
  });

  it.each([
    ['* * * * *', 'every minute'],
    ['*/5 * * * *', 'every 5 minutes'],
    ['7 * * * *', 'every hour at minute 7'],
    ['0 */2 * * *', 'every 2 hours at minute 0'],
    ['30 9 * * *', 'every day at 09:30'],
    ['30 9 * * 1-5', 'at 09:30 on weekdays'],
    ['0 18 * * MON,fri', 'at 18:00 on Monday, Friday'],
    ['0 8 1 * *', 'at 08:00 on day 1 of the month'],
    ['15 14 3 7 *', 'at 14:15 on day 3 of the month in July'],
  ])('%s reads "%s"', (expr, words) => {
    expect(parseCron(expr).humanSchedule).toBe(words);
  });

  it('next matches are in local time; day-of-month and day-of-week together match either (classic cron)', () => {
    const s = parseCron('30 9 * * *');
    expect(s.nextMatch(local(2026, 3, 2, 10, 0))).toBe(local(2026, 3, 3, 9, 30));
    const either = parseCron('0 9 1 * 1');
    expect(either.nextMatch(local(2026, 1, 27, 10, 0))).toBe(local(2026, 2, 1, 9, 0)); // Feb 1 is a Sunday
    expect(either.nextMatch(local(2026, 2, 1, 10, 0))).toBe(local(2026, 2, 2, 9, 0)); // the next Monday
  });
});

describe('jitter', () => {
  it('is fixed by the id and lies in [0, 1)', () => {
    expect(jitterFraction('00000000')).toBe(0);
    expect(jitterFraction('80000000')).toBe(0.5);
    expect(jitterFraction('ffffffff')).toBeLessThan(1);
  });

  it('recurring: forward by the id share of min(10 % of the period, 15 min)', () => {
    const every10 = parseCron('*/10 * * * *');
    const at = local(2026, 3, 2, 10, 0);
    expect(jitterMs(every10, '80000000', at, true)).toBe(30_000); // half of 60 s (10 % of 10 min)
    expect(jitterMs(every10, 'ffffffff', at, true)).toBeLessThan(60_000);
    const daily = parseCron('0 9 * * *');
    expect(jitterMs(daily, '80000000', local(2026, 3, 2, 9, 0), true)).toBe(MAX_RECURRING_JITTER_MS / 2); // capped at 15 min
    expect(jitterMs(daily, '80000000', local(2026, 3, 2, 9, 0), true)).toBe(
      jitterMs(daily, '80000000', local(2026, 3, 2, 9, 0), true),
    );
  });

  it('one-shots move only when they fall on :00 or :30, by up to 90 s', () => {
    const once = parseCron('0 9 3 3 *');
    expect(jitterMs(once, '80000000', local(2026, 3, 3, 9, 0), false)).toBe(ONE_SHOT_JITTER_MS / 2);
    expect(jitterMs(once, 'ffffffff', local(2026, 3, 3, 9, 30), false)).toBeLessThan(ONE_SHOT_JITTER_MS);
    expect(jitterMs(once, 'ffffffff', local(2026, 3, 3, 9, 15), false)).toBe(0);
  });
});
