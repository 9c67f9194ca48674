import { describe, expect, it } from 'vitest';
import type { GateHandler, ToolCallFacts } from '../../../src/engine/extensions/extensionGate';
import { makeEngine, runPrompt, testTools, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const pokeA = { toolCalls: [{ name: 'Poke', arguments: { key: 'a', ms: 0 } }] };

function log(): { calls: string[]; handler(extra?: Partial<GateHandler>): GateHandler } {
  const calls: string[] = [];
  return {
    calls,
    handler: (extra = {}) => ({
      name: 'recorder',
      onSessionStart: (f) => void calls.push(`start:${f.source}`),
      onSessionEnd: (f) => void calls.push(`end:${f.reason}`),
      onPromptSubmit: (p) => void calls.push(`prompt:${p.text}${p.isSteer ? ' (steer)' : ''}`),
      beforeToolCall: (c) => void calls.push(`before:${c.subject}`),
      afterToolCall: (c, o) => void calls.push(`after:${c.toolName}:${o.isError ? 'error' : 'ok'}:${o.text}`),
      beforeStop: (f) => void calls.push(`stop:${f.text}`),
      beforeCompaction: (f) => void calls.push(`precompact:${f.trigger}`),
      afterCompaction: (f) => void calls.push(`postcompact:${f.trigger}${f.error ? ':failed' : ''}`),
      ...extra,
    }),
  };
}

describe('the extension gate around tool calls', () => {
  it('sees each call before approval and its result after, with the session and agent named', async () => {
    const r = log();
    const contexts: string[] = [];
    const h = makeEngine({
      tools: testTools(),
      mode: 'yolo',
      gateHandlers: [
        r.handler({ beforeToolCall: (c, ctx) => void contexts.push(`${ctx.sessionId}/${ctx.agentId}/${c.toolName}`) }),
      ],
      responses: [pokeA, { text: 'done' }],
    });
    await runPrompt(h, 'go');
    await h.runtime.close({ force: true });
    expect(r.calls).toEqual(['start:startup', 'prompt:go', `after:Poke:ok:wrote a`, 'stop:done', 'end:exit']);
    expect(contexts).toEqual([`${h.runtime.session.id}/main/Poke`]);
  });

  it('a block stops the call before any approval question; the model reads the reason', async () => {
    const h = makeEngine({
      tools: testTools(),
      answer: () => ({ decision: 'approve' }),
      gateHandlers: [
        {
          name: 'guard',
          beforeToolCall: (c) =>
            c.toolName === 'Poke' ? { block: 'writes are frozen during the release' } : undefined,
        },
      ],
      responses: [pokeA, { text: 'ok' }],
    });
    await runPrompt(h, 'write a');
    expect(h.approvals).toEqual([]);
    const result = h.eventsOf('tool_result')[0];
    expect(result.isError).toBe(true);
    expect(result.text).toBe(`Write(${h.cwd}/a) was blocked before it ran: writes are frozen during the release`);
    expect(h.client.requests[1].messages.at(-1)).toMatchObject({ role: 'tool', isError: true });
  });

  it('rewrites the approval decision: allow skips the question, ask asks even in yolo, deny refuses', async () => {
    const answer = (decision: 'allow' | 'ask' | 'deny'): GateHandler => ({
      name: `hook-${decision}`,
      beforeToolCall: () => ({ approval: decision, reason: 'policy from hook' }),
    });
    const allow = makeEngine({
      tools: testTools(),
      answer: () => ({ decision: 'reject' }),
      gateHandlers: [answer('allow')],
      responses: [pokeA, { text: 'ok' }],
    });
    await runPrompt(allow, 'x');
    expect(allow.approvals).toEqual([]);
    expect(allow.eventsOf('approval_decision')[0]).toMatchObject({ decision: 'allow', by: 'hook-allow' });

    const ask = makeEngine({
      tools: testTools(),
      mode: 'yolo',
      answer: () => ({ decision: 'approve' }),
      gateHandlers: [answer('ask')],
      responses: [pokeA, { text: 'ok' }],
    });
    await runPrompt(ask, 'x');
    expect(ask.approvals.map((a) => a.reason)).toEqual(['policy from hook']);

    const deny = makeEngine({
      tools: testTools(),
      mode: 'yolo',
      gateHandlers: [answer('deny')],
      responses: [pokeA, { text: 'ok' }],
    });
    await runPrompt(deny, 'x');
    expect(deny.eventsOf('tool_result')[0].text).toBe(
      `Write(${deny.cwd}/a) is denied by hook-deny (policy from hook). Do not retry it; find another way or ask the user.`,
    );
  });

  it("a deny rule outranks an extension's allow; of several answers the strictest wins and every block is reported", async () => {
    const ruled = makeEngine({
      tools: testTools(),
      rules: [{ decision: 'deny', pattern: 'Write' }],
      gateHandlers: [{ name: 'lenient', beforeToolCall: () => ({ approval: 'allow' }) }],
      responses: [pokeA, { text: 'ok' }],
    });
    await runPrompt(ruled, 'x');
    expect(ruled.eventsOf('tool_result')[0].text).toMatch(/is denied by a permission rule \(rule deny Write\)/);

    const merged = makeEngine({
      tools: testTools(),
      mode: 'yolo',
      answer: () => ({ decision: 'approve' }),
      gateHandlers: [
        { name: 'a', beforeToolCall: () => ({ approval: 'allow' }) },
        { name: 'b', beforeToolCall: () => ({ approval: 'ask', reason: 'b wants a human' }) },
      ],
      responses: [pokeA, { text: 'ok' }],
    });
    await runPrompt(merged, 'x');
    expect(merged.approvals.map((a) => a.reason)).toEqual(['b wants a human']);

    const twoBlocks = makeEngine({
      tools: testTools(),
      mode: 'yolo',
      gateHandlers: [
        { name: 'a', beforeToolCall: async () => ({ block: 'first reason' }) },
        { name: 'b', beforeToolCall: () => ({ approval: 'allow' }) },
        { name: 'c', beforeToolCall: () => ({ block: 'second reason' }) },
      ],
      responses: [pokeA, { text: 'ok' }],
    });
    await runPrompt(twoBlocks, 'x');
    expect(twoBlocks.eventsOf('tool_result')[0].text).toMatch(
      /was blocked before it ran: first reason\nsecond reason$/,
    );
  });

  it('a failing handler is reported and ignored (fail-open); the call runs', async () => {
    const seen: ToolCallFacts[] = [];
    const h = makeEngine({
      tools: testTools(),
      mode: 'yolo',
      gateHandlers: [
        { name: 'broken hook', beforeToolCall: () => Promise.reject(new Error('exit 127')) },
        { name: 'watcher', afterToolCall: (c) => void seen.push(c) },
      ],
      responses: [pokeA, { text: 'ok' }],
    });
    await runPrompt(h, 'x');
    expect(h.eventsOf('tool_result')[0]).toMatchObject({ isError: false, text: 'wrote a' });
    expect(h.eventsOf('notice').map((n) => n.text)).toContain(
      'broken hook failed at beforeToolCall: exit 127 (ignored)',
    );
    expect(seen.map((c) => [c.toolName, c.subject, c.readOnly])).toEqual([['Poke', `Write(${h.cwd}/a)`, false]]);
  });
});

describe('the extension gate around prompts and turn ends', () => {
  it('a blocked prompt never reaches the model; the turn ends "blocked" with the reason', async () => {
    const h = makeEngine({
      tools: testTools(),
      gateHandlers: [
        {
          name: 'secrets',
          onPromptSubmit: (p) => (p.text.includes('sk-') ? { block: 'the prompt contains an API key' } : undefined),
        },
      ],
      responses: [{ text: 'second answer' }],
    });
    const outcome = await runPrompt(h, 'use sk-123');
    expect(outcome).toMatchObject({
      reason: 'blocked',
      error: 'The prompt was blocked before it reached the model: the prompt contains an API key',
    });
    expect(h.client.requests).toHaveLength(0);
    await runPrompt(h, 'hello');
    expect(h.client.requests[0].messages.map((m) => m.role)).toEqual(['user']);
    expect(JSON.stringify(h.client.requests[0].messages)).not.toContain('sk-123');
  });

  it('added context travels with the prompt; a blocked steer is dropped with a notice', async () => {
    const h = makeEngine({
      tools: testTools(),
      mode: 'yolo',
      gateHandlers: [
        {
          name: 'ctx',
          onPromptSubmit: (p) => (p.isSteer ? { block: 'no steering today' } : { addContext: 'Branch: main' }),
        },
      ],
      responses: (_req, i) => {
        if (i === 0) {
          h.runtime.agent.submit({ kind: 'steer', text: 'also do b' });
          return pokeA;
        }
        return { text: 'done' };
      },
    });
    await runPrompt(h, 'do a');
    expect(h.client.requests[0].messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'do a' },
        { type: 'text', text: 'Branch: main' },
      ],
    });
    expect(JSON.stringify(h.client.requests[1].messages)).not.toContain('also do b');
    expect(h.eventsOf('notice').map((n) => n.text)).toContain(
      'Your message was blocked before it reached the model: no steering today',
    );
  });

  it('a stop handler keeps the turn going once with its text; it is told that the turn already continued', async () => {
    const seen: boolean[] = [];
    const h = makeEngine({
      tools: testTools(),
      gateHandlers: [
        {
          name: 'tests-must-pass',
          beforeStop: (f) => (
            seen.push(f.continued),
            f.continued ? undefined : { continueWith: 'Run the tests before you stop.' }
          ),
        },
      ],
      responses: [{ text: 'finished' }, { text: 'tests pass' }],
    });
    const outcome = await runPrompt(h, 'fix it');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'tests pass' });
    expect(seen).toEqual([false, true]);
    expect(h.client.requests[1].messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Run the tests before you stop.' }],
    });
  });

  it('sees compaction before and after, and session start as "resume" on a resumed session', async () => {
    const r = log();
    const h = makeEngine({
      tools: testTools(),
      gateHandlers: [r.handler()],
      responses: [{ text: 'one' }, { text: 'two' }, { text: 'summary of the work' }],
    });
    await runPrompt(h, 'first');
    await runPrompt(h, 'second');
    await h.runtime.compaction.compact();
    expect(r.calls.filter((c) => c.includes('compact'))).toEqual(['precompact:manual', 'postcompact:manual']);
    await h.runtime.close({ force: true });
    const again = log();
    makeEngine({
      tools: testTools(),
      resume: h.runtime.session.location,
      dirs: { home: h.home, cwd: h.cwd },
      gateHandlers: [again.handler()],
      responses: [],
    });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(again.calls).toEqual(['start:resume']);
  });

  it('observers see every event; a handler registered later takes part from then on and can be removed', async () => {
    const types: string[] = [];
    const h = makeEngine({ tools: testTools(), responses: [{ text: 'a' }, { text: 'b' }] });
    const off = h.runtime.gate.register({ name: 'watch', observe: (e) => void types.push(e.type) });
    await runPrompt(h, 'one');
    off();
    await runPrompt(h, 'two');
    expect(types).toEqual(['turn_start', 'step_start', 'text_delta', 'usage', 'assistant_message', 'turn_end']);
  });
});
