// Ajv, the JSON Schema validator, for the schemas that come from outside: MCP and plugin tools' input schemas
// (jsonSchemaTool.ts, lenient: keywords Ajv does not know are ignored) and a run's output schema
// (engine/loop/structuredOutput.ts, strict: an unknown keyword is a mistake the user should hear about). Ajv is
// loaded on first use, never on the start path. `$schema` picks the dialect: draft-04/06/07 read as draft-07,
// anything else (or nothing) as 2020-12.
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ArgumentIssue } from './defineTool';

type AjvModule = typeof import('ajv');
type AjvInstance = InstanceType<AjvModule['default']>;

export interface JsonSchemaValidators {
  draft7: AjvInstance;
  draft2020: AjvInstance;
}

/** `strict`: unknown keywords and formats are errors (the types, tuples and `required` rules stay lenient). */
export async function createJsonSchemaValidators(strict: boolean): Promise<JsonSchemaValidators> {
  const [{ default: Ajv }, { default: Ajv2020 }, { default: addFormats }] = await Promise.all([
    import('ajv'),
    import('ajv/dist/2020.js'),
    import('ajv-formats'),
  ]);
  // allErrors: the model should learn about every bad field at once, not one per retry.
  const options = strict
    ? ({
        allErrors: true,
        strict: true,
        strictTypes: false,
        strictTuples: false,
        strictRequired: false,
        allowUnionTypes: true,
        validateSchema: true,
      } as const)
    : ({ allErrors: true, strict: false, validateSchema: true } as const);
  const draft7 = new Ajv(options);
  const draft2020 = new Ajv2020(options);
  addFormats(draft7);
  addFormats(draft2020 as unknown as AjvInstance);
  return { draft7, draft2020: draft2020 as unknown as AjvInstance };
}

/** The validator of `schema`'s dialect, and the schema without the keywords that only name it. */
export function dialectOf(
  schema: Record<string, unknown>,
  validators: JsonSchemaValidators,
): { ajv: AjvInstance; body: Record<string, unknown> } {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  // Draft 4/6 meta-schemas are not loaded; their keywords are a subset Ajv's draft-07 mode reads alike.
  const { $schema: _dialect, $id: _id, ...body } = schema;
  return { ajv: /draft-0[467]/.test(dialect) ? validators.draft7 : validators.draft2020, body };
}

/** Compiles `schema`; a schema that does not compile is an Error with Ajv's reason. */
export function compileJsonSchema(schema: Record<string, unknown>, validators: JsonSchemaValidators): ValidateFunction {
  const { ajv, body } = dialectOf(schema, validators);
  return ajv.compile(body);
}

/** Ajv's errors as field paths and plain messages (`- path.to.field: must be string`); `owner` has the fields. */
export function ajvIssues(errors: readonly ErrorObject[], owner = 'this tool'): ArgumentIssue[] {
  return errors.map((error) => {
    const path = error.instancePath
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
      return { path: [...path, params.missingProperty], message: 'is required but missing' };
    }
    if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      return { path: [...path, params.additionalProperty], message: `is not a known field of ${owner}` };
    }
    if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      return { path, message: `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` };
    }
    return { path, message: error.message ?? `fails the "${error.keyword}" rule` };
  });
}
