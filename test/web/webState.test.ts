// The web UI's event reducer (web/src/state/, docs/web.md "Structure"): streamed pieces gathered per message and
// replaced by the finished message, a retry discarding what streamed, replayed events applied once, approvals
// answered elsewhere named, and the snapshot's messages paired with their tool results.
import { describe, expect, it } from 'vitest';
import { emptyLive } from '../../web/src/state/live';
import { attachmentTag } from '../../src/engine/context/attachmentTags';
import { itemsFromSnapshot } from '../../web/src/state/messages';
import { applyEvent } from '../../web/src/state/sessionEvents';
import type { ServerEvent, SessionView } from '../../web/src/state/types';

const base: SessionView = {
  id: 'S',
  items: [],
  approvals: [],
  questions: [],
  lastSeq: 0,
  epoch: 'E',
  busy: false,
  live: emptyLive,
};
const ev = (type: string, seq: number, payload: Record<string, unknown>): ServerEvent => ({
  type,
  seq,
  epoch: 'E',
  session_id: 'S',
  payload,
});
const run = (events: ServerEvent[], view = base) => events.reduce((v, e) => applyEvent(v, e, 'web:me'), view);

describe('web state', () => {
  it('gathers message.delta pieces per message and replaces them with the finished message', () => {
    const streamed = run([
      ev('prompt.queued', 1, { prompt_id: 'p1', text: 'hi' }),
      ev('message.delta', 0, { prompt_id: 'p1', message_id: 'msg_1_1', kind: 'thinking', delta: 'hmm' }),
      ev('message.delta', 0, { prompt_id: 'p1', message_id: 'msg_1_1', kind: 'text', delta: 'Hel' }),
      ev('message.delta', 0, { prompt_id: 'p1', message_id: 'msg_1_1', kind: 'text', delta: 'lo' }),
    ]);
    expect(streamed.items.map((i) => [i.kind, 'text' in i ? i.text : ''])).toEqual([
      ['user', 'hi'],
      ['thinking', 'hmm'],
      ['assistant', 'Hello'],
    ]);
    const done = run([ev('message', 2, { role: 'assistant', content: 'Hello.', message_id: 'msg_1_1' })], streamed);
    expect(done.items.map((i) => [i.kind, 'text' in i ? i.text : ''])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello.'],
    ]);
  });

  it('drops what streamed of a retried response', () => {
    const v = run([
      ev('message.delta', 0, { message_id: 'msg_1_1', kind: 'text', delta: 'half an ans' }),
      ev('message', 1, { type: 'retry', attempt: 1, max_attempts: 3, message_id: 'msg_1_1' }),
    ]);
    expect(v.items.map((i) => i.kind)).toEqual(['notice']);
  });

  it('applies a replayed event once', () => {
    const e = ev('prompt.queued', 5, { prompt_id: 'p', text: 'x' });
    const once = run([e]);
    expect(run([e], once)).toBe(once);
    expect(once.lastSeq).toBe(5);
  });

  it('closes an approval answered by another client and says who', () => {
    const asked = run([ev('event.approval.requested', 1, { approval_id: 'ap_1', tool: 'Write', subject: 'x' })]);
    const byTui = run(
      [ev('event.approval.resolved', 2, { approval_id: 'ap_1', resolution: 'approved', client_id: 'tui' })],
      asked,
    );
    expect(byTui.approvals).toEqual([]);
    expect(byTui.resolvedElsewhere).toBe('Write: approved by the terminal.');
    const byMe = run(
      [ev('event.approval.resolved', 2, { approval_id: 'ap_1', resolution: 'rejected', client_id: 'web:me' })],
      asked,
    );
    expect(byMe.resolvedElsewhere).toBeUndefined();
  });

  it('pairs tool calls of the snapshot with their results', () => {
    const items = itemsFromSnapshot([
      { role: 'user', content: [{ type: 'text', text: 'list' }] },
      { role: 'assistant', text: '', toolCalls: [{ id: 'c1', name: 'Bash', arguments: '{"command":"ls"}' }] },
      { role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text: 'a.txt' }] },
      { role: 'assistant', text: 'One file.' },
    ]);
    expect(items).toEqual([
      { kind: 'user', id: 'm:0', text: 'list' },
      { kind: 'tool', id: 't:c1', name: 'Bash', args: { command: 'ls' }, result: 'a.txt', isError: false },
      { kind: 'assistant', id: 'm:3', text: 'One file.' },
    ]);
  });

  it('shows a history prompt as typed: attachments as chips, a skill by name, injected text not at all', () => {
    const attached = attachmentTag('file', 'src/app.ts', '1 line', '1\texport const MARKER = 1;');
    const items = itemsFromSnapshot([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look at @src/app.ts' },
          { type: 'text', text: attached },
        ],
      },
      { role: 'assistant', text: 'seen' },
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: '<skill name="release-notes" path="/home/me/.jarvis-code/skills/release-notes/SKILL.md">\nWrite notes for 3.1.\n</skill>',
          },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: '<system-reminder>\nPlan mode is off.\n</system-reminder>' }] },
      { role: 'user', content: [{ type: 'text', text: '<compaction-summary>\nEarlier work.\n</compaction-summary>' }] },
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'and now?\n<recalled-memories trust="untrusted">\n- prefers tabs\n</recalled-memories>',
          },
        ],
      },
    ]);
    expect(items.filter((i) => i.kind === 'user').map((i) => i.text)).toEqual([
      'look at @src/app.ts\n[@src/app.ts 1 line]',
      '[skill release-notes]',
      'and now?',
    ]);
  });

  it('keeps the to-do list, the goal and the subagents from their events', () => {
    const started = {
      subagent_id: 'a1',
      parent_agent_id: 'main',
      parent_call_id: 'c1',
      via: 'AgentSwarm',
      agent_name: 'coder',
      description: 'item x',
      status: 'running',
      started_at: 'now',
      activity: null,
      elapsed_ms: null,
      error: null,
      response: null,
      prompt: 'Handle x.',
    };
    const view = run([
      ev('session.todos_changed', 1, { todos: [{ title: 'Read', status: 'done' }] }),
      ev('session.goal_changed', 2, { change: 'created', goal: { goal_id: 'g', objective: 'Ship', status: 'active' } }),
      ev('subagent.started', 3, started),
      ev('subagent.progress', 4, { subagent_id: 'a1', parent_call_id: 'c1', activity: 'Glob *.md' }),
    ]);
    expect(view.live.todos).toEqual([{ title: 'Read', status: 'done' }]);
    expect(view.live.goal).toMatchObject({ objective: 'Ship' });
    expect(view.live.subagents[0]).toMatchObject({ status: 'running', activity: 'Glob *.md' });
    const done = run(
      [ev('subagent.finished', 5, { subagent_id: 'a1', parent_call_id: 'c1', status: 'completed', elapsed_ms: 900 })],
      view,
    );
    expect(done.live.subagents[0]).toMatchObject({ status: 'completed', activity: null, elapsed_ms: 900 });
    // Replayed (seq already applied): nothing changes.
    expect(run([ev('session.todos_changed', 1, { todos: [] })], done).live.todos).toHaveLength(1);
  });
});
