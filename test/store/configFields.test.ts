import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { int, nonEmpty } from '../../src/store/configFields';

// int() and nonEmpty() add their checks in one step (start-up cost); they must judge and describe values exactly as
// the chained zod calls would.
describe('config field building blocks', () => {
  const chainedInt = (expected: string, min?: number, max?: number) => {
    let schema = z.number({ error: expected }).int({ error: expected });
    if (min !== undefined) schema = schema.min(min, { error: expected });
    if (max !== undefined) schema = schema.max(max, { error: expected });
    return schema;
  };
  const issues = (schema: z.ZodType, value: unknown) =>
    schema.safeParse(value).error?.issues.map((i) => [i.code, i.message]) ?? 'ok';

  it.each([
    [undefined, undefined, 'an integer'],
    [1, undefined, 'an integer ≥ 1'],
    [undefined, 10, 'an integer ≤ 10'],
    [1, 10, 'an integer from 1 to 10'],
  ])('int(%s, %s) checks like the chained form, with the phrase "%s"', (min, max, expected) => {
    const schema = int(min, max);
    const chained = chainedInt(expected, min, max);
    for (const value of [0, 1, 5, 10, 11, -3, 2.5, 2 ** 60, Number.NaN, '5', null, true])
      expect(issues(schema, value), String(value)).toEqual(issues(chained, value));
    expect(schema.safeParse(1.5).error?.issues[0].message).toBe(expected);
    expect(z.toJSONSchema(schema)).toEqual(z.toJSONSchema(chained));
  });

  it('nonEmpty() refuses an empty string and a non-string with one phrase', () => {
    const schema = nonEmpty();
    expect(schema.parse('a')).toBe('a');
    expect(issues(schema, '')).toEqual([['too_small', 'a non-empty string']]);
    expect(issues(schema, 3)).toEqual([['invalid_type', 'a non-empty string']]);
    expect(z.toJSONSchema(schema)).toEqual({ $schema: expect.any(String), type: 'string', minLength: 1 });
  });
});
