import { describe, expect, it } from 'vitest';
import { defineJsonSchemaTool } from '../../src/tools/jsonSchemaTool';
import type { AnyServiceKey, ToolContext } from '../../src/tools/defineTool';

const ctx = { cwd: '/work', resolve: (p: string) => p } as unknown as ToolContext<AnyServiceKey>;

async function searchTool(inputSchema: Record<string, unknown>, readOnly = true) {
  const tool = defineJsonSchemaTool({
    name: 'mcp__docs__search',
    description: 'Searches the docs.',
    inputSchema,
    readOnly,
    defaultApproval: 'ask',
    execute: async (args) => ({ content: JSON.stringify(args) }),
  });
  await tool.prepare?.();
  return tool;
}

const SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 50 },
    kind: { enum: ['page', 'section'] },
    filter: { type: 'object', properties: { since: { type: 'string', format: 'date' } }, additionalProperties: false },
  },
  required: ['query'],
  additionalProperties: false,
};

describe('JSON Schema tools', () => {
  it('accept valid arguments as they are', async () => {
    const tool = await searchTool(SCHEMA);
    expect(tool.validateArgs({ query: 'hooks', limit: 5, filter: { since: '2026-01-02' } })).toEqual({
      ok: true,
      args: { query: 'hooks', limit: 5, filter: { since: '2026-01-02' } },
    });
    expect(tool.jsonSchema).toEqual(SCHEMA);
  });

  it('report every bad field at once, in the same form as the zod tools', async () => {
    const tool = await searchTool(SCHEMA);
    const check = tool.validateArgs({
      limit: 'ten',
      kind: 'book',
      filter: { since: 'yesterday', extra: 1 },
      color: 'red',
    });
    expect(check.ok).toBe(false);
    const error = (check as { error: string }).error;
    expect(error.split('\n')[0]).toBe('Invalid arguments for mcp__docs__search:');
    expect(error).toContain('- query: is required but missing');
    expect(error).toContain('- limit: must be integer');
    expect(error).toContain('- kind: must be one of "page", "section"');
    expect(error).toContain('- filter.since: must match format "date"');
    expect(error).toContain('- filter.extra: is not a known field of this tool');
    expect(error).toContain('- color: is not a known field of this tool');
    expect(error.split('\n').at(-1)).toBe('Fix the arguments and call mcp__docs__search again.');
  });

  it('check ranges and nested arrays with their index in the path', async () => {
    const tool = await searchTool({
      type: 'object',
      properties: { ids: { type: 'array', items: { type: 'number', maximum: 9 } } },
    });
    const check = tool.validateArgs({ ids: [1, 12, 'x'] });
    expect(check).toMatchObject({ ok: false });
    expect((check as { error: string }).error).toContain('- ids.1: must be <= 9');
    expect((check as { error: string }).error).toContain('- ids.2: must be number');
  });

  it('read draft-07 schemas (tuple items, definitions) as well as 2020-12', async () => {
    const tool = await searchTool({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] } },
      properties: { at: { $ref: '#/definitions/point' } },
    });
    expect(tool.validateArgs({ at: [1, 2] }).ok).toBe(true);
    expect((tool.validateArgs({ at: [1, 'b'] }) as { error: string }).error).toContain('- at.1: must be number');
    expect(tool.jsonSchema.$schema).toBeUndefined();
  });

  it('refuse every call of a tool whose schema is not JSON Schema, with a message naming the tool', async () => {
    const tool = await searchTool({ type: 'object', properties: { q: { type: 'strng' } } });
    const check = tool.validateArgs({ q: 'x' });
    expect(check.ok).toBe(false);
    const refused = /^mcp__docs__search cannot be called: its input schema is not valid JSON Schema \(/;
    expect((check as { error: string }).error).toMatch(refused);
    expect(tool.validateArgs({}).ok).toBe(false);
  });

  it('compile nothing at definition: before prepare() a call is refused, not let through unchecked', () => {
    const tool = defineJsonSchemaTool({
      name: 'mcp__x__fresh',
      description: 'd',
      inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '^fresh-only$' } } },
      readOnly: true,
      defaultApproval: 'ask',
      execute: async () => ({ content: '' }),
    });
    expect(tool.jsonSchema).toEqual({ type: 'object', properties: { a: { type: 'string', pattern: '^fresh-only$' } } });
    // Ajv may already be loaded by an earlier test (then the first check compiles it synchronously);
    // either way, a value the schema rejects is never accepted.
    expect(tool.validateArgs({ a: 1 }).ok).toBe(false);
  });

  it('declare an unknown footprint (exec) when not read-only and no accesses are given, so plan mode and scheduling assume the worst', async () => {
    const writer = await searchTool(SCHEMA, false);
    expect(writer.accesses?.({ query: 'x' }, ctx)).toEqual([{ kind: 'exec', cwd: '/work' }]);
    const reader = await searchTool(SCHEMA, true);
    expect(reader.accesses).toBeUndefined();
    expect(reader.readOnly).toBe(true);
  });

  it('give a schema without a type the object type the model APIs require', async () => {
    const tool = await searchTool({});
    expect(tool.jsonSchema).toEqual({ type: 'object' });
    expect((tool.validateArgs([]) as { error: string }).error).toContain('- (arguments): must be object');
  });
});
