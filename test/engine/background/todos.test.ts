import { describe, expect, it } from 'vitest';
import { Session } from '../../../src/engine/session/session';
import { todoTools } from '../../../src/tools/todo';
import { makeEngine, type EngineHarness, verifyEnginesAfterEach } from '../../helpers/engineHarness';

let h: EngineHarness | undefined;
verifyEnginesAfterEach();

const list = [
  { title: 'Read the parser', status: 'done' },
  { title: 'Fix the bug', status: 'in_progress' },
  { title: 'Run the tests', status: 'pending' },
];

describe('todo list in the session', () => {
  it('is journalled, emitted as a todos event, read back, and cleared with []', async () => {
    h = makeEngine({
      tools: todoTools,
      responses: [
        { toolCalls: [{ name: 'TodoList', arguments: { todos: list } }] },
        { toolCalls: [{ name: 'TodoList', arguments: {} }] },
        { text: 'working' },
        { toolCalls: [{ name: 'TodoList', arguments: { todos: [] } }] },
        { text: 'cleared' },
      ],
    });
    h.runtime.agent.submit({ kind: 'prompt', text: 'fix it' });
    await h.runtime.agent.idle();
    expect(h.runtime.session.state.todos).toEqual(list);
    expect(h.runtime.todos.list()).toEqual(list);
    const [, read] = h.eventsOf('tool_result');
    expect(read.text).toContain('- [~] Fix the bug');
    expect(h.eventsOf('todos')).toEqual([{ type: 'todos', todos: list, agentId: 'main' }]);
    // Resume rebuilds the list from the journal.
    expect(Session.open(h.runtime.session.location).state.todos).toEqual(list);

    h.runtime.agent.submit({ kind: 'prompt', text: 'clear it' });
    await h.runtime.agent.idle();
    expect(h.runtime.session.state.todos).toEqual([]);
    expect(h.eventsOf('todos').at(-1)).toEqual({ type: 'todos', todos: [], agentId: 'main' });
  });

  it('the live state is not shared with what a caller passed in', () => {
    h = makeEngine({ tools: todoTools, responses: [] });
    const mine = [{ title: 'a', status: 'pending' as const }];
    h.runtime.todos.set(mine);
    mine[0].title = 'changed';
    expect(h.runtime.session.state.todos).toEqual([{ title: 'a', status: 'pending' }]);
  });
});
