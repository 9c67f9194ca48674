// Published JSON schemas of other projects (SARIF 2.1.0 from oasis-tcs/sarif-spec, SchemaStore's github-workflow.json
// and github-action.json), vendored unchanged in test/fixtures/published-schemas/ (its README names the source commits
// and licenses). Tests validate what Jarvis writes against them (docs/ci.md "Tests").
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';

export const PUBLISHED_SCHEMAS = {
  sarif: 'sarif-schema-2.1.0.json',
  workflow: 'github-workflow.json',
  action: 'github-action.json',
} as const;

const FOLDER = resolve(import.meta.dirname, '../fixtures/published-schemas');

/** A validator for the published schema (draft-04 for SARIF, draft-07 for SchemaStore's), formats checked. */
export function publishedValidator(name: keyof typeof PUBLISHED_SCHEMAS): ValidateFunction {
  const schema = JSON.parse(readFileSync(join(FOLDER, PUBLISHED_SCHEMAS[name]), 'utf8')) as { $schema?: string };
  const draft04 = schema.$schema?.includes('draft-04');
  // SchemaStore's schemas use keywords of their own tooling (`markdownDescription`…): not strict about unknown ones.
  const ajv = draft04
    ? new AjvDraft04({ allErrors: true, strict: false })
    : new Ajv({ allErrors: true, strict: false });
  addFormats(ajv as unknown as Ajv);
  return ajv.compile(schema);
}
