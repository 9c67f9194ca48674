// A failure while deciding an approval is not an interrupt (issue 39 item 14): a front end's approval
// dialog that throws, or a constraint that throws, leaves the call unrun, and both the user (an error
// notice) and the model (the call's result) are told what failed; the turn goes on.
import { describe, expect, it } from 'vitest';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const poke = { toolCalls: [{ id: 'c1', name: 'Poke', arguments: { key: 'a', ms: 0 } }] };

function resultOf(h: ReturnType<typeof makeEngine>, id: string): string {
  const m = h.runtime.session.state.messages.find((x) => x.role === 'tool' && x.toolCallId === id);
  return m && m.role === 'tool' ? m.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
}

describe('a failure while deciding an approval', () => {
  it('a front end whose approval dialog throws: the call is not run, the model and the user hear why', async () => {
    const h = makeEngine({
      mode: 'manual',
      answer: () => {
        throw new Error('the approval dialog could not be drawn');
      },
      responses: [poke, { text: 'I could not write it.' }],
    });
    const outcome = await runPrompt(h, 'write a');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'I could not write it.' });
    const text = resultOf(h, 'c1');
    expect(text).toMatch(/^Not run: deciding whether Write\(.*\/a\) may run failed \(the approval dialog could not be/);
    expect(text).not.toMatch(/interrupted/);
    expect(h.eventsOf('tool_result')[0]).toMatchObject({ isError: true });
    expect(h.eventsOf('notice')).toEqual([
      expect.objectContaining({ level: 'error', text: expect.stringContaining('the approval dialog could not') }),
    ]);
  });

  it('a constraint that throws is reported the same way, and the next call is judged anew', async () => {
    let calls = 0;
    const h = makeEngine({
      mode: 'yolo',
      extensions: [
        {
          checkToolCall: () => {
            if (calls++ === 0) throw new Error('budget table is corrupt');
            return undefined;
          },
        },
      ],
      responses: [poke, { toolCalls: [{ id: 'c2', name: 'Poke', arguments: { key: 'a', ms: 0 } }] }, { text: 'done' }],
    });
    const outcome = await runPrompt(h, 'write a');
    expect(outcome.reason).toBe('completed');
    expect(resultOf(h, 'c1')).toContain('failed (budget table is corrupt)');
    expect(resultOf(h, 'c2')).toBe('wrote a');
  });
});
