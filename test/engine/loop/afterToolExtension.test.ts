// Work after a tool (docs/extensions.md "After a tool"): a TurnExtension's afterToolCall may replace the result the
// model receives, later extensions see the replacement, and beforeToolRun comes right before the call runs (after
// its approval and after the calls it conflicts with). The loop is the real one, with the scripted model.
import { describe, expect, it } from 'vitest';
import type { TurnExtension } from '../../../src/engine/loop/turnExtension';
import { makeEngine, type EngineHarness, verifyEnginesAfterEach } from '../../helpers/engineHarness';

let h: EngineHarness | undefined;
verifyEnginesAfterEach();

function toolTexts(engine: EngineHarness): string[] {
  return engine.runtime.session.state.messages.flatMap((m) =>
    m.role === 'tool' ? [(m.content[0] as { text: string }).text] : [],
  );
}

describe('after-tool extensions', () => {
  it('replace the result in order; the model, the journal and the front end get the replacement', async () => {
    const seen: string[] = [];
    const order: string[] = [];
    const first: TurnExtension = {
      async beforeToolRun(call) {
        order.push(`before ${call.callId}`);
      },
      async afterToolCall(call, outcome) {
        order.push(`after ${call.callId}`);
        return { result: { ...outcome.result, content: `${outcome.text} [checked]` } };
      },
    };
    const second: TurnExtension = {
      async afterToolCall(_call, outcome) {
        seen.push(outcome.text);
        return undefined;
      },
    };
    h = makeEngine({
      responses: [{ toolCalls: [{ id: 'a', name: 'Peek', arguments: { key: 'x', ms: 1 } }] }, { text: 'done' }],
      extensions: [first, second],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'look' });
    await h.runtime.agent.idle();
    expect(seen).toEqual(['value of x [checked]']);
    expect(order).toEqual(['before a', 'after a']);
    expect(toolTexts(h)).toEqual(['value of x [checked]']);
    const sent = h.client.requests[1].messages.filter((m) => m.role === 'tool');
    expect(sent.map((m) => m.role === 'tool' && m.content[0])).toEqual([
      { type: 'text', text: 'value of x [checked]' },
    ]);
    expect(h.eventsOf('tool_result').map((e) => e.text)).toEqual(['value of x [checked]']);
  });

  it("combines a replacement with another extension's feedback and its reason to end the turn", async () => {
    h = makeEngine({
      responses: [{ toolCalls: [{ id: 'a', name: 'Peek', arguments: { key: 'x', ms: 1 } }] }, { text: 'never asked' }],
      extensions: [
        {
          afterToolCall: async (_call, outcome) => ({
            result: { ...outcome.result, content: `${outcome.text} [checked]` },
          }),
        },
        {
          afterToolCall: async (_call, outcome) => ({
            feedback: `saw: ${outcome.text}`,
            halt: 'a hook ended the turn',
          }),
        },
      ],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'look' });
    await h.runtime.agent.idle();
    expect(toolTexts(h)).toEqual(['value of x [checked]\n\n[hook feedback]\nsaw: value of x [checked]']);
    expect(h.client.requests).toHaveLength(1);
  });

  it('a call refused before it runs reaches neither point', async () => {
    const points: string[] = [];
    h = makeEngine({
      responses: [{ toolCalls: [{ id: 'a', name: 'Peek', arguments: { key: 'x', ms: 1 } }] }, { text: 'done' }],
      extensions: [
        { beforeToolCall: async () => ({ block: 'not now' }) },
        {
          async beforeToolRun(call) {
            points.push(`before ${call.callId}`);
          },
          async afterToolCall(call) {
            points.push(`after ${call.callId}`);
          },
        },
      ],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'look' });
    await h.runtime.agent.idle();
    expect(points).toEqual([]);
    expect(toolTexts(h)[0]).toContain('was blocked before it ran: not now');
  });
});
