// The bounds on one turn (src/engine/loop/turnLimits.ts), each hit the way it happens: a Stop hook that
// always blocks, a model that repeats a valid call, an empty or thinking-only answer, a tool call cut
// off by the output limit. Each checks what the user was told (notices, the turn's error) and what the
// model was told (the messages of its next request, or the journal).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/llm/types';
import {
  MAX_EMPTY_RESPONSES,
  MAX_REPEATED_CALLS,
  MAX_STOP_CONTINUATIONS_PER_TURN,
  REPEATED_CALL_WARNING_AT,
} from '../../../src/engine/loop/turnLimits';
import { builtinTools } from '../../../src/tools/registry';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

function textOf(m: Message | undefined): string {
  if (!m) return '';
  if (m.role === 'assistant') return m.text;
  return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

describe('Stop-hook continuations', () => {
  const CAP = MAX_STOP_CONTINUATIONS_PER_TURN;
  it(`a Stop hook that always blocks continues the turn ${CAP} times, then the turn ends`, async () => {
    let stops = 0;
    const h = makeEngine({
      responses: () => ({ text: 'all done' }),
      gateHandlers: [{ name: 'always-block', beforeStop: () => (stops++, { continueWith: 'Run the tests first.' }) }],
    });
    const outcome = await runPrompt(h, 'go');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'all done' });
    expect(h.client.requests).toHaveLength(MAX_STOP_CONTINUATIONS_PER_TURN + 1);
    expect(stops).toBe(MAX_STOP_CONTINUATIONS_PER_TURN + 1);
    // The model was told at the last continuation that it was the last one.
    const last = h.client.requests.at(-1)!.messages.at(-1);
    expect(textOf(last)).toContain(`the last time a Stop hook can continue this turn (${CAP} of ${CAP})`);
    expect(textOf(h.client.requests[1].messages.at(-1))).toBe('Run the tests first.');
    // The user was told why the turn ended although the hook still blocked.
    const warnings = h.eventsOf('notice').map((n) => n.text);
    expect(warnings).toContainEqual(expect.stringContaining(`after ${CAP} continuations, the most one turn allows`));
    // The cap is per turn: the next turn may be continued again.
    const before = h.client.requests.length;
    await runPrompt(h, 'again');
    expect(h.client.requests.length - before).toBe(MAX_STOP_CONTINUATIONS_PER_TURN + 1);
  });
});

describe('identical valid calls', () => {
  const same = { toolCalls: [{ name: 'Peek', arguments: { key: 'a', ms: 0 } }] };

  const [WARN, STOP] = [REPEATED_CALL_WARNING_AT, MAX_REPEATED_CALLS];
  it(`warns the model from identical call ${WARN} and ends the turn at ${STOP}`, async () => {
    const h = makeEngine({ responses: () => same });
    const outcome = await runPrompt(h, 'read a');
    expect(outcome.reason).toBe('failed');
    expect(outcome.error).toMatch(/same Peek call \(same arguments, same result\) 5 times in a row; the turn was stop/);
    expect(h.client.requests).toHaveLength(MAX_REPEATED_CALLS);
    const results = h.runtime.session.state.messages.filter((m) => m.role === 'tool').map(textOf);
    expect(results.slice(0, REPEATED_CALL_WARNING_AT - 1).every((t) => t === 'value of a')).toBe(true);
    const warned = /^value of a\n\n\[Warning: this is call number 3 in a row of exactly this Peek call/;
    expect(results[REPEATED_CALL_WARNING_AT - 1]).toMatch(warned);
    expect(results[STOP - 1]).toMatch(/\[The model made the same Peek call .* 5 times in a row; the turn was/);
    const notices = h.eventsOf('notice');
    expect(notices.filter((n) => n.level === 'warning').map((n) => n.text)).toEqual([
      expect.stringContaining('same Peek call 3 times in a row'),
      expect.stringContaining('same Peek call 4 times in a row'),
    ]);
    expect(notices.at(-1)).toMatchObject({ level: 'error', text: outcome.error });
  });

  it('a call whose result changes, or a different call in between, is not a loop', async () => {
    const other = { toolCalls: [{ name: 'Peek', arguments: { key: 'b', ms: 0 } }] };
    const script = [same, same, other, same, same, other, same, same, { text: 'done' }];
    const h = makeEngine({ responses: script });
    const outcome = await runPrompt(h, 'read');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'done' });
    expect(h.eventsOf('notice')).toEqual([]);
  });
});

describe('identical calls inside one response', () => {
  it('run once; each other one is answered as a duplicate of the first, with its result, and no limit fires', async () => {
    const calls = Array.from({ length: 20 }, (_, i) => ({ id: `c${i}`, name: 'Peek', arguments: { key: 'a', ms: 0 } }));
    const h = makeEngine({ responses: [{ toolCalls: calls }, { text: 'read it' }] });
    const outcome = await runPrompt(h, 'read a, a lot');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'read it' });
    expect(h.eventsOf('notice')).toEqual([]);
    const results = h.runtime.session.state.messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => (m.role === 'tool' ? m.toolCallId : ''))).toEqual(calls.map((c) => c.id));
    expect(textOf(results[0])).toBe('value of a');
    for (const r of results.slice(1)) {
      expect(textOf(r)).toMatch(
        /^Duplicate of call c0 in this same response \(same Peek call, same arguments\): it was not run again\./,
      );
      expect(textOf(r)).toMatch(/value of a$/);
    }
    // The tool ran once, and every call got a result event (front ends close each card).
    expect(h.eventsOf('tool_result')).toHaveLength(20);
    expect(h.client.requests[1].messages.filter((m) => m.role === 'tool')).toHaveLength(20);
  });

  it('identical arguments written differently (spacing, key order) are the same call; other calls still run', async () => {
    const h = makeEngine({
      responses: [
        {
          toolCalls: [
            { id: 'x', name: 'Peek', arguments: '{"key":"a","ms":0}' },
            { id: 'y', name: 'Peek', arguments: '{ "ms": 0, "key": "a" }' },
            { id: 'z', name: 'Peek', arguments: { key: 'b', ms: 0 } },
          ],
        },
        { text: 'done' },
      ],
    });
    await runPrompt(h, 'go');
    const results = h.runtime.session.state.messages.filter((m) => m.role === 'tool').map(textOf);
    expect(results[0]).toBe('value of a');
    expect(results[1]).toMatch(/^Duplicate of call x .*value of a$/s);
    expect(results[2]).toBe('value of b');
  });

  it('a response of duplicates counts once towards the repeat limit across steps', async () => {
    const fan = { toolCalls: [1, 2, 3].map(() => ({ name: 'Peek', arguments: { key: 'a', ms: 0 } })) };
    const h = makeEngine({ responses: [fan, fan, { text: 'done' }] });
    const outcome = await runPrompt(h, 'go');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'done' });
    expect(h.eventsOf('notice')).toEqual([]);
  });
});

describe('inside a subagent', () => {
  it('a subagent that repeats one call is stopped, and its caller gets control back (no timeout needed)', async () => {
    const h = makeEngine({
      tools: builtinTools(),
      mode: 'yolo',
      responses: (req) => {
        const read = { name: 'Read', arguments: { path: 'notes.txt' } };
        if (/# Your role: subagent/.test(req.system)) return { toolCalls: [read] };
        if (req.messages.some((m) => m.role === 'tool')) return { text: 'the subagent got stuck' };
        const delegate = { description: 'read', prompt: 'read notes.txt', subagent_type: 'coder' };
        return { toolCalls: [{ name: 'Agent', arguments: delegate }] };
      },
    });
    writeFileSync(join(h.cwd, 'notes.txt'), 'same every time\n');
    const outcome = await runPrompt(h, 'delegate');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'the subagent got stuck' });
    const agentResult = h.eventsOf('tool_result').find((r) => r.toolName === 'Agent')!;
    expect(agentResult.text).toMatch(/same Read call \(same arguments, same result\) 5 times in a row; the turn was/);
  });
});

describe('the default step ceiling', () => {
  it('stops at max_steps_per_turn and tells the model', async () => {
    let i = 0;
    const next = () => ({ toolCalls: [{ name: 'Peek', arguments: { key: `k${i++}`, ms: 0 } }] });
    const h = makeEngine({ maxSteps: 3, responses: next });
    const outcome = await runPrompt(h, 'go');
    const error = expect.stringContaining('after 3 steps (loop_control.max_steps_per_turn)');
    expect(outcome).toMatchObject({ reason: 'max_steps', error });
    const last = h.runtime.session.state.messages.at(-1);
    expect(textOf(last)).toMatch(/<system-reminder>\nThis turn was stopped after 3 steps/);
  });
});

describe('empty answers', () => {
  for (const [what, response] of [
    ['empty', {}],
    ['thinking only', { thinking: 'let me think' }],
  ] as const) {
    it(`an answer with ${what} is asked again, with a note to the model and a notice to the user`, async () => {
      const h = makeEngine({ responses: [response, { text: 'Here it is.' }] });
      const outcome = await runPrompt(h, 'answer me');
      expect(outcome).toMatchObject({ reason: 'completed', text: 'Here it is.' });
      expect(h.client.requests).toHaveLength(2);
      expect(textOf(h.client.requests[1].messages.at(-1))).toMatch(/Your last response was .*no text and no tool call/);
      expect(h.client.requests[1].messages.filter((m) => m.role === 'assistant')).toEqual([]);
      const text = expect.stringContaining('asking it again (1 of 3)');
      const again = expect.objectContaining({ level: 'warning', text });
      expect(h.eventsOf('notice')).toEqual([again]);
    });
  }

  it(`${MAX_EMPTY_RESPONSES} empty answers in a row fail the turn with a message`, async () => {
    const h = makeEngine({ responses: () => ({ thinking: 'hmm' }) });
    const outcome = await runPrompt(h, 'answer me');
    expect(outcome.reason).toBe('failed');
    expect(outcome.error).toMatch(/only thinking \(no text and no tool call\) 3 times in a row; the turn failed/);
    expect(h.client.requests).toHaveLength(MAX_EMPTY_RESPONSES);
    expect(h.eventsOf('notice').at(-1)).toMatchObject({ level: 'error', text: outcome.error });
  });
});

describe('a tool call cut off by the output limit', () => {
  it('is not run and the model is told it hit the limit, not that its JSON is bad', async () => {
    const h = makeEngine({
      responses: [
        {
          finish: 'length',
          toolCalls: [
            { name: 'Poke', arguments: { key: 'ok', ms: 0 } },
            { name: 'Poke', arguments: '{"key": "big", "ms"' },
          ],
        },
        { text: 'resent' },
      ],
    });
    const outcome = await runPrompt(h, 'write');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'resent' });
    const results = h.client.requests[1].messages.filter((m) => m.role === 'tool').map(textOf);
    expect(results[0]).toMatch(/^Not run: your response hit the output token limit, so it was cut off after this call/);
    expect(results[1]).toMatch(/^Not run: your response hit the output token limit while the arguments of this Poke/);
    expect(results.join('\n')).not.toMatch(/not valid JSON/);
    // Neither call ran: the complete one was part of a cut-off response.
    expect(h.eventsOf('tool_result')).toEqual([]);
    const cut = expect.objectContaining({ level: 'warning', text: expect.stringContaining('hit its output token') });
    expect(h.eventsOf('notice')).toEqual([cut]);
  });
});
