import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { thinkingParams } from '../../../src/engine/loop/loop';
import { MAX_REPEATED_INVALID_CALLS } from '../../../src/engine/loop/turnLimits';
import { ProviderError } from '../../../src/llm/types';
import {
  makeEngine,
  runPrompt,
  testTools,
  type EngineHarness,
  verifyEnginesAfterEach,
} from '../../helpers/engineHarness';

let h: EngineHarness | undefined;
verifyEnginesAfterEach();

function toolMessages(engine: EngineHarness) {
  return engine.runtime.session.state.messages.filter((m) => m.role === 'tool');
}

describe('agent loop', () => {
  it('streams a plain answer, journals the turn and ends it completed', async () => {
    h = makeEngine({ responses: [{ text: 'Hello there, friend.' }] });
    h.runtime.agent.submit({ kind: 'prompt', text: 'hi' });
    const [outcome] = await h.runtime.agent.idle();
    expect(outcome.reason).toBe('completed');
    expect(outcome.text).toBe('Hello there, friend.');
    expect(
      h
        .eventsOf('text_delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('Hello there, friend.');
    const state = h.runtime.session.state;
    expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(state.lastPrompt).toBe('hi');
    expect(state.openTurn).toBeUndefined();
    expect(h.client.requests[0].system).toContain(h.cwd);
  });

  it('runs tool calls, pairs results by call id and continues until the model stops', async () => {
    h = makeEngine({
      responses: [
        {
          toolCalls: [
            { id: 'a', name: 'Peek', arguments: { key: 'x', ms: 1 } },
            { id: 'b', name: 'Peek', arguments: { key: 'y', ms: 1 } },
          ],
        },
        { text: 'done' },
      ],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'look' });
    const [outcome] = await h.runtime.agent.idle();
    expect(outcome.reason).toBe('completed');
    const second = h.client.requests[1].messages;
    const results = second.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.role === 'tool' && [m.toolCallId, m.content[0]])).toEqual([
      ['a', { type: 'text', text: 'value of x' }],
      ['b', { type: 'text', text: 'value of y' }],
    ]);
  });

  it('turns malformed JSON, unknown tools and schema-invalid arguments into tool errors the model sees', async () => {
    h = makeEngine({
      responses: [
        {
          toolCalls: [
            { id: 'j', name: 'Peek', arguments: '{"key": "x"' },
            { id: 'u', name: 'Teleport', arguments: {} },
            { id: 's', name: 'Peek', arguments: { key: 42 } },
          ],
        },
        { text: 'sorry' },
      ],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'go' });
    const [outcome] = await h.runtime.agent.idle();
    expect(outcome.reason).toBe('completed');
    const texts = toolMessages(h).map((m) => (m.role === 'tool' ? (m.content[0] as { text: string }).text : ''));
    expect(texts[0]).toMatch(/not valid JSON/);
    expect(texts[1]).toMatch(/Unknown tool "Teleport"\. Available tools: Peek, Poke/);
    expect(texts[2]).toMatch(/Invalid arguments for Peek:\n- key:/);
    expect(toolMessages(h).every((m) => m.role === 'tool' && m.isError)).toBe(true);
  });

  it('keeps going through different invalid calls: each one is an error the model learns from', async () => {
    h = makeEngine({
      responses: [
        { toolCalls: [{ name: 'Peek', arguments: '{"key": ' }] },
        { toolCalls: [{ name: 'Teleport', arguments: {} }] },
        { toolCalls: [{ name: 'Peek', arguments: { key: 7 } }] },
        { toolCalls: [{ name: 'Peek', arguments: { key: 'x', ms: 0 } }] },
        { text: 'got it' },
      ],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'go' });
    const [outcome] = await h.runtime.agent.idle();
    expect(outcome).toMatchObject({ reason: 'completed', text: 'got it' });
    expect(h.client.requests).toHaveLength(5);
  });

  it(`stops the turn when the same invalid call comes ${MAX_REPEATED_INVALID_CALLS} times in a row`, async () => {
    // Key order and spacing do not make a call different; a valid call in between resets the count.
    const same = (i: number) => ({
      toolCalls: [{ name: 'Peek', arguments: i % 2 ? '{"key": 1, "ms": 0}' : '{"ms":0,"key":1}' }],
    });
    const valid = { toolCalls: [{ name: 'Peek', arguments: { key: 'x', ms: 0 } }] };
    h = makeEngine({ responses: [same(0), same(1), valid, ...[0, 1, 2, 3, 4].map(same), { text: 'never' }] });
    h.runtime.agent.submit({ kind: 'prompt', text: 'go' });
    const [outcome] = await h.runtime.agent.idle();
    expect(outcome.reason).toBe('failed');
    expect(outcome.error).toMatch(/same invalid Peek call \(same arguments\) 5 times in a row/);
    expect(h.client.requests).toHaveLength(8);
  });

  it('stops at max_steps_per_turn with a message naming the setting', async () => {
    const bad = (i: number) => ({ toolCalls: [{ name: 'Nope', arguments: { attempt: i } }] });
    h = makeEngine({ maxSteps: 4, responses: [0, 1, 2, 3, 4, 5].map(bad) });
    h.runtime.agent.submit({ kind: 'prompt', text: 'go' });
    const [outcome] = await h.runtime.agent.idle();
    expect(outcome.reason).toBe('max_steps');
    expect(outcome.error).toMatch(/after 4 steps \(loop_control\.max_steps_per_turn\)/);
    expect(h.client.requests).toHaveLength(4);
  });

  it("keeps only the last run of turns' outcomes, however many runs a session has (a UI never calls idle())", async () => {
    h = makeEngine({ responses: Array.from({ length: 30 }, (_, i) => ({ text: `answer ${i}` })) });
    for (let i = 0; i < 30; i++) {
      h.runtime.agent.submit({ kind: 'prompt', text: `q${i}` });
      await vi.waitFor(() => expect(h!.runtime.agent.busy).toBe(false));
    }
    const outcomes = await h.runtime.agent.idle();
    expect(outcomes.map((o) => o.text)).toEqual(['answer 29']);
  });

  it('normalises duplicate provider tool-call ids', async () => {
    h = makeEngine({
      responses: [
        {
          toolCalls: [
            { id: 'call_0', name: 'Peek', arguments: { key: 'a', ms: 0 } },
            { id: 'call_0', name: 'Peek', arguments: { key: 'b', ms: 0 } },
          ],
        },
        { toolCalls: [{ id: 'call_0', name: 'Peek', arguments: { key: 'c', ms: 0 } }] },
        { text: 'ok' },
      ],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'go' });
    await h.runtime.agent.idle();
    const ids = toolMessages(h).map((m) => (m.role === 'tool' ? m.toolCallId : ''));
    expect(new Set(ids).size).toBe(3);
  });

  it('runs read-only calls in parallel while a conflicting write waits for them', async () => {
    const log: Array<{ name: string; phase: 'start' | 'end'; at: number }> = [];
    h = makeEngine({
      mode: 'yolo',
      tools: testTools(log),
      responses: [
        {
          toolCalls: [
            { name: 'Peek', arguments: { key: 'f', ms: 150 } },
            { name: 'Peek', arguments: { key: 'g', ms: 150 } },
            { name: 'Poke', arguments: { key: 'f', ms: 10 } },
          ],
        },
        { text: 'ok' },
      ],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'go' });
    await h.runtime.agent.idle();
    const at = (name: string, phase: 'start' | 'end') => log.find((l) => l.name === name && l.phase === phase)!.at;
    // The two reads overlap: the second starts before the first ends.
    expect(at('Peek g', 'start')).toBeLessThan(at('Peek f', 'end'));
    // The write to f starts only after the read of f ended.
    expect(at('Poke f', 'start')).toBeGreaterThanOrEqual(at('Peek f', 'end'));
  });

  it('honours max_steps_per_turn', async () => {
    const call = { toolCalls: [{ name: 'Peek', arguments: { key: 'a', ms: 0 } }] };
    h = makeEngine({ maxSteps: 2, responses: [call, call, call] });
    h.runtime.agent.submit({ kind: 'prompt', text: 'loop' });
    const [outcome] = await h.runtime.agent.idle();
    expect(outcome.reason).toBe('max_steps');
    expect(outcome.error).toMatch(/after 2 steps/);
    expect(h.client.requests).toHaveLength(2);
  });

  it('keeps the partial text in the journal when interrupted mid-stream', async () => {
    h = makeEngine({ responses: [{ text: 'The first half of an answer', hangAfterText: true }, { text: 'next' }] });
    h.runtime.agent.submit({ kind: 'prompt', text: 'talk' });
    const engine = h;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (
          engine
            .eventsOf('text_delta')
            .map((e) => e.delta)
            .join('') === 'The first half of an answer'
        ) {
          clearInterval(timer);
          resolve();
        }
      }, 5);
    });
    h.runtime.agent.cancel();
    const [outcome] = await h.runtime.agent.idle();
    expect(outcome.reason).toBe('cancelled');
    const journal = readFileSync(h.runtime.session.journalPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const partial = journal.find((r) => r.type === 'message' && r.partial);
    expect(partial.message).toEqual({ role: 'assistant', text: 'The first half of an answer' });
    expect(journal.at(-1)).toMatchObject({ type: 'turn_end', reason: 'cancelled' });
    // The conversation goes on after an interrupt.
    h.runtime.agent.submit({ kind: 'prompt', text: 'again' });
    const [next] = await h.runtime.agent.idle();
    expect(next.reason).toBe('completed');
  });

  it('gives a steer to the model at the next step of the running turn', async () => {
    h = makeEngine({
      mode: 'yolo',
      responses: [{ toolCalls: [{ name: 'Peek', arguments: { key: 'a', ms: 100 } }] }, { text: 'steered' }],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'start' });
    await new Promise((r) => setTimeout(r, 30));
    h.runtime.agent.submit({ kind: 'steer', text: 'use b instead' });
    const outcomes = await h.runtime.agent.idle();
    expect(outcomes).toHaveLength(1);
    const last = h.client.requests[1].messages.at(-1)!;
    expect(last).toEqual({ role: 'user', content: [{ type: 'text', text: 'use b instead' }] });
  });
});

describe('provider failures', () => {
  it('retries a 429 and then succeeds, telling the front end', async () => {
    h = makeEngine({
      responses: [
        { error: new ProviderError('rate_limit', 'slow down', { status: 429, retryAfterMs: 1 }) },
        { text: 'ok' },
      ],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'x' });
    const [outcome] = await h.runtime.agent.idle();
    expect(outcome.reason).toBe('completed');
    expect(h.eventsOf('retry')).toHaveLength(1);
  });

  it('retries three 500s and then succeeds', async () => {
    const e500 = { error: new ProviderError('server', 'boom', { status: 500 }) };
    h = makeEngine({ responses: [e500, e500, e500, { text: 'finally' }] });
    h.runtime.agent.submit({ kind: 'prompt', text: 'x' });
    const [outcome] = await h.runtime.agent.idle();
    expect(outcome).toMatchObject({ reason: 'completed', text: 'finally' });
    expect(h.eventsOf('retry').map((e) => e.attempt)).toEqual([1, 2, 3]);
  });

  it('gives up after max_attempts_per_step', async () => {
    const e500 = { error: new ProviderError('server', 'boom', { status: 500 }) };
    h = makeEngine({ maxAttempts: 2, responses: [e500, e500, { text: 'never' }] });
    h.runtime.agent.submit({ kind: 'prompt', text: 'x' });
    const [outcome] = await h.runtime.agent.idle();
    expect(outcome.reason).toBe('failed');
    expect(h.client.requests).toHaveLength(2);
  });

  it('fails at once on an auth error, with its message', async () => {
    h = makeEngine({
      responses: [
        { error: new ProviderError('auth', 'The API key was rejected; check JARVIS_MODEL_API_KEY', { status: 401 }) },
        { text: 'no' },
      ],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'x' });
    const [outcome] = await h.runtime.agent.idle();
    expect(outcome.reason).toBe('failed');
    expect(outcome.error).toMatch(/API key was rejected/);
    expect(h.client.requests).toHaveLength(1);
    expect(h.eventsOf('retry')).toHaveLength(0);
  });

  it('does not retry an exhausted quota', async () => {
    h = makeEngine({
      responses: [{ error: new ProviderError('quota', 'insufficient balance', { status: 429 }) }, { text: 'no' }],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'x' });
    const [outcome] = await h.runtime.agent.idle();
    expect(outcome.reason).toBe('failed');
    expect(h.client.requests).toHaveLength(1);
  });
});

describe('[thinking]', () => {
  const base = {
    alias: 'm',
    providerName: 'p',
    providerType: 'openai' as const,
    model: 'm',
    apiKey: 'k',
    maxContextSize: 1000,
    displayName: 'm',
  };
  it('asks for thinking only from models that can think, honours enabled=false and the effort', () => {
    expect(thinkingParams({ ...base, capabilities: [] })).toBeUndefined();
    expect(thinkingParams({ ...base, capabilities: ['thinking'], defaultEffort: 'high' })).toEqual({
      enabled: true,
      effort: 'high',
    });
    expect(thinkingParams({ ...base, capabilities: ['thinking'] }, { enabled: true, effort: 'low' })).toEqual({
      enabled: true,
      effort: 'low',
    });
    expect(thinkingParams({ ...base, capabilities: ['thinking'] }, { enabled: false })).toEqual({ enabled: false });
    // always_thinking models cannot turn it off
    expect(thinkingParams({ ...base, capabilities: ['always_thinking'] }, { enabled: false })).toEqual({
      enabled: true,
      effort: undefined,
    });
  });
});

describe('steering at the end of a step', () => {
  it('a steer that arrives while a text-only answer streams is answered in the same turn', async () => {
    const h = makeEngine({
      responses: [{ text: 'a fairly long first answer', delayMs: 20 }, { text: 'short, as asked' }],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'explain' });
    while (!h.eventsOf('text_delta').length) await new Promise((r) => setTimeout(r, 5));
    h.runtime.agent.submit({ kind: 'steer', text: 'be brief' });
    const outcomes = await h.runtime.agent.idle();
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0].text).toBe('short, as asked');
    expect(h.eventsOf('turn_start')).toHaveLength(1);
    expect(h.client.requests[1].messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'be brief' }],
    });
  });

  it('a steer that opens the next turn (the last one had ended) passes UserPromptSubmit like a prompt', async () => {
    const seen: string[] = [];
    const h = makeEngine({
      responses: [{ text: 'first' }, { text: 'second' }],
      gateHandlers: [
        {
          name: 'prompt-gate',
          onPromptSubmit: (p) => {
            seen.push(p.text);
            return p.text.includes('secret') ? { block: 'no secrets' } : { addContext: 'checked' };
          },
        },
      ],
    });
    await runPrompt(h, 'hello');
    // The turn has ended: this steer has no turn to join, so it opens one and goes through the gate.
    h.runtime.agent.submit({ kind: 'steer', text: 'also this' });
    const [opened] = await h.runtime.agent.idle();
    expect(opened.reason).toBe('completed');
    const content = [
      { type: 'text', text: 'also this' },
      { type: 'text', text: 'checked' },
    ];
    expect(h.client.requests[1].messages.at(-1)).toEqual({ role: 'user', content });
    h.runtime.agent.submit({ kind: 'steer', text: 'my secret' });
    const [blocked] = await h.runtime.agent.idle();
    expect(blocked).toMatchObject({ reason: 'blocked', error: expect.stringContaining('no secrets') });
    expect(seen).toEqual(['hello', 'also this', 'my secret']);
    expect(h.client.requests).toHaveLength(2);
  });
});
