// docs/print-mode.md "Cost": the result event's total_cost_usd is the sum of what the provider reported per
// request (OpenRouter's usage.cost, a LiteLLM proxy's x-litellm-response-cost header), never an estimate;
// cost_complete says whether every request reported one. Checked against the result schema with ajv.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';

const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../docs/schemas/stream-json-result.schema.json'), 'utf8'),
) as Record<string, unknown>;
const validate = new Ajv({ allErrors: true }).compile(schema);

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

const readCall: ScriptedTurn['toolCalls'] = [{ name: 'Read', arguments: { path: 'notes.txt' } }];

async function run(
  turns: ScriptedTurn[],
  format: 'stream-json' | 'json' = 'stream-json',
  protocol: 'openai' | 'openai_responses' = 'openai',
) {
  const dirs = makeCliDirs();
  server.push(...turns);
  const r = await runJarvis(['-p', 'read the notes', '--output-format', format], {
    env: cliEnv(dirs, mockModelEnv(server.baseUrlFor(protocol), protocol)),
    cwd: dirs.cwd,
  });
  expect(r.code, r.stderr).toBe(0);
  const result = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
  return result;
}

describe('cost in the result event', () => {
  it('stream-json: OpenRouter-style usage.cost of every request is summed; complete', async () => {
    const result = await run([
      { toolCalls: readCall, usage: { input: 100, output: 10, cost: 0.0012 } },
      { text: 'Read it.', usage: { input: 130, output: 4, cost: 0.0003 } },
    ]);
    expect(result).toMatchObject({ total_cost_usd: 0.0015, cost_complete: true, cost_source: 'provider' });
    expect(result.usage).toMatchObject({ input_tokens: 230, output_tokens: 14 });
  });

  it('json: the LiteLLM header counts; a request without a cost makes the figure incomplete', async () => {
    const result = await run(
      [{ toolCalls: readCall, responseHeaders: { 'x-litellm-response-cost': '0.25' } }, { text: 'Read it.' }],
      'json',
    );
    expect(result).toMatchObject({ total_cost_usd: 0.25, cost_complete: false, cost_source: 'provider' });
  });

  it('the responses protocol reads usage.cost too', async () => {
    const result = await run(
      [{ text: 'Hello.', usage: { input: 5, output: 2, cost: 0.5 } }],
      'json',
      'openai_responses',
    );
    expect(result).toMatchObject({ total_cost_usd: 0.5, cost_complete: true, cost_source: 'provider' });
  });

  it('no reported cost, or values that are not a cost, give null and no made-up figure', async () => {
    expect(await run([{ toolCalls: readCall }, { text: 'Read it.' }])).toMatchObject({
      total_cost_usd: null,
      cost_complete: false,
      cost_source: null,
    });
    const bad = await run([
      {
        toolCalls: readCall,
        usage: { input: 3, output: 1, cost: -1 },
        responseHeaders: { 'x-litellm-response-cost': 'NaN' },
      },
      { text: 'Read it.', usage: { input: 3, output: 1, cost: '0.2' } },
    ]);
    expect(bad).toMatchObject({ total_cost_usd: null, cost_complete: false, cost_source: null });
  });
});
