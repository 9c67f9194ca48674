import { describe, expect, it } from 'vitest';
import { formatTodos, TODO_SERVICE, todoListTool, type TodoItem } from '../../../src/tools/todo';
import { makeToolHarness } from '../../helpers/toolHarness';

function setup(initial: TodoItem[] = []) {
  const harness = makeToolHarness();
  let list = initial;
  const sets: TodoItem[][] = [];
  harness.register(TODO_SERVICE, {
    list: () => list,
    set: (t) => {
      sets.push(t);
      list = t;
    },
  });
  return { harness, sets, list: () => list };
}

describe('TodoList', () => {
  it('omitted todos returns the current list without changing it', async () => {
    const { harness, sets } = setup([
      { title: 'write tests', status: 'in_progress' },
      { title: 'ship', status: 'pending' },
    ]);
    const r = await harness.run(todoListTool, {});
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('- [~] write tests');
    expect(r.text).toContain('- [ ] ship');
    expect(sets).toEqual([]);
  });

  it('an empty list returns a clear "empty" message', async () => {
    const { harness } = setup();
    expect((await harness.run(todoListTool, {})).text).toBe('The todo list is empty.');
  });

  it('a list replaces the previous one', async () => {
    const { harness, list } = setup([{ title: 'old', status: 'pending' }]);
    const todos = [
      { title: 'a', status: 'done' },
      { title: 'b', status: 'in_progress' },
      { title: 'c', status: 'pending' },
    ];
    const r = await harness.run(todoListTool, { todos });
    expect(r.isError).toBeFalsy();
    expect(list()).toEqual(todos);
    expect(r.text).toContain('3 items: 1 done, 1 in progress, 1 pending');
    expect(r.text).toContain('- [x] a');
  });

  it('[] clears the list', async () => {
    const { harness, list } = setup([{ title: 'old', status: 'pending' }]);
    const r = await harness.run(todoListTool, { todos: [] });
    expect(r.text).toBe('The todo list was cleared.');
    expect(list()).toEqual([]);
  });

  it.each(['todo', 'completed', 'DONE', ''])(
    'rejects the status %j (only pending, in_progress, done)',
    async (status) => {
      const { harness, sets } = setup();
      const r = await harness.run(todoListTool, { todos: [{ title: 'x', status }] });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('todos.0.status');
      expect(sets).toEqual([]);
    },
  );

  it('rejects an empty title', async () => {
    const { harness } = setup();
    const r = await harness.run(todoListTool, { todos: [{ title: '  ', status: 'pending' }] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('title must not be empty');
  });

  it('its description stays small', () => {
    expect(todoListTool.renderedDescription.length).toBeLessThanOrEqual(1_200);
  });

  it('formats lists for the model', () => {
    expect(formatTodos([{ title: 'x', status: 'done' }])).toBe(
      'Todo list (1 items: 1 done, 0 in progress, 0 pending):\n- [x] x',
    );
  });
});
