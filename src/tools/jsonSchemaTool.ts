// Tools whose argument schema is JSON Schema rather than zod: MCP servers and plugins describe their
// tools that way. The schema goes to the model as it is, and the model's arguments are checked by a
// real JSON Schema validator with the same field-by-field message the zod tools give
// (`formatArgumentErrors`). Ajv loads, and each schema compiles, on the tool's first call (`prepare`),
// never at registration: most sessions call few of the tools they are offered (docs/mcp.md).
import type { ErrorObject, ValidateFunction } from 'ajv';
import {
  formatArgumentErrors,
  type ArgumentIssue,
  type DefaultApproval,
  type DesktopControl,
  type Tool,
  type ToolAccess,
  type ToolAvailability,
  type ToolContext,
  type ToolResult,
} from './defineTool';

export interface JsonSchemaToolDefinition {
  name: string;
  /** Model-facing text, sent as it is (no `${…}` templating: the text comes from outside). */
  description: string;
  /** The tool's input schema (draft-07 or 2020-12; `$schema` picks, 2020-12 when absent). */
  inputSchema: Record<string, unknown>;
  /** True when the tool changes nothing (MCP `readOnlyHint`); plan mode lets such tools run. */
  readOnly: boolean;
  defaultApproval: DefaultApproval;
  /**
   * What a call touches. When omitted, a tool that is not read-only is treated as running a command
   * (`exec` in the working directory): its footprint is unknown, so plan mode and the parallel
   * scheduler must assume the worst.
   */
  accesses?(args: Record<string, unknown>, ctx: ToolContext): ToolAccess[];
  /** What permission rules match; defaults to the tool name (MCP tools match by name only). */
  subject?(args: Record<string, unknown>, ctx: ToolContext): string;
  maxOutputChars?: number;
  isAvailable?(env: ToolAvailability): boolean;
  /** ToolSearch loaded the tool (see Tool.onLoaded). */
  onLoaded?(): void;
  /** A computer-use tool (Tool.desktop). */
  desktop?: DesktopControl;
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

type AjvModule = typeof import('ajv');
type AjvInstance = InstanceType<AjvModule['default']>;
interface Validators {
  draft7: AjvInstance;
  draft2020: AjvInstance;
}
let validators: Promise<Validators> | undefined;
/** Set once the validators have loaded, so a schema can then be compiled synchronously. */
let loaded: Validators | undefined;

async function loadValidators(): Promise<Validators> {
  const [{ default: Ajv }, { default: Ajv2020 }, { default: addFormats }] = await Promise.all([
    import('ajv'),
    import('ajv/dist/2020.js'),
    import('ajv-formats'),
  ]);
  // allErrors: the model should learn about every bad field at once, not one per retry.
  // strict off: schemas written for other validators carry keywords Ajv does not know; they are ignored.
  const options = { allErrors: true, strict: false, validateSchema: true } as const;
  const draft7 = new Ajv(options);
  const draft2020 = new Ajv2020(options);
  addFormats(draft7);
  addFormats(draft2020 as unknown as AjvInstance);
  loaded = { draft7, draft2020: draft2020 as unknown as AjvInstance };
  return loaded;
}

/** Compiles `schema`; the error text says why the tool cannot be called. */
function compile(name: string, schema: Record<string, unknown>, validators: Validators): ValidateFunction | string {
  const { draft7, draft2020 } = validators;
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  const ajv = /draft-0[467]/.test(dialect) ? draft7 : draft2020;
  // Draft 4/6 meta-schemas are not loaded; their keywords are a subset Ajv's draft-07 mode reads alike.
  const { $schema: _dialect, $id: _id, ...body } = schema;
  try {
    return ajv.compile(body);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return (
      `${name} cannot be called: its input schema is not valid JSON Schema (${why}). ` +
      'The server that offers it has to fix the tool; tell the user and do not call it again.'
    );
  }
}

/** Ajv's errors as field paths and plain messages (`- path.to.field: must be string`). */
export function ajvIssues(errors: readonly ErrorObject[]): ArgumentIssue[] {
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
      return { path: [...path, params.additionalProperty], message: 'is not a known field of this tool' };
    }
    if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      return { path, message: `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` };
    }
    return { path, message: error.message ?? `fails the "${error.keyword}" rule` };
  });
}

/**
 * Builds a Tool from a JSON Schema definition. Nothing is compiled here: `prepare` (awaited by the
 * loop before a call's arguments are checked) loads the validator and compiles the schema; a schema
 * that does not compile makes every call fail with a message that says so.
 */
export function defineJsonSchemaTool(def: JsonSchemaToolDefinition): Tool {
  // Model APIs require an object schema at the top; servers sometimes leave the type implicit.
  const schema = def.inputSchema.type === undefined ? { type: 'object', ...def.inputSchema } : def.inputSchema;
  let validate: ValidateFunction | string | undefined;
  const compiled = (): ValidateFunction | string | undefined => {
    if (validate === undefined && loaded) validate = compile(def.name, schema, loaded);
    return validate;
  };
  const { $schema: _dialect, ...jsonSchema } = schema;
  const accesses =
    def.accesses ??
    (def.readOnly
      ? undefined
      : (_args: Record<string, unknown>, ctx: ToolContext): ToolAccess[] => [{ kind: 'exec', cwd: ctx.cwd }]);
  return {
    name: def.name,
    description: def.description,
    renderedDescription: def.description.trim(),
    jsonSchema,
    readOnly: def.readOnly,
    defaultApproval: def.defaultApproval,
    maxOutputChars: def.maxOutputChars,
    isAvailable: def.isAvailable,
    onLoaded: def.onLoaded,
    ...(def.desktop ? { desktop: def.desktop } : {}),
    async prepare() {
      if (compiled() !== undefined) return;
      try {
        await (validators ??= loadValidators());
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        validate = `${def.name} cannot be called: the JSON Schema validator did not load (${why}).`;
        return;
      }
      compiled();
    },
    validateArgs(raw) {
      const check = compiled();
      // Fail closed: a caller that skipped prepare() gets no unchecked call.
      if (check === undefined) {
        return {
          ok: false,
          error: `${def.name}: its argument validator is not loaded yet (internal error: prepare() was not awaited).`,
        };
      }
      if (typeof check === 'string') return { ok: false, error: check };
      if (check(raw)) return { ok: true, args: raw };
      return { ok: false, error: formatArgumentErrors(def.name, ajvIssues(check.errors ?? [])) };
    },
    subject: def.subject ? (args, ctx) => def.subject!(args as Record<string, unknown>, ctx) : undefined,
    accesses: accesses ? (args, ctx) => accesses(args as Record<string, unknown>, ctx) : undefined,
    execute: (args, ctx) => def.execute(args as Record<string, unknown>, ctx),
  };
}
