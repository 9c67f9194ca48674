// The output contract's pieces (engine/loop/structuredOutput.ts): reading a final text as JSON, and refusing a
// schema that cannot be used with a message that says what is wrong (docs/print-mode.md "Structured output").
import { describe, expect, it } from 'vitest';
import { answerFromText, OutputSchemaError, prepareOutputContract } from '../../../src/engine/loop/structuredOutput';

describe('a final text answer as JSON', () => {
  const cases: Array<[string, string, unknown]> = [
    ['the whole text', '  {"a": 1}\n', { a: 1 }],
    ['a bare value', '42', 42],
    ['one fenced block with prose around it', 'Here it is:\n```json\n{"a": [1, 2]}\n```\nDone.', { a: [1, 2] }],
    ['a fence without a language, CRLF lines', 'Result:\r\n```\r\n["x"]\r\n```\r\n', ['x']],
  ];
  for (const [what, text, value] of cases) it(what, () => expect(answerFromText(text)).toEqual({ ok: true, value }));

  const problems: Array<[string, string, RegExp]> = [
    ['prose', 'The build passed.', /not a JSON document/],
    ['a broken block', '```json\n{"a": }\n```', /code block in the answer is not valid JSON/],
    ['two blocks (which one?)', '```json\n{"a":1}\n```\nor\n```json\n{"a":2}\n```', /2 code blocks/],
  ];
  for (const [what, text, problem] of problems)
    it(`refused: ${what}`, () => {
      const parsed = answerFromText(text);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.problem).toMatch(problem);
    });
});

describe('a schema that cannot be used', () => {
  const bad: Array<[string, unknown, RegExp]> = [
    ['a list', ['a'], /must be a JSON object/],
    ['a wrong type name', { type: 'strng' }, /\/type: must be one of "array"/],
    ['a misspelt keyword', { type: 'object', propertees: {} }, /unknown keyword: "propertees"/],
    ['a reference to nothing', { $ref: '#/$defs/missing' }, /can't resolve reference/],
    ['an unknown format', { type: 'string', format: 'colour' }, /unknown format "colour"/],
  ];
  for (const [what, schema, message] of bad)
    it(what, async () => {
      const error = await prepareOutputContract({ schema: schema as Record<string, unknown> }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutputSchemaError);
      expect((error as Error).message).toMatch(message);
    });

  it('a negative retry count', async () => {
    await expect(prepareOutputContract({ schema: { type: 'object' }, maxRetries: -1 })).rejects.toThrow(
      /maxRetries must be a whole number/,
    );
  });

  it('draft-07 and 2020-12 schemas with descriptions and formats are accepted', async () => {
    const draft7 = await prepareOutputContract({
      schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string', format: 'date', title: 'Day' },
    });
    expect(draft7.maxAnswers).toBe(4);
    const modern = await prepareOutputContract({
      schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', $defs: { x: {} } },
      maxRetries: 0,
    });
    expect(modern.maxAnswers).toBe(1);
    expect(modern.instruction()).toContain('At most 1 answer will be judged');
  });
});
