// What each adapter puts on the wire, asserted on the request bodies the mock server recorded.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import type { ModelRequest } from '../../src/llm/types';
import { clientFor, collect } from './adapterFixtures';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const PNG = 'iVBORw0KGgoAAAANSUhEUg==';
const READ_SCHEMA = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };

function conversation(params: ModelRequest['params'] = {}): ModelRequest {
  return {
    system: 'SYS PROMPT',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look at this' },
          { type: 'image', mediaType: 'image/png', data: PNG },
        ],
      },
      {
        role: 'assistant',
        text: 'Reading both.',
        thinking: [{ text: 'I should read both files', signature: 'sig-1' }],
        toolCalls: [
          { id: 'call_1', name: 'Read', arguments: '{"path":"a.txt"}' },
          { id: 'call_2', name: 'Read', arguments: '{"path":"b.png"}' },
        ],
      },
      { role: 'tool', toolCallId: 'call_1', toolName: 'Read', content: [{ type: 'text', text: 'A contents' }] },
      {
        role: 'tool',
        toolCallId: 'call_2',
        toolName: 'Read',
        isError: true,
        content: [
          { type: 'text', text: 'B is an image' },
          { type: 'image', mediaType: 'image/png', data: PNG },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'thanks, continue' }] },
    ],
    tools: [{ name: 'Read', description: 'Reads a file', parameters: READ_SCHEMA }],
    params,
  };
}

async function sent(type: Parameters<typeof clientFor>[0], request: ModelRequest, overrides = {}, options = {}) {
  server.push({ text: 'ok' });
  await collect((await clientFor(type, server, overrides, options)).stream(request, new AbortController().signal));
  expect(server.requests).toHaveLength(1);
  return server.requests[0];
}

describe('openai chat completions mapping', () => {
  it('maps system, images, tool calls, tool results, reasoning and params', async () => {
    const req = await sent(
      'openai',
      conversation({ maxOutputTokens: 1000, temperature: 0.2, topP: 0.9, promptCacheKey: 'sess-1' }),
    );
    expect(req.path).toBe('/v1/chat/completions');
    const b = req.body;
    expect(b).toMatchObject({
      model: 'gpt-mock',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 1000,
      temperature: 0.2,
      top_p: 0.9,
      prompt_cache_key: 'sess-1',
    });
    expect(b.tools).toEqual([
      { type: 'function', function: { name: 'Read', description: 'Reads a file', parameters: READ_SCHEMA } },
    ]);
    expect(b.messages.map((m: { role: string }) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
      'user',
    ]);
    expect(b.messages[0]).toEqual({ role: 'system', content: 'SYS PROMPT' });
    expect(b.messages[1].content).toEqual([
      { type: 'text', text: 'look at this' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
    expect(b.messages[2]).toEqual({
      role: 'assistant',
      content: 'Reading both.',
      reasoning_content: 'I should read both files',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'Read', arguments: '{"path":"a.txt"}' } },
        { id: 'call_2', type: 'function', function: { name: 'Read', arguments: '{"path":"b.png"}' } },
      ],
    });
    expect(b.messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'A contents' });
    expect(b.messages[4]).toEqual({ role: 'tool', tool_call_id: 'call_2', content: 'B is an image' });
    // The image a tool returned follows the run of tool results, as a user message.
    expect(b.messages[5].content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } });
    expect(b.messages[6]).toEqual({ role: 'user', content: 'thanks, continue' });
  });

  it('sends reasoning_effort when thinking is on and uses max_completion_tokens for api.openai.com', async () => {
    const client = await clientFor('openai', server, { baseUrl: undefined });
    const body = (client as unknown as { buildBody(r: ModelRequest): Record<string, unknown> }).buildBody(
      conversation({ maxOutputTokens: 500, thinking: { enabled: true, effort: 'high' } }),
    );
    expect(body).toMatchObject({ max_completion_tokens: 500, reasoning_effort: 'high' });
    expect(body.max_tokens).toBeUndefined();
  });

  it('echoes reasoning back under a configured reasoning_key', async () => {
    const req = await sent('openai', conversation(), { reasoningKey: 'reasoning_details' });
    expect(req.body.messages[2].reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'I should read both files' },
    ]);
    expect(req.body.messages[2].reasoning_content).toBeUndefined();
  });
});

describe('kimi mapping', () => {
  it('uses the chat completions wire with the thinking switch', async () => {
    const req = await sent('kimi', conversation({ thinking: { enabled: true } }));
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.body.thinking).toEqual({ type: 'enabled' });
    expect(req.body.messages[2].reasoning_content).toBe('I should read both files');
  });

  it('turns thinking off explicitly when disabled', async () => {
    const req = await sent('kimi', conversation({ thinking: { enabled: false } }));
    expect(req.body.thinking).toEqual({ type: 'disabled' });
  });

  it('applies the Kimi knobs resolved from JARVIS_MODEL_*, and never reads them from the environment itself', async () => {
    const env = { JARVIS_MODEL_TEMPERATURE: '1.9' };
    const kimi = { maxCompletionTokens: 2048, temperature: 0.6, topP: 0.95 };
    const req = await sent(
      'kimi',
      conversation({ maxOutputTokens: 100_000, thinking: { enabled: true, effort: 'low' } }),
      { kimi },
      { env },
    );
    expect(req.body).toMatchObject({ max_tokens: 2048, temperature: 0.6, top_p: 0.95, reasoning_effort: 'low' });
  });

  it('defaults to the Moonshot endpoint', async () => {
    const client = await clientFor('kimi', server, { baseUrl: undefined });
    const ctx = (client as unknown as { ctx: { baseUrl: string } }).ctx;
    expect(ctx.baseUrl).toBe('https://api.moonshot.ai/v1');
  });
});

describe('openai responses mapping', () => {
  it('maps instructions, input items, function calls and outputs', async () => {
    const req = await sent(
      'openai_responses',
      conversation({ maxOutputTokens: 800, promptCacheKey: 'sess-2', thinking: { enabled: true, effort: 'medium' } }),
    );
    expect(req.path).toBe('/v1/responses');
    const b = req.body;
    expect(b).toMatchObject({
      model: 'gpt-mock',
      stream: true,
      instructions: 'SYS PROMPT',
      max_output_tokens: 800,
      prompt_cache_key: 'sess-2',
      reasoning: { effort: 'medium', summary: 'auto' },
    });
    expect(b.tools).toEqual([
      { type: 'function', name: 'Read', description: 'Reads a file', parameters: READ_SCHEMA, strict: false },
    ]);
    expect(b.input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'look at this' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
        ],
      },
      { role: 'assistant', content: 'Reading both.' },
      { type: 'function_call', call_id: 'call_1', name: 'Read', arguments: '{"path":"a.txt"}' },
      { type: 'function_call', call_id: 'call_2', name: 'Read', arguments: '{"path":"b.png"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'A contents' },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: [
          { type: 'input_text', text: 'B is an image' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
        ],
      },
      { role: 'user', content: [{ type: 'input_text', text: 'thanks, continue' }] },
    ]);
  });
});

describe('anthropic messages mapping', () => {
  it('maps system, thinking with signature, tool use, merged tool results and cache breakpoints', async () => {
    const req = await sent('anthropic', conversation({ maxOutputTokens: 1000, temperature: 0.2 }));
    expect(req.path).toBe('/v1/messages');
    const b = req.body;
    expect(b).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 1000, stream: true, temperature: 0.2 });
    expect(b.system).toEqual([{ type: 'text', text: 'SYS PROMPT', cache_control: { type: 'ephemeral' } }]);
    expect(b.tools).toEqual([{ name: 'Read', description: 'Reads a file', input_schema: READ_SCHEMA }]);
    expect(b.messages).toHaveLength(3);
    expect(b.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'look at this' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      ],
    });
    expect(b.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should read both files', signature: 'sig-1' },
        { type: 'text', text: 'Reading both.' },
        { type: 'tool_use', id: 'call_1', name: 'Read', input: { path: 'a.txt' } },
        { type: 'tool_use', id: 'call_2', name: 'Read', input: { path: 'b.png' } },
      ],
    });
    // Both results and the following user text share one user message; the last block is a cache breakpoint.
    expect(b.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: 'A contents' }] },
        {
          type: 'tool_result',
          tool_use_id: 'call_2',
          is_error: true,
          content: [
            { type: 'text', text: 'B is an image' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
        { type: 'text', text: 'thanks, continue', cache_control: { type: 'ephemeral' } },
      ],
    });
  });

  it('puts the cache breakpoint on the last tool result when the conversation ends with one', async () => {
    const request = conversation();
    request.messages.pop();
    const req = await sent('anthropic', request);
    const last = req.body.messages.at(-1);
    expect(last.content.at(-1)).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'call_2',
      cache_control: { type: 'ephemeral' },
    });
    expect(last.content.filter((c: { cache_control?: unknown }) => c.cache_control)).toHaveLength(1);
  });

  it('enables thinking with a budget below max_tokens and drops sampling overrides', async () => {
    const req = await sent(
      'anthropic',
      conversation({ temperature: 0.5, thinking: { enabled: true, effort: 'medium' } }),
    );
    expect(req.body.max_tokens).toBe(64_000);
    expect(req.body.thinking).toEqual({ type: 'enabled', budget_tokens: 10_000 });
    expect(req.body.temperature).toBeUndefined();
  });

  it('does not think without the thinking capability', async () => {
    const req = await sent('anthropic', conversation({ thinking: { enabled: true } }), { capabilities: ['tool_use'] });
    expect(req.body.thinking).toBeUndefined();
  });

  it('uses adaptive thinking for Claude 4.6+ and the configured max output size', async () => {
    const req = await sent('anthropic', conversation({ thinking: { enabled: true, effort: 'high' } }), {
      model: 'claude-opus-4-6',
      maxOutputSize: 32_000,
    });
    expect(req.body.max_tokens).toBe(32_000);
    expect(req.body.thinking).toEqual({ type: 'adaptive' });
    expect(req.body.output_config).toEqual({ effort: 'high' });
  });

  it('drops thinking that has no signature (it came from another provider)', async () => {
    const request = conversation();
    const assistant = request.messages[1] as Extract<ModelRequest['messages'][number], { role: 'assistant' }>;
    assistant.thinking = [{ text: 'unsigned' }, { text: '', redacted: 'opaque-bytes' }];
    const req = await sent('anthropic', request);
    expect(req.body.messages[1].content[0]).toEqual({ type: 'redacted_thinking', data: 'opaque-bytes' });
    expect(JSON.stringify(req.body.messages[1])).not.toContain('unsigned');
  });
});
