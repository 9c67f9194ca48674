import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SessionState } from '../../../src/engine/session/records';
import { listUndoTargets, undo, UndoError } from '../../../src/engine/session/undo';
import type { Message } from '../../../src/llm/types';
import { makeEngine, type EngineHarness, verifyEnginesAfterEach, runPrompt } from '../../helpers/engineHarness';

let h: EngineHarness | undefined;
verifyEnginesAfterEach();

const textOf = (m: Message) =>
  m.role === 'assistant' ? m.text : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
const prompt = runPrompt;
/** The state without what undo deliberately keeps (cost totals, the file history: files stay as they are). */
function conversation(state: SessionState) {
  const { usage: _usage, fileHistory: _files, ...rest } = structuredClone(state);
  return rest;
}

describe('undo', () => {
  it('withdraws the last prompts with their messages, todos and plan state; a later prompt continues from there', async () => {
    h = makeEngine({
      mode: 'yolo',
      responses: [
        { text: 'a1' },
        { toolCalls: [{ id: 'c1', name: 'Peek', arguments: { key: 'k', ms: 0 } }] },
        { text: 'a2' },
        { text: 'a3' },
        { text: 'a4' },
      ],
    });
    const s = h.runtime.session;
    await prompt(h, 'p1');
    s.commit({ type: 'todos', todos: [{ title: 'first', status: 'pending' }] });
    const afterFirst = conversation(s.state);
    await prompt(h, 'p2');
    s.commit({
      type: 'todos',
      todos: [
        { title: 'first', status: 'done' },
        { title: 'second', status: 'pending' },
      ],
    });
    s.commit({ type: 'plan_mode', active: true, planPath: '/tmp/plan.md' });
    s.commit({ type: 'title', title: 'kept title' });
    const afterSecond = conversation(s.state);
    await prompt(h, 'p3');

    expect(listUndoTargets(s.state).map((t) => [t.prompt, t.count])).toEqual([
      ['p3', 1],
      ['p2', 2],
      ['p1', 3],
    ]);
    expect(undo(h.runtime, 1)).toEqual({ withdrawn: ['p3'] });
    expect(conversation(s.state)).toEqual(afterSecond);

    expect(undo(h.runtime, 1)).toEqual({ withdrawn: ['p2'] });
    expect(conversation(s.state)).toEqual({ ...afterFirst, title: 'kept title' });
    expect(s.state.todos).toEqual([{ title: 'first', status: 'pending' }]);
    expect(s.state.planMode).toEqual({ active: false });
    expect(s.state.lastPrompt).toBe('p1');
    expect(s.state.usage.inputTokens).toBe(400); // what was spent stays spent

    await prompt(h, 'p4');
    expect(h.client.requests.at(-1)!.messages.map(textOf)).toEqual(['p1', 'a1', 'p4']);
    // The journal keeps the withdrawn turns; only the state forgets them.
    const journal = readFileSync(s.journalPath, 'utf8');
    expect(journal).toContain('"p3"');
    expect(journal.match(/"type":"undo"/g)).toHaveLength(2);

    // Resume: the same state, and the next request carries the same conversation.
    h.expectReplayIdentical();
    await h.runtime.close({ force: true });
    h = makeEngine({ responses: [{ text: 'a5' }], resume: s.location, dirs: { home: h.home, cwd: h.cwd } });
    expect(conversation(h.runtime.session.state)).toEqual(conversation(s.state));
    await prompt(h, 'p5');
    expect(h.client.requests[0].messages.map(textOf)).toEqual(['p1', 'a1', 'p4', 'a4', 'p5']);
  });

  it('undoing several prompts at once also withdraws notifications in between', async () => {
    h = makeEngine({ responses: [{ text: 'a1' }, { text: 'seen' }, { text: 'a2' }, { text: 'again' }] });
    await prompt(h, 'p1');
    h.runtime.agent.submit({ kind: 'notification', text: 'task done' });
    await h.runtime.agent.idle();
    await prompt(h, 'p2');
    expect(listUndoTargets(h.runtime.session.state)).toHaveLength(2);
    expect(undo(h.runtime, 2).withdrawn).toEqual(['p1', 'p2']);
    expect(h.runtime.session.state.messages).toEqual([]);
    expect(h.runtime.session.state.turns).toBe(0);
    await prompt(h, 'fresh');
    expect(h.client.requests.at(-1)!.messages.map(textOf)).toEqual(['fresh']);
  });

  it('cannot cross a compaction', async () => {
    h = makeEngine({ responses: [{ text: 'a1' }, { text: 'a2' }, { text: 'note' }, { text: 'a3' }] });
    await prompt(h, 'p1');
    await prompt(h, 'p2');
    await h.runtime.compaction.compact();
    expect(listUndoTargets(h.runtime.session.state)).toEqual([]);
    expect(() => undo(h!.runtime, 1)).toThrow(/Cannot undo past the last compaction: only 0 prompts/);
    await prompt(h, 'p3');
    expect(() => undo(h!.runtime, 2)).toThrow(/past the last compaction: only 1 prompt since/);
    const before = h.runtime.session.state.messages.length;
    undo(h.runtime, 1);
    expect(h.runtime.session.state.messages.length).toBe(before - 2);
    expect(textOf(h.runtime.session.state.messages[0])).toContain('<compaction-summary>');
  });

  it('refuses while a turn runs, a bad count, and an empty session', async () => {
    h = makeEngine({ responses: [{ text: 'slow', delayMs: 30 }] });
    expect(() => undo(h!.runtime, 1)).toThrow(/no prompt to withdraw/);
    h.runtime.agent.submit({ kind: 'prompt', text: 'go' });
    expect(() => undo(h!.runtime, 1)).toThrow(UndoError);
    await h.runtime.agent.idle();
    expect(() => undo(h!.runtime, 0)).toThrow(/whole number/);
    expect(() => undo(h!.runtime, 2)).toThrow(/Only 1 prompt can be withdrawn/);
  });
});
