import { appendFileSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../../src/engine/session/session';
import { makeEngine, type EngineHarness } from '../../helpers/engineHarness';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.runtime.close({ force: true });
  h = undefined;
});

describe('session journal and resume', () => {
  it('resume replays the journal into the same state and keeps the recorded system prompt', async () => {
    h = makeEngine({
      mode: 'yolo',
      responses: [{ toolCalls: [{ name: 'Peek', arguments: { key: 'a', ms: 0 } }] }, { text: 'one' }, { text: 'two' }],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'first' });
    h.runtime.agent.submit({ kind: 'prompt', text: 'second' });
    await h.runtime.agent.idle();
    const reopened = Session.open(h.runtime.session.location);
    expect(reopened.state).toEqual(h.runtime.session.state);
    expect(reopened.state.systemPrompt).toBe(h.client.requests[0].system);
    expect(reopened.state.turns).toBe(2);
    expect(Session.findLatest(h.home, h.cwd)?.sessionId).toBe(h.runtime.session.id);
    expect(Session.findById(h.home, h.runtime.session.id.slice(0, 12), h.cwd)?.sessionId).toBe(h.runtime.session.id);
  });

  it('repairs a session whose process died after a tool call was recorded but before its result', async () => {
    h = makeEngine({ responses: [{ text: 'ok' }] });
    const s = h.runtime.session;
    // What a kill -9 between the model's tool call and its result leaves behind:
    s.commit({ type: 'turn_start', turnId: 't_x', origin: 'user', prompt: 'do it' });
    s.commit({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'do it' }] } });
    s.commit({
      type: 'message',
      message: {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'c1', name: 'Bash', arguments: '{"command":"sleep 100"}' }],
      },
    });
    appendFileSync(s.journalPath, '{"v":1,"ts":1,"type":"message","message":{"role":"to');
    const resumed = Session.open(s.location);
    expect(resumed.warnings.join('\n')).toMatch(/cut off/);
    expect(resumed.warnings.join('\n')).toMatch(/stopped in the middle of a turn/);
    const last = resumed.state.messages.at(-1)!;
    expect(last).toMatchObject({ role: 'tool', toolCallId: 'c1', isError: true });
    expect(resumed.state.openTurn).toBeUndefined();
    // The repair is itself journalled: opening again gives the same state without new records.
    const lines = readFileSync(s.journalPath, 'utf8').trim().split('\n').length;
    const again = Session.open(s.location);
    expect(again.state).toEqual(resumed.state);
    expect(readFileSync(s.journalPath, 'utf8').trim().split('\n').length).toBe(lines);
  });
});
