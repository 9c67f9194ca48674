#!/usr/bin/env node
// A CI check with a structured verdict (docs/sdk.md): the agent looks at the project and answers in the shape of
// `verdict`; the program exits 0 on "pass", 1 on "fail", 2 when no verdict came. The model comes from the
// environment (JARVIS_MODEL_NAME, JARVIS_MODEL_API_KEY, JARVIS_MODEL_PROVIDER_TYPE, JARVIS_MODEL_BASE_URL): no config
// file is read. Usage: node ci-check.mjs [folder]
import { query } from 'jarvis-code/sdk';

const verdict = {
  type: 'object',
  properties: {
    status: { enum: ['pass', 'fail'] },
    problems: { type: 'array', items: { type: 'string' } },
  },
  required: ['status', 'problems'],
  additionalProperties: false,
};

const q = query({
  prompt: 'Check this project for TODO comments left in the code. Fail if there are any; list each as a problem.',
  options: {
    cwd: process.argv[2] ?? process.cwd(),
    // Read-only tools run on their own; anything that asks is refused (no canUseTool).
    permissionMode: 'auto',
    outputSchema: verdict,
    maxTurns: 20,
  },
});

let result;
for await (const message of q) {
  if (message.role === 'tool') console.error(`  ran ${message.name}`);
  if (message.type === 'error') console.error(`error: ${message.message}`);
  if (message.type === 'result') result = message;
}
if (result?.outcome !== 'success') {
  console.error(`no verdict: ${result?.outcome} ${result?.error ?? ''}`);
  process.exit(2);
}
const { status, problems } = result.structured_output;
console.log(JSON.stringify({ status, problems, cost_usd: result.total_cost_usd }));
process.exit(status === 'pass' ? 0 : 1);
