// The session controls' calls (docs/server.md "Endpoints"): the models to pick from; model, permission mode and
// plan mode (`profile`), undo, compact, fork and archive; and what the prompt box completes (`files`, `commands`).
// Failures are shown with the server's own message, as every action's are (state/actions.ts).
import { ApiFailure, call } from '../api/http';
import type { Actions } from './actions';
import type { Store } from './store';
import type { ModelChoice, Status } from './types';

export interface CommandItem {
  name: string;
  description: string;
  argument_hint: string | null;
  source: string;
}

export class ControlActions {
  constructor(
    private readonly store: Store,
    private readonly actions: Actions,
  ) {}

  private async attempt<T>(what: string, run: (id: string) => Promise<T>): Promise<T | undefined> {
    const cur = this.store.state.current;
    if (!cur) return undefined;
    try {
      const r = await run(cur.id);
      if (this.store.state.error) this.store.update({ error: undefined });
      return r;
    } catch (e) {
      this.store.update({ error: `${what}: ${e instanceof ApiFailure ? e.message : String(e)}` });
      return undefined;
    }
  }

  private applyStatus(status: Status | undefined): void {
    const cur = this.store.state.current;
    if (status && cur && cur.id === status.session_id) this.store.update({ current: { ...cur, status } });
  }

  async profile(config: { model?: string; permission_mode?: string; plan_mode?: boolean }): Promise<void> {
    this.applyStatus(
      await this.attempt('switching', (id) =>
        call<Status>('POST', `/api/v1/sessions/${id}/profile`, { agent_config: config }),
      ),
    );
  }

  /** The models the session can switch to; undefined (and the server's reason shown) when the request fails. */
  async models(): Promise<ModelChoice[] | undefined> {
    const data = await this.attempt('listing the models', (id) =>
      call<{ items: ModelChoice[] }>('GET', `/api/v1/sessions/${id}/models`),
    );
    return data?.items;
  }

  /** Undo and compact change the conversation: the session's events mark it stale and it is read again. */
  async undo(): Promise<void> {
    await this.attempt('undo', (id) => call('POST', `/api/v1/sessions/${id}:undo`, { count: 1 }));
  }

  async compact(): Promise<void> {
    await this.attempt('compacting', (id) => call('POST', `/api/v1/sessions/${id}:compact`, {}));
  }

  async fork(): Promise<void> {
    const made = await this.attempt('forking', (id) =>
      call<{ session_id: string }>('POST', `/api/v1/sessions/${id}:fork`, {}),
    );
    if (!made) return;
    await this.actions.loadSessions();
    await this.actions.openSession(made.session_id);
  }

  async archive(): Promise<void> {
    const done = await this.attempt('archiving', (id) => call('POST', `/api/v1/sessions/${id}:archive`, {}));
    if (done === undefined) return;
    history.replaceState(null, '', location.pathname);
    this.store.update({ current: undefined });
    await this.actions.loadSessions();
  }

  /** The files `@query` completes to; nothing when the request fails (the prompt box stays usable). */
  async files(query: string): Promise<string[]> {
    const cur = this.store.state.current;
    if (!cur) return [];
    const q = encodeURIComponent(query);
    const data = await call<{ items: Array<{ path: string }> }>(
      'GET',
      `/api/v1/sessions/${cur.id}/files?query=${q}&limit=20`,
    ).catch(() => ({ items: [] }));
    return data.items.map((i) => i.path);
  }

  private commandCache?: { id: string; items: Promise<CommandItem[]> };

  /** The session's commands and skills (read once per session). */
  commands(): Promise<CommandItem[]> {
    const cur = this.store.state.current;
    if (!cur) return Promise.resolve([]);
    if (this.commandCache?.id !== cur.id)
      this.commandCache = {
        id: cur.id,
        items: call<{ items: CommandItem[] }>('GET', `/api/v1/sessions/${cur.id}/commands`).then(
          (d) => d.items,
          () => [],
        ),
      };
    return this.commandCache.items;
  }
}
