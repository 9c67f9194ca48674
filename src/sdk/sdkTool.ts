// `tool({ name, description, inputSchema, handler })` (docs/sdk.md "Custom tools"): a program's own function offered to
// the model like any tool, under its own name, judged by the same approval policy. The schema is JSON Schema (checked
// by the validator MCP tools use) or a zod 4 schema (turned into JSON Schema for the model, and checked by the
// program's own zod through its Standard Schema `validate`). What the handler returns, or throws, becomes the call's
// result; a throw is a tool error the model sees, never an escaped exception.
import { z } from 'zod';
import { mapMcpResult } from '../ext/mcp/mcpContent';
import { formatArgumentErrors, type Tool, type ToolResult } from '../tools/defineTool';
import { defineJsonSchemaTool } from '../tools/jsonSchemaTool';
import type { SdkTool, ToolContent, ToolHandlerResult, ToolOptions } from './api';

/** The engine's Tool behind an SdkTool (kept off the public object). */
const BUILT = new WeakMap<SdkTool, Tool>();

/** Names the model API accepts; a built-in tool's name is refused when the query starts (query.ts). */
const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

type IssuePath = ReadonlyArray<PropertyKey | { key: PropertyKey }>;
interface StandardResult {
  value?: unknown;
  issues?: ReadonlyArray<{ message: string; path?: IssuePath }>;
}
interface StandardSchema {
  '~standard': { validate(value: unknown): StandardResult | Promise<StandardResult> };
}

function isStandardSchema(schema: unknown): schema is StandardSchema {
  const std = (schema as { '~standard'?: { validate?: unknown } } | null)?.['~standard'];
  return typeof std?.validate === 'function';
}

/** A zod 4 schema as JSON Schema; anything else with `~standard` (zod 3, valibot…) is refused with the reason. */
function zodJsonSchema(name: string, schema: StandardSchema): Record<string, unknown> {
  if (!('_zod' in schema))
    throw new TypeError(
      `tool "${name}": inputSchema is a Standard Schema but not a zod 4 schema; give a zod 4 schema or a JSON Schema object.`,
    );
  const json = z.toJSONSchema(schema as unknown as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  if (json.type !== 'object') throw new TypeError(`tool "${name}": inputSchema must describe an object (z.object).`);
  return json;
}

function pathOf(path: IssuePath | undefined): string[] {
  return (path ?? []).map((p) => String(typeof p === 'object' && p !== null && 'key' in p ? p.key : p));
}

function resultOf(value: ToolHandlerResult): ToolResult {
  if (typeof value === 'string') return { content: value };
  if (value && typeof value === 'object' && Array.isArray(value.content)) {
    const mapped = mapMcpResult({ content: value.content as ToolContent[], isError: value.isError });
    return { content: mapped.content, isError: mapped.isError || undefined, summary: mapped.summary };
  }
  return {
    content: 'The tool handler returned neither a string nor { content: [...] }; nothing usable came back.',
    isError: true,
  };
}

export function tool<Input = Record<string, unknown>>(options: ToolOptions<Input>): SdkTool {
  const { name, description, inputSchema, handler } = options;
  if (typeof name !== 'string' || !TOOL_NAME.test(name))
    throw new TypeError(`tool(): name must be letters, digits, _ or - (starting with a letter), got ${String(name)}`);
  if (typeof description !== 'string' || !description.trim())
    throw new TypeError(`tool "${name}": description must be a non-empty string`);
  if (typeof handler !== 'function') throw new TypeError(`tool "${name}": handler must be a function`);
  if (!inputSchema || typeof inputSchema !== 'object')
    throw new TypeError(`tool "${name}": inputSchema must be a JSON Schema object or a zod 4 schema`);
  const standard = isStandardSchema(inputSchema) ? inputSchema : undefined;
  const jsonSchema = standard ? zodJsonSchema(name, standard) : (inputSchema as Record<string, unknown>);
  const readOnly = options.readOnly === true;
  const built = defineJsonSchemaTool({
    name,
    description,
    inputSchema: jsonSchema,
    readOnly,
    defaultApproval: readOnly ? 'auto' : 'ask',
    async execute(args, ctx) {
      let input: unknown = args;
      if (standard) {
        const checked = await standard['~standard'].validate(args);
        if (checked.issues) {
          const issues = checked.issues.map((i) => ({ path: pathOf(i.path), message: i.message }));
          return { content: formatArgumentErrors(name, issues), isError: true };
        }
        input = checked.value;
      }
      try {
        return resultOf(await handler(input as Input, { signal: ctx.signal, cwd: ctx.cwd }));
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        return { content: `The tool ${name} failed: ${why}`, isError: true };
      }
    },
  });
  const made: SdkTool = Object.freeze({ kind: 'jarvis-sdk-tool' as const, name });
  BUILT.set(made, built);
  return made;
}

/** The engine tools of `options.tools`; anything not made by `tool()` is refused with what it was. */
export function engineToolsOf(tools: readonly SdkTool[] | undefined): Tool[] {
  return (tools ?? []).map((t, i) => {
    const built = BUILT.get(t);
    if (!built) throw new TypeError(`options.tools[${i}] was not made by tool() from jarvis-code/sdk`);
    return built;
  });
}
