import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, describeSchemaError, renderTemplate, toolSchemaForModel } from '../../src/tools/defineTool';
import { capToolOutput, MAX_TOOL_OUTPUT_CHARS } from '../../src/engine/loop/toolRunner';
import { readFileSync } from 'node:fs';
import { makeToolHarness } from '../helpers/toolHarness';
import { builtinTools } from '../../src/tools/registry';

describe('tool framework', () => {
  it('fills description placeholders from the tool constants and refuses unknown ones', () => {
    expect(renderTemplate('at most ${MAX_LINES} lines', { MAX_LINES: 1000 })).toBe('at most 1000 lines');
    expect(() => renderTemplate('${NOPE}', {})).toThrow(/placeholder \$\{NOPE\} has no constant/);
    const tool = defineTool({
      name: 'Demo',
      description: 'Reads up to ${N} things.',
      constants: { N: 7 },
      schema: z.object({ path: z.string(), limit: z.number().int().min(1).default(3) }),
      readOnly: true,
      defaultApproval: 'auto',
      execute: async () => ({ content: 'ok' }),
    });
    const schema = toolSchemaForModel(tool);
    expect(schema.description).toBe('Reads up to 7 things.');
    expect(schema.parameters).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    });
    expect(schema.parameters.$schema).toBeUndefined();
    // .int() bounds at ±2^53 tell the model nothing and are left out; real bounds stay.
    expect(JSON.stringify(schema.parameters)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(schema.parameters).toMatchObject({ properties: { limit: { type: 'integer', minimum: 1 } } });
  });

  it("builds each built-in tool's JSON schema on first read, once, as an object schema", () => {
    const tools = builtinTools({ cron: true });
    expect(tools.length).toBeGreaterThan(10);
    for (const tool of tools) {
      const first = tool.jsonSchema;
      expect(first, tool.name).toMatchObject({ type: 'object' });
      expect(first.$schema, tool.name).toBeUndefined();
      expect(tool.jsonSchema, tool.name).toBe(first);
    }
  });

  it('describes schema errors by field, for the model', () => {
    const r = z.object({ path: z.string(), n: z.number() }).safeParse({ n: 'x' });
    const text = describeSchemaError('Demo', r.error!);
    expect(text).toMatch(/^Invalid arguments for Demo:\n- path: .+\n- n: .+\nFix the arguments and call Demo again\.$/);
  });

  it('caps long output centrally, saving the full text in the session and telling the model where', async () => {
    const h = makeToolHarness();
    const long = 'x'.repeat(MAX_TOOL_OUTPUT_CHARS + 5000);
    const capped = (await capToolOutput({ content: long }, 'main', h.sessionDir)).result;
    const text = (capped.content as Array<{ type: 'text'; text: string }>)[0].text;
    expect(text.length).toBeLessThan(MAX_TOOL_OUTPUT_CHARS);
    const path = /saved at (\S+);/.exec(text)![1];
    expect(readFileSync(path, 'utf8')).toBe(long);
    const short = (await capToolOutput({ content: 'short' }, 'main', h.sessionDir)).result;
    expect(short.content).toBe('short');
  });

  it.each([10, 1_000, 20_000, 39_999, 50_000])(
    'a %i-character limit keeps a head and a tail that never overlap',
    async (limit) => {
      const h = makeToolHarness();
      // Every character says where it came from, so an overlap or a gap shows in the numbers.
      const full = Array.from({ length: limit * 2 }, (_, i) => String.fromCharCode(0x4e00 + (i % 20_000))).join('');
      const capped = (await capToolOutput({ content: full }, 'main', h.sessionDir, limit)).result;
      const text = (capped.content as Array<{ type: 'text'; text: string }>)[0].text;
      const [head, rest] = text.split('\n\n[… ');
      const tail = rest.split(']\n\n')[1];
      const omitted = Number(/^(\d+) characters omitted/.exec(rest)![1]);
      expect(head.length + tail.length).toBeLessThanOrEqual(limit);
      expect(head.length + omitted + tail.length).toBe(full.length);
      expect(full.startsWith(head) && full.endsWith(tail)).toBe(true);
    },
  );
});
