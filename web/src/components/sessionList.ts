// The sessions of the server's folders (docs/web.md): search by title, folder or last prompt; a new session; open
// (resume) any of them.
import { h } from '../dom';
import type { SessionRow } from '../state/types';

export interface SessionListHandlers {
  search(q: string): void;
  open(id: string): void;
  create(): void;
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

export class SessionList {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private readonly search: HTMLInputElement;

  constructor(on: SessionListHandlers) {
    this.search = h('input', {
      type: 'search',
      id: 'session-search',
      placeholder: 'Search sessions',
      'aria-label': 'Search sessions',
    });
    this.search.addEventListener('input', () => on.search(this.search.value));
    this.list = h('ul', { class: 'session-items', 'aria-label': 'Sessions' });
    this.list.addEventListener('click', (e) => {
      const button = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-session]');
      if (button) on.open(button.dataset.session!);
    });
    this.el = h(
      'nav',
      { class: 'sessions', id: 'sessions', 'aria-label': 'Sessions' },
      h(
        'div',
        { class: 'session-tools' },
        this.search,
        h('button', { type: 'button', class: 'primary', onclick: () => on.create() }, 'New session'),
      ),
      this.list,
    );
  }

  render(rows: SessionRow[], query: string, current: string | undefined, error: string | undefined): void {
    const q = query.trim().toLowerCase();
    const shown = q
      ? rows.filter((r) => [r.title, r.cwd, r.last_prompt].some((f) => f?.toLowerCase().includes(q)))
      : rows;
    const items = shown.map((r) => {
      const name = r.title || r.last_prompt || 'New session';
      return h(
        'li',
        null,
        h(
          'button',
          {
            type: 'button',
            class: 'session',
            'data-session': r.session_id,
            'aria-current': r.session_id === current ? 'true' : undefined,
            'aria-label': `${name}, ${r.cwd}, ${when(r.updated_at)}${r.busy ? ', working' : ''}`,
          },
          h('span', { class: 'session-title' }, name),
          h(
            'span',
            { class: 'session-meta' },
            `${r.cwd.split('/').pop()} · ${when(r.updated_at)}${r.busy ? ' · working' : ''}`,
          ),
        ),
      );
    });
    this.list.replaceChildren(
      ...(error ? [h('li', { class: 'notice notice-error', role: 'alert' }, error)] : []),
      ...(items.length ? items : [h('li', { class: 'empty' }, q ? 'No session matches.' : 'No sessions yet.')]),
    );
  }
}
