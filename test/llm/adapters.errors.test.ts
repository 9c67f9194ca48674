// Every adapter, through its real SDK: what goes wrong on the wire comes out as the right ProviderError.

import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { PROVIDER_TYPES_UNDER_TEST, clientFor, collect, failure, simpleRequest } from './adapterFixtures';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(() => server.close());

const signal = () => new AbortController().signal;

describe.each(PROVIDER_TYPES_UNDER_TEST)('%s adapter: errors', (type) => {
  const fail = async (turn: Parameters<MockModelServer['push']>[0], options = {}) => {
    server.push(turn);
    return failure((await clientFor(type, server, {}, options)).stream(simpleRequest(), signal()));
  };

  it('429 with Retry-After seconds → rate_limit with retryAfterMs', async () => {
    const err = await fail({ error: { status: 429, headers: { 'retry-after': '7' } } });
    expect(err.kind).toBe('rate_limit');
    expect(err.status).toBe(429);
    expect(err.retryAfterMs).toBe(7000);
    expect(err.retryable).toBe(true);
    expect(err.message).toContain(`mock_${type}`);
  });

  it('429 with retry-after-ms → rate_limit with that delay', async () => {
    const err = await fail({ error: { status: 429, headers: { 'retry-after-ms': '1500' } } });
    expect(err).toMatchObject({ kind: 'rate_limit', retryAfterMs: 1500 });
  });

  it('429 about quota or balance → quota, not retried', async () => {
    const body = {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
      },
    };
    const err = await fail({ error: { status: 429, body } });
    expect(err.kind).toBe('quota');
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/quota/i);
  });

  it('500 → server (retryable)', async () => {
    const err = await fail({ error: { status: 500 } });
    expect(err).toMatchObject({ kind: 'server', status: 500 });
    expect(err.retryable).toBe(true);
  });

  it('529 → overloaded', async () => {
    const err = await fail({
      error: { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
    });
    expect(err.kind).toBe('overloaded');
  });

  it('401 → auth with an actionable message', async () => {
    const err = await fail({ error: { status: 401, body: { error: { message: 'Incorrect API key provided' } } } });
    expect(err.kind).toBe('auth');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('Incorrect API key provided');
    expect(err.message).toContain(`[providers.mock_${type}]`);
    expect(err.message).toContain('api_key');
    expect(err.message).toContain('JARVIS_MODEL_API_KEY');
  });

  it('400 about the context length → context_overflow', async () => {
    const body = {
      error: {
        message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
      },
    };
    const err = await fail({ error: { status: 400, body } });
    expect(err.kind).toBe('context_overflow');
  });

  it('404 → not_found naming the model', async () => {
    const err = await fail({ error: { status: 404 } });
    expect(err.kind).toBe('not_found');
    const client = await clientFor(type, server);
    expect(err.message).toContain(`"${client.model}"`);
  });

  it('a garbled stream → bad_response with a clear message', async () => {
    const err = await fail({ text: 'This text will be cut by garbage halfway through the stream.', garble: true });
    expect(err.kind).toBe('bad_response');
    expect(err.message).toMatch(/^The provider sent a malformed stream: /);
  });

  it('a truncated stream → bad_response', async () => {
    const err = await fail({ text: 'This stream never says it is finished.', truncate: true });
    expect(err.kind).toBe('bad_response');
    expect(err.message).toMatch(/malformed stream: it ended before/);
  });

  it('a request that never gets headers → timeout', async () => {
    const err = await fail({ hang: true }, { timeoutMs: 200 });
    expect(err.kind).toBe('timeout');
    expect(err.retryable).toBe(true);
  });

  it('a stream that goes silent → timeout', async () => {
    const err = await fail({ text: 'slow '.repeat(20), chunkDelayMs: 5_000 }, { idleTimeoutMs: 200 });
    expect(err.kind).toBe('timeout');
  });

  it('abort mid-stream → aborted, promptly', async () => {
    server.push({ text: 'word '.repeat(400), chunkDelayMs: 25 });
    const client = await clientFor(type, server);
    const controller = new AbortController();
    const started = Date.now();
    let seen = 0;
    const err = await failure(
      (async function* () {
        for await (const part of client.stream(simpleRequest(), controller.signal)) {
          if (part.type === 'text' && ++seen === 2) controller.abort();
          yield part;
        }
      })(),
    );
    expect(err.kind).toBe('aborted');
    expect(err.retryable).toBe(false);
    // The whole stream would take ~6 s; an abort ends it right away.
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('abort while waiting for headers → aborted', async () => {
    server.push({ hang: true });
    const client = await clientFor(type, server);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await failure(client.stream(simpleRequest(), controller.signal));
    expect(err.kind).toBe('aborted');
  });

  it('an already-aborted signal → aborted without a request', async () => {
    const before = server.requests.length;
    const client = await clientFor(type, server);
    const err = await failure(client.stream(simpleRequest(), AbortSignal.abort()));
    expect(err.kind).toBe('aborted');
    expect(server.requests.length).toBe(before);
  });

  it('nothing listening → unreachable (not retried)', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    const base = type === 'anthropic' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`;
    const client = await clientFor(type, server, { baseUrl: base });
    const err = await failure(client.stream(simpleRequest(), signal()));
    expect(err.kind).toBe('unreachable');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain(base);
  });

  it('no scripted turn left → server error that says so', async () => {
    expect(server.remaining()).toBe(0);
    const err = await failure((await clientFor(type, server)).stream(simpleRequest(), signal()));
    expect(err.kind).toBe('server');
    expect(err.message).toContain('mock model server: no scripted turn left');
  });

  it('still works after all of that', async () => {
    server.push({ text: 'fine' });
    const parts = await collect((await clientFor(type, server)).stream(simpleRequest(), signal()));
    expect(parts.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });
});
