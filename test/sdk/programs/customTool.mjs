// A custom tool (zod 4 and JSON Schema) called by the model; its result reaches the model; a throwing handler is a
// tool error; a throwing canUseTool denies and becomes an error message, never an unhandled rejection.
import { query, tool } from 'jarvis-code/sdk';
import { z } from 'zod';
import { base, collect, out } from './common.mjs';

const calls = [];
const lookup = tool({
  name: 'lookup_ticket',
  description: 'Looks up a ticket by its number.',
  inputSchema: z.object({ id: z.number().int() }),
  handler: async ({ id }) => {
    calls.push(id);
    return { content: [{ type: 'text', text: `ticket ${id}: the build is red since Tuesday` }] };
  },
});
const broken = tool({
  name: 'broken_tool',
  description: 'Always fails.',
  inputSchema: { type: 'object', properties: { why: { type: 'string' } }, required: ['why'] },
  readOnly: true,
  handler: () => {
    throw new Error('the database is down');
  },
});
const asked = [];
const messages = await collect(
  query({
    prompt: 'look up ticket 42',
    options: {
      ...base,
      permissionMode: 'manual',
      tools: [lookup, broken],
      canUseTool: (toolName, input) => {
        asked.push({ toolName, input });
        if (input.id === 7) throw new Error('policy service unreachable');
        return { behavior: 'allow' };
      },
    },
  }),
);
out({ calls, asked, messages });
