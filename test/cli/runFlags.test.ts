// The values print mode's caps take (src/cli/runFlags.ts, docs/print-mode.md "Caps").
import { describe, expect, it } from 'vitest';
import { capsFromFlags, parseBudgetUsd, parseDuration, parseMaxTurns } from '../../src/cli/runFlags';

describe('--timeout durations', () => {
  const good: Array<[string, number]> = [
    ['90s', 90_000],
    ['10m', 600_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['1.5s', 1500],
    [' 2M ', 120_000],
  ];
  for (const [raw, ms] of good) it(raw, () => expect(parseDuration(raw)).toBe(ms));
  const bad = ['90', '', 's', '5 s', '-5s', '1d', '0s', '700h', 'ten minutes'];
  for (const raw of bad) it(`refused: "${raw}"`, () => expect(typeof parseDuration(raw)).toBe('string'));
  it('a bare number is told which unit to add', () => expect(parseDuration('90')).toContain('Add the unit: 90s'));
});

describe('--max-turns and --max-budget-usd', () => {
  it('turns are whole numbers from 1', () => {
    expect(parseMaxTurns('12')).toBe(12);
    for (const raw of ['0', '-1', '1.5', 'ten', '']) expect(typeof parseMaxTurns(raw)).toBe('string');
  });
  it('a budget is dollars above 0, with or without a $', () => {
    expect(parseBudgetUsd('0.50')).toBe(0.5);
    expect(parseBudgetUsd('$2')).toBe(2);
    expect(parseBudgetUsd('.25')).toBe(0.25);
    for (const raw of ['0', '-1', 'abc', '1e3', '', 'NaN']) expect(typeof parseBudgetUsd(raw)).toBe('string');
  });
  it('the first bad flag is the error', () => {
    expect(capsFromFlags({ maxTurns: '3', timeout: '1m' })).toEqual({ maxTurns: 3, timeoutMs: 60_000 });
    expect(capsFromFlags({ maxTurns: '3', maxBudgetUsd: 'x' })).toMatchObject({
      error: expect.stringContaining('--max-budget-usd'),
    });
  });
});
