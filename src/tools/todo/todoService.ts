// The todo list as the TodoList tool sees it. The engine keeps it in the session journal
// (engine/background/todos.ts), so resume and /undo restore it; tools reach it through `TODO_SERVICE`.
import { serviceKey } from '../defineTool';

export const TODO_STATUSES = ['pending', 'in_progress', 'done'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export interface TodoItem {
  title: string;
  status: TodoStatus;
}

export interface TodoService {
  list(): TodoItem[];
  /** Replaces the whole list; `[]` clears it. */
  set(todos: TodoItem[]): void;
}

export const TODO_SERVICE = serviceKey<TodoService>()('todos');

const MARK: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[~]', done: '[x]' };

/** The list as the model (and print mode) reads it: one line per item. */
export function formatTodos(todos: readonly TodoItem[]): string {
  if (!todos.length) return 'The todo list is empty.';
  const count = (s: TodoStatus) => todos.filter((t) => t.status === s).length;
  const head = `Todo list (${todos.length} items: ${count('done')} done, ${count('in_progress')} in progress, ${count('pending')} pending):`;
  return [head, ...todos.map((t) => `- ${MARK[t.status]} ${t.title}`)].join('\n');
}
