// The session's to-do list (TodoList). It lives in the journal, so resume replays it and /undo rolls
// it back; every change is also shown to front ends as a `todos` event.
import type { TodoItem, TodoService } from '../../tools/todo/todoService';
import type { EngineEventBody } from '../loop/events';
import type { Session } from '../session/session';

export class TodoStore implements TodoService {
  constructor(
    private readonly session: Session,
    private readonly emit: (event: EngineEventBody) => void,
  ) {}

  list(): TodoItem[] {
    return structuredClone(this.session.state.todos);
  }

  set(todos: TodoItem[]): void {
    const copy = todos.map((t) => ({ title: t.title, status: t.status }));
    this.session.commit({ type: 'todos', todos: copy });
    this.emit({ type: 'todos', todos: this.list() });
  }
}
