// The UI's one store (docs/web.md "Structure"): the state, replaced (not changed) on every update, and the
// listeners that draw it.
import type { State } from './types';

type Listener = (state: State, previous: State) => void;

export class Store {
  private listeners: Listener[] = [];
  constructor(private current: State) {}

  get state(): State {
    return this.current;
  }

  update(patch: Partial<State> | ((s: State) => Partial<State>)): void {
    const previous = this.current;
    this.current = { ...previous, ...(typeof patch === 'function' ? patch(previous) : patch) };
    for (const l of this.listeners) l(this.current, previous);
  }

  listen(l: Listener): void {
    this.listeners.push(l);
  }
}

export const initialState: State = {
  login: 'checking',
  sessions: [],
  query: '',
  connection: 'connecting',
  sidebarOpen: false,
};
