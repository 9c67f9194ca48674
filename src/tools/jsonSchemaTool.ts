// Tools whose argument schema is JSON Schema rather than zod: MCP servers and plugins describe their
// tools that way. The schema goes to the model as it is, and the model's arguments are checked by a
// real JSON Schema validator with the same field-by-field message the zod tools give
// (`formatArgumentErrors`). Ajv loads, and each schema compiles, on the tool's first call (`prepare`),
// never at registration: most sessions call few of the tools they are offered (docs/mcp.md).
import type { ValidateFunction } from 'ajv';
import {
  ajvIssues,
  compileJsonSchema,
  createJsonSchemaValidators,
  type JsonSchemaValidators,
} from './jsonSchemaValidators';
import {
  formatArgumentErrors,
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

let validators: Promise<JsonSchemaValidators> | undefined;
/** Set once the validators have loaded, so a schema can then be compiled synchronously. */
let loaded: JsonSchemaValidators | undefined;

async function loadValidators(): Promise<JsonSchemaValidators> {
  // Lenient: schemas written for other validators carry keywords Ajv does not know; they are ignored.
  loaded = await createJsonSchemaValidators(false);
  return loaded;
}

/** Compiles `schema`; the error text says why the tool cannot be called. */
function compile(
  name: string,
  schema: Record<string, unknown>,
  validators: JsonSchemaValidators,
): ValidateFunction | string {
  try {
    return compileJsonSchema(schema, validators);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return (
      `${name} cannot be called: its input schema is not valid JSON Schema (${why}). ` +
      'The server that offers it has to fix the tool; tell the user and do not call it again.'
    );
  }
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
