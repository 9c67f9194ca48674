// The result event of print mode checked against its published schema (docs/schemas/stream-json-result.schema.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { expect } from 'vitest';

const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../docs/schemas/stream-json-result.schema.json'), 'utf8'),
) as Record<string, unknown>;
const validate = new Ajv({ allErrors: true }).compile(schema);

/** The last line of stdout as the result object, after checking it against the schema. */
export function resultOf(stdout: string): Record<string, unknown> {
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
  return result;
}
