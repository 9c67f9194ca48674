#!/usr/bin/env node
// An in-process tool and an approval callback (docs/sdk.md): the model may look up a ticket with `lookup_ticket`
// (this program's own function), and every call that would ask a human is decided by `canUseTool` instead: here,
// file writes are refused with a reason the model reads, and everything else is allowed. The model comes from the
// environment (JARVIS_MODEL_*). Usage: node custom-tool.mjs "What is ticket 42 about?"
import { query, tool } from 'jarvis-code/sdk';

const tickets = { 42: 'The nightly build fails on Node 20 since the lockfile update.' };

const lookupTicket = tool({
  name: 'lookup_ticket',
  description: 'Returns the summary of a ticket of the issue tracker, by its number.',
  inputSchema: {
    type: 'object',
    properties: { id: { type: 'integer', description: 'The ticket number' } },
    required: ['id'],
  },
  handler: async ({ id }) =>
    tickets[id]
      ? `Ticket ${id}: ${tickets[id]}`
      : { content: [{ type: 'text', text: `No ticket ${id}.` }], isError: true },
});

const q = query({
  prompt: process.argv[2] ?? 'What is ticket 42 about?',
  options: {
    permissionMode: 'manual',
    tools: [lookupTicket],
    canUseTool: async (toolName, input) => {
      console.error(`approval asked: ${toolName} ${JSON.stringify(input)}`);
      if (toolName === 'Write' || toolName === 'Edit')
        return { behavior: 'deny', message: 'This helper never changes files.' };
      return { behavior: 'allow' };
    },
  },
});

for await (const message of q) {
  if (message.role === 'assistant' && message.content) console.log(message.content);
  if (message.role === 'tool') console.error(`  ${message.name} → ${message.content}`);
  if (message.type === 'result') process.exitCode = message.outcome === 'success' ? 0 : 1;
}
