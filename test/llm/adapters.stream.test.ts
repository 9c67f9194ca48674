// Every adapter, through its real SDK, against the loopback mock server: what comes out of a stream.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import type { StreamPart, ToolCall } from '../../src/llm/types';
import { PROVIDER_TYPES_UNDER_TEST, clientFor, collect, simpleRequest, textOf } from './adapterFixtures';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const calls = (parts: StreamPart[]): ToolCall[] => parts.flatMap((p) => (p.type === 'tool_call' ? [p.call] : []));
const signal = () => new AbortController().signal;

describe.each(PROVIDER_TYPES_UNDER_TEST)('%s adapter: streaming', (type) => {
  it('streams text in several deltas and finishes with stop', async () => {
    server.push({ text: 'Hello there, this is streamed text.' });
    const client = await clientFor(type, server);
    expect(client.providerType).toBe(type);
    const parts = await collect(client.stream(simpleRequest(), signal()));
    const deltas = parts.filter((p) => p.type === 'text');
    expect(deltas.length).toBeGreaterThan(2);
    expect(textOf(parts)).toBe('Hello there, this is streamed text.');
    expect(parts[parts.length - 1]).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('reports usage before the finish', async () => {
    server.push({ text: 'ok', usage: { input: 123, output: 45 } });
    const parts = await collect((await clientFor(type, server)).stream(simpleRequest(), signal()));
    const usage = parts.find((p) => p.type === 'usage');
    expect(usage).toMatchObject({ type: 'usage', usage: { inputTokens: 123, outputTokens: 45 } });
    expect(parts.indexOf(usage!)).toBeLessThan(parts.length - 1);
  });

  it('assembles two parallel tool calls whose arguments arrive split across chunks', async () => {
    server.push({
      text: 'Let me look.',
      toolCalls: [
        { id: 'call_a', name: 'Read', arguments: { path: '/tmp/one.txt', limit: 20 } },
        { id: 'call_b', name: 'Grep', arguments: '{"pattern":"needle","path":"."}' },
      ],
    });
    const parts = await collect((await clientFor(type, server)).stream(simpleRequest(), signal()));
    expect(calls(parts)).toEqual([
      { id: 'call_a', name: 'Read', arguments: '{"path":"/tmp/one.txt","limit":20}' },
      { id: 'call_b', name: 'Grep', arguments: '{"pattern":"needle","path":"."}' },
    ]);
    const starts = parts.filter((p) => p.type === 'tool_call_start');
    expect(starts).toEqual([
      { type: 'tool_call_start', id: 'call_a', name: 'Read' },
      { type: 'tool_call_start', id: 'call_b', name: 'Grep' },
    ]);
    // Each start comes before its complete call.
    expect(parts.findIndex((p) => p.type === 'tool_call_start')).toBeLessThan(
      parts.findIndex((p) => p.type === 'tool_call'),
    );
    expect(parts[parts.length - 1]).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('normalises duplicate and missing tool-call ids', async () => {
    server.push({
      toolCalls: [
        { id: 'dup', name: 'A', arguments: {} },
        { id: 'dup', name: 'B', arguments: {} },
        { id: '', name: 'C', arguments: {} },
      ],
    });
    const parts = await collect((await clientFor(type, server)).stream(simpleRequest(), signal()));
    const ids = calls(parts).map((c) => c.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe('dup');
    expect(ids[1]).toMatch(/^dup_/);
    expect(ids[2]).toMatch(/^call_\S+/);
    // The announced ids match the final ones.
    expect(parts.filter((p) => p.type === 'tool_call_start').map((p) => (p as { id: string }).id)).toEqual(ids);
  });

  it('surfaces thinking as thinking deltas', async () => {
    server.push({ thinking: 'First I consider the options carefully.', text: 'Answer.' });
    const client = await clientFor(type, server);
    const parts = await collect(
      client.stream(simpleRequest('think', { params: { thinking: { enabled: true } } }), signal()),
    );
    expect(textOf(parts, 'thinking')).toBe('First I consider the options carefully.');
    expect(textOf(parts)).toBe('Answer.');
    if (type === 'anthropic') {
      expect(parts.find((p) => p.type === 'thinking_block')).toEqual({
        type: 'thinking_block',
        block: { text: 'First I consider the options carefully.', signature: expect.stringMatching(/^sig_mock_/) },
      });
    }
  });

  it('sends the User-Agent and custom headers on every request', async () => {
    server.push({ text: 'a' });
    const client = await clientFor(type, server, { customHeaders: { 'X-Team': 'jarvis', 'X-Trace': '42' } });
    await collect(client.stream(simpleRequest(), signal()));
    const headers = server.requests[0].headers;
    expect(headers['user-agent']).toBe('jarvis-code/9.9.9-test');
    expect(headers['x-team']).toBe('jarvis');
    expect(headers['x-trace']).toBe('42');
    if (type === 'anthropic') expect(headers['x-api-key'] ?? headers.authorization).toMatch(/^(Bearer )?sk-test-key$/);
    else expect(headers.authorization).toBe('Bearer sk-test-key');
    if (type === 'anthropic') expect(headers['anthropic-version']).toBeTruthy();
  });
});

describe('openai-compatible reasoning fields', () => {
  it('reads reasoning from a configured reasoning_key', async () => {
    // The mock sends reasoning_content; a model configured for another key must not pick it up.
    server.push({ thinking: 'hidden', text: 'shown' });
    const parts = await collect(
      (await clientFor('openai', server, { reasoningKey: 'reasoning' })).stream(simpleRequest(), signal()),
    );
    expect(textOf(parts, 'thinking')).toBe('');
    expect(textOf(parts)).toBe('shown');
  });
});
