// What the user can do, as calls to the session API (docs/server.md) whose results land in the store. Every
// failure is shown (state.error) with the server's own message.
import { ApiFailure, call, CLIENT_ID } from '../api/http';
import { EventStream } from '../api/ws';
import { liveFromSnapshot } from './live';
import { itemsFromSnapshot } from './messages';
import { applyEvent } from './sessionEvents';
import type { Store } from './store';
import type { Approval, Interaction, SessionRow, SessionView, Status } from './types';

export class Actions {
  readonly stream: EventStream;

  constructor(private readonly store: Store) {
    this.stream = new EventStream({
      event: (e) => {
        if (e.type === 'event.session.created' || e.type === 'event.session.archived') return void this.loadSessions();
        const cur = this.store.state.current;
        if (!cur || e.session_id !== cur.id) return;
        const next = applyEvent(cur, e, CLIENT_ID);
        if (next !== cur) this.store.update({ current: next });
        if (next.stale) void this.openSession(cur.id, false);
        // The list shows titles and last prompts: read it again as prompts start and end.
        if (e.type === 'prompt.started' || e.type === 'prompt.completed') void this.loadSessions();
      },
      resync: (sid) => void this.openSession(sid, false),
      state: (connection, connectionDetail) => this.store.update({ connection, connectionDetail }),
      refused: (message) => this.store.update({ error: `live events: ${message}` }),
      cursor: (sid) => {
        const cur = this.store.state.current;
        return cur && cur.id === sid && cur.lastSeq >= 0 ? { seq: cur.lastSeq, epoch: cur.epoch } : undefined;
      },
    });
  }

  private async attempt<T>(what: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      const r = await run();
      if (this.store.state.error) this.store.update({ error: undefined });
      return r;
    } catch (e) {
      const msg = e instanceof ApiFailure ? e.message : String(e);
      this.store.update({ error: `${what}: ${msg}` });
      return undefined;
    }
  }

  async loadSessions(): Promise<void> {
    try {
      const data = await call<{ items: SessionRow[] }>('GET', '/api/v1/sessions?page_size=100');
      this.store.update({ sessions: data.items, sessionsError: undefined });
    } catch (e) {
      this.store.update({ sessionsError: e instanceof ApiFailure ? e.message : String(e) });
    }
  }

  /** Shows a session: its snapshot and pending questions, then its live events from the snapshot's cursor on. */
  async openSession(id: string, closeSidebar = true): Promise<void> {
    if (location.hash !== `#s=${id}`) history.replaceState(null, '', `#s=${id}`);
    const loaded = await this.attempt('opening the session', async () => {
      const [snap, qs] = await Promise.all([
        call<
          {
            as_of_seq: number;
            epoch: string;
            status: Status;
            messages: { items: []; has_more: boolean };
            prompts: Array<{ prompt_id: string; text: string; status: string }>;
            approvals: Approval[];
          } & Parameters<typeof liveFromSnapshot>[0]
        >('GET', `/api/v1/sessions/${id}/snapshot`),
        call<{ items: Interaction[] }>('GET', `/api/v1/sessions/${id}/questions?status=pending`),
      ]);
      const items = itemsFromSnapshot(snap.messages.items);
      if (snap.messages.has_more)
        items.unshift({ kind: 'notice', id: 'older', text: 'Older messages are not shown.', level: 'info' });
      for (const p of snap.prompts)
        if (p.status === 'queued') items.push({ kind: 'user', id: `u:${p.prompt_id}`, text: p.text, queued: true });
      const view: SessionView = {
        id,
        status: snap.status,
        items,
        approvals: snap.approvals,
        questions: qs.items,
        lastSeq: snap.as_of_seq,
        epoch: snap.epoch,
        busy: snap.status.busy,
        live: liveFromSnapshot(snap),
      };
      return view;
    });
    if (!loaded) return;
    this.store.update((s) => ({ current: loaded, sidebarOpen: closeSidebar ? false : s.sidebarOpen }));
    this.stream.follow(id);
  }

  /** Ends this browser's login (the cookie's secret); the login screen follows (the app's unauthorized handler). */
  async logOut(): Promise<void> {
    const done = await this.attempt('logging out', () => call('POST', '/api/v1/auth/logout', {}));
    if (done !== undefined) this.onLoggedOut();
  }

  onLoggedOut: () => void = () => undefined;

  async newSession(): Promise<void> {
    const created = await this.attempt('creating a session', () => call<Status>('POST', '/api/v1/sessions', {}));
    if (!created) return;
    await this.loadSessions();
    await this.openSession(created.session_id);
  }

  /** Sends a prompt with its pasted images (`{ media_type, data }`, base64: docs/server.md "Prompts with images"). */
  async send(text: string, images: ReadonlyArray<{ media_type: string; data: string }> = []): Promise<boolean> {
    const cur = this.store.state.current;
    if (!cur || (!text.trim() && !images.length)) return false;
    const content = [
      ...(text.trim() ? [{ type: 'text', text }] : []),
      ...images.map((i) => ({ type: 'image', media_type: i.media_type, data: i.data })),
    ];
    const ok = await this.attempt('sending the prompt', () =>
      call('POST', `/api/v1/sessions/${cur.id}/prompts`, { content }),
    );
    return ok !== undefined;
  }

  async stop(): Promise<void> {
    const cur = this.store.state.current;
    if (cur) await this.attempt('stopping the turn', () => call('POST', `/api/v1/sessions/${cur.id}:abort`, {}));
  }

  async answerApproval(
    a: Approval,
    decision: 'approved' | 'rejected',
    opts: { scope?: 'session'; feedback?: string } = {},
  ): Promise<void> {
    const cur = this.store.state.current;
    if (!cur) return;
    const done = await this.attempt('answering the approval', () =>
      call('POST', `/api/v1/sessions/${cur.id}/approvals/${a.approval_id}`, {
        decision,
        ...(opts.scope ? { scope: opts.scope } : {}),
        ...(opts.feedback ? { feedback: opts.feedback } : {}),
      }),
    );
    if (done !== undefined) this.dropPanel(a.approval_id);
  }

  async answerQuestion(q: Interaction, body: Record<string, unknown>, dismiss = false): Promise<void> {
    const cur = this.store.state.current;
    if (!cur) return;
    const path = `/api/v1/sessions/${cur.id}/questions/${q.question_id}${dismiss ? ':dismiss' : ''}`;
    const done = await this.attempt('answering', () => call('POST', path, dismiss ? {} : body));
    if (done !== undefined) this.dropPanel(q.question_id);
  }

  /** This tab answered: the panel goes at once (the event confirms it). */
  private dropPanel(id: string): void {
    const cur = this.store.state.current;
    if (!cur) return;
    this.store.update({
      current: {
        ...cur,
        approvals: cur.approvals.filter((a) => a.approval_id !== id),
        questions: cur.questions.filter((q) => q.question_id !== id),
      },
    });
  }
}
