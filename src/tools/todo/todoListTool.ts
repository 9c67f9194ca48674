// TodoList: reads, replaces or clears the session's to-do list. The list lives in the session
// journal (through TODO_SERVICE), so it survives resume and follows /undo.
import { z } from 'zod';
import { defineTool } from '../defineTool';
import description from './todoList.md';
import { formatTodos, TODO_SERVICE, TODO_STATUSES } from './todoService';

// The tool's .md documents every field; the schema carries no per-field text to keep requests small.
const item = z.object({
  title: z.string().trim().min(1, 'title must not be empty'),
  status: z.enum(TODO_STATUSES),
});

export const todoListTool = defineTool({
  name: 'TodoList',
  services: [TODO_SERVICE],
  description,
  schema: z.object({
    todos: z.array(item).optional(),
  }),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    const todos = ctx.services.get(TODO_SERVICE);
    if (args.todos === undefined) {
      const list = todos.list();
      return { content: formatTodos(list), summary: `${list.length} todos` };
    }
    todos.set(args.todos);
    if (!args.todos.length) return { content: 'The todo list was cleared.', summary: 'Cleared the todo list' };
    return { content: `Todo list updated.\n${formatTodos(args.todos)}`, summary: `Updated ${args.todos.length} todos` };
  },
});
