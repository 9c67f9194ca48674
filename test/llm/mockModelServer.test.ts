// The mock server's own contract, spoken to with plain fetch.

import { afterEach, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let server: MockModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('mock model server', () => {
  it('listens on loopback and gives base URLs per provider type', async () => {
    server = await startMockModelServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.baseUrlFor('openai')).toBe(`${server.url}/v1`);
    expect(server.baseUrlFor('kimi')).toBe(`${server.url}/v1`);
    expect(server.baseUrlFor('openai_responses')).toBe(`${server.url}/v1`);
    expect(server.baseUrlFor('anthropic')).toBe(server.url);
  });

  it('consumes one turn per model request whatever the protocol, and records requests', async () => {
    server = await startMockModelServer({ turns: [{ text: 'one' }, { text: 'two' }] });
    server.push({ text: 'three' });
    expect(server.remaining()).toBe(3);
    await (await post(`${server.url}/v1/chat/completions`, { model: 'm', stream: true })).text();
    await (await post(`${server.url}/v1/messages`, { model: 'm', stream: true })).text();
    expect(server.remaining()).toBe(1);
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/messages']);
    expect(server.requests[0].body).toEqual({ model: 'm', stream: true });
    expect(server.requests[0].headers['content-type']).toBe('application/json');
  });

  it('answers 500 with a clear message when no turn is left', async () => {
    server = await startMockModelServer();
    const res = await post(`${server.url}/v1/responses`, {});
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      error: { message: 'mock model server: no scripted turn left', type: 'server_error' },
    });
  });

  it('asks the script when the queue is empty', async () => {
    server = await startMockModelServer({ script: (req, index) => ({ text: `reply ${index} to ${req.body.model}` }) });
    const text = await (await post(`${server.url}/v1/chat/completions`, { model: 'abc' })).text();
    const content = text
      .split('\n\n')
      .filter((f) => f.startsWith('data: {'))
      .map((f) => JSON.parse(f.slice(6)).choices[0]?.delta?.content ?? '')
      .join('');
    expect(content).toBe('reply 0 to abc');
  });

  it('lists models', async () => {
    server = await startMockModelServer();
    const res = await fetch(`${server.url}/v1/models`);
    const body = (await res.json()) as { data: unknown[] };
    expect(body.data.length).toBeGreaterThan(0);
  });

  it('sends scripted HTTP errors with headers', async () => {
    server = await startMockModelServer({ turns: [{ error: { status: 429, headers: { 'retry-after': '3' } } }] });
    const res = await post(`${server.url}/v1/messages`, {});
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('rate_limit_error');
  });

  it('closes with a request still hanging', async () => {
    server = await startMockModelServer({ turns: [{ hang: true }] });
    const pending = post(`${server.url}/v1/chat/completions`, {}).catch((e: unknown) => e);
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await server.close();
    server = undefined;
    expect(await pending).toBeInstanceOf(Error);
  });
});
