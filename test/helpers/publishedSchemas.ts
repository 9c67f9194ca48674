// Published JSON schemas of other projects (SARIF 2.1.0 from oasis-tcs/sarif-spec, SchemaStore's github-workflow.json
// and github-action.json), read from a folder outside this repository: they are other projects' files, not ours to
// commit. The folder is JARVIS_TEST_PUBLISHED_SCHEMAS, else `shared/published-schemas/` beside the repository (where
// CI's copy of shared/ is), else `test/fixtures/published-schemas/`. A test that needs one skips with the reason when
// it is missing — unless JARVIS_TEST_REQUIRE_ALL=1 (CI), where that is a failure. docs/ci.md "Tests" names the sources.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';

export const PUBLISHED_SCHEMAS = {
  sarif: 'sarif-schema-2.1.0.json',
  workflow: 'github-workflow.json',
  action: 'github-action.json',
} as const;

const REPO = resolve(import.meta.dirname, '../..');

function folders(): string[] {
  const env = process.env.JARVIS_TEST_PUBLISHED_SCHEMAS;
  return [
    ...(env ? [resolve(env)] : []),
    join(REPO, '..', 'shared', 'published-schemas'),
    join(REPO, 'test', 'fixtures', 'published-schemas'),
  ];
}

/** The schema file's path, or undefined (after printing why, or throwing under JARVIS_TEST_REQUIRE_ALL=1). */
export function publishedSchemaPath(name: keyof typeof PUBLISHED_SCHEMAS): string | undefined {
  const file = PUBLISHED_SCHEMAS[name];
  const found = folders()
    .map((d) => join(d, file))
    .find((p) => existsSync(p));
  if (found) return found;
  const why = `the published schema ${file} is not in ${folders().join(', ')}`;
  if (process.env.JARVIS_TEST_REQUIRE_ALL === '1') throw new Error(`JARVIS_TEST_REQUIRE_ALL=1 but ${why}`);
  console.warn(`skipping: ${why}`);
  return undefined;
}

/** A validator for the published schema (draft-04 for SARIF, draft-07 for SchemaStore's), formats checked. */
export function publishedValidator(path: string): ValidateFunction {
  const schema = JSON.parse(readFileSync(path, 'utf8')) as { $schema?: string };
  const draft04 = schema.$schema?.includes('draft-04');
  // SchemaStore's schemas use keywords of their own tooling (`markdownDescription`…): not strict about unknown ones.
  const ajv = draft04
    ? new AjvDraft04({ allErrors: true, strict: false })
    : new Ajv({ allErrors: true, strict: false });
  addFormats(ajv as unknown as Ajv);
  return ajv.compile(schema);
}
