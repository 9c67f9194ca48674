// The app shell (docs/web.md): a header (sessions toggle on a phone, the session's title, model and mode, the
// connection), the session list, the conversation, the panels waiting for the user, and the prompt input.
import { h, replaceChildren } from '../dom';
import type { Actions } from '../state/actions';
import type { Store } from '../state/store';
import type { State } from '../state/types';
import { approvalPanel } from './approvalPanel';
import { Composer } from './composer';
import { ConversationView } from './conversation';
import { questionPanel } from './questionPanel';
import { SessionList } from './sessionList';
import { ControlActions } from '../state/controlActions';
import { Notifier } from '../notify';
import { ProgressPanel } from './progressPanel';
import { PromptAssist } from './promptAssist';
import { SessionControls } from './sessionControls';

function sessionName(s: State, id: string, title: string | null | undefined): string {
  const row = s.sessions.find((r) => r.session_id === id);
  return title || row?.title || row?.last_prompt || 'New session';
}

export class App {
  readonly el: HTMLElement;
  private readonly title = h('h1', { class: 'title' }, 'Jarvis');
  private readonly meta = h('span', { class: 'meta' });
  private readonly connection = h('span', { class: 'connection', role: 'status' });
  private readonly error = h('p', { class: 'notice notice-error', role: 'alert', hidden: true });
  private readonly panels = h('div', { class: 'panels' });
  private readonly elsewhere = h('p', { class: 'notice notice-info', role: 'status', hidden: true });
  private readonly toggle: HTMLButtonElement;
  private readonly sessions: SessionList;
  private readonly conversation = new ConversationView();
  private readonly composer: Composer;
  private readonly assist: PromptAssist;
  private readonly progress = new ProgressPanel();
  private readonly controls: SessionControls;

  constructor(
    private readonly store: Store,
    actions: Actions,
  ) {
    this.sessions = new SessionList({
      search: (query) => store.update({ query }),
      open: (id) => void actions.openSession(id),
      create: () => void actions.newSession(),
    });
    // The prompt box's helpers, progress and controls (webapi's parts: promptAssist, progressPanel, sessionControls).
    const controls = new ControlActions(store, actions);
    const notifier = new Notifier();
    this.composer = new Composer({
      send: async (t) => {
        const ok = await actions.send(t, this.assist.images());
        if (ok) this.assist.takeImages();
        return ok;
      },
      stop: () => void actions.stop(),
    });
    this.assist = new PromptAssist(this.composer.input, this.composer.el, {
      files: (q) => controls.files(q),
      commands: () => controls.commands(),
      error: (message) => store.update({ error: message }),
    });
    this.controls = new SessionControls({ controls, notifications: notifier });
    store.listen((s, prev) => notifier.observe(s, prev));
    this.toggle = h(
      'button',
      {
        type: 'button',
        class: 'toggle',
        'aria-controls': 'sessions',
        'aria-expanded': 'false',
        onclick: () => store.update((s) => ({ sidebarOpen: !s.sidebarOpen })),
      },
      'Sessions',
    );
    this.handlers = {
      approve: (a, scope) => void actions.answerApproval(a, 'approved', scope ? { scope } : {}),
      reject: (a, feedback) =>
        void actions.answerApproval(a, 'rejected', feedback.trim() ? { feedback: feedback.trim() } : {}),
      answer: (q, body) => void actions.answerQuestion(q, body),
      dismiss: (q) => void actions.answerQuestion(q, {}, true),
    };
    this.el = h(
      'div',
      { class: 'app' },
      h(
        'header',
        { class: 'top' },
        this.toggle,
        this.title,
        this.meta,
        this.connection,
        h('button', { type: 'button', class: 'logout', onclick: () => void actions.logOut() }, 'Log out'),
      ),
      this.sessions.el,
      h(
        'main',
        { class: 'main' },
        this.error,
        this.conversation.el,
        this.progress.el,
        this.elsewhere,
        this.panels,
        h('div', { class: 'composer-wrap' }, this.assist.list, this.assist.chips, this.composer.el),
        h('div', { class: 'composer-extra' }, this.assist.picker),
        this.controls.el,
      ),
    );
    // Escape closes the session list where it covers the conversation (a phone).
    this.el.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && store.state.sidebarOpen) {
        store.update({ sidebarOpen: false });
        this.toggle.focus();
      }
    });
    store.listen((s, prev) => this.render(s, prev));
    this.render(store.state);
  }

  private readonly handlers: Parameters<typeof approvalPanel>[1] & Parameters<typeof questionPanel>[1];

  private render(s: State, prev?: State): void {
    const cur = s.current;
    this.el.classList.toggle('sidebar-open', s.sidebarOpen);
    // On a phone the session list is the first screen until a session is open.
    this.el.classList.toggle('no-session', !cur);
    this.toggle.setAttribute('aria-expanded', String(s.sidebarOpen));
    if (
      !prev ||
      s.sessions !== prev.sessions ||
      s.query !== prev.query ||
      cur?.id !== prev.current?.id ||
      s.sessionsError !== prev.sessionsError
    )
      this.sessions.render(s.sessions, s.query, cur?.id, s.sessionsError);
    const status = cur?.status;
    this.title.textContent = cur ? sessionName(s, cur.id, status?.title) : 'Jarvis';
    // The tab's title says when something waits for an answer, so it shows among other tabs.
    const waiting = (cur?.approvals.length ?? 0) + (cur?.questions.length ?? 0);
    document.title = `${waiting ? `(${waiting}) waiting · ` : ''}${cur ? `${this.title.textContent} · ` : ''}Jarvis`;
    this.meta.textContent = status
      ? `${status.model ?? 'default model'} · ${status.permission_mode}${status.plan_mode ? ' · plan' : ''}${cur?.busy ? ' · working…' : ''}`
      : '';
    this.connection.textContent =
      s.connection === 'open'
        ? ''
        : s.connection === 'connecting'
          ? 'connecting…'
          : (s.connectionDetail ?? s.connection);
    this.error.hidden = !s.error;
    this.error.textContent = s.error ?? '';
    this.elsewhere.hidden = !cur?.resolvedElsewhere;
    this.elsewhere.textContent = cur?.resolvedElsewhere ?? '';
    this.conversation.render(
      cur?.items,
      cur ? 'Nothing here yet: send a prompt.' : 'Pick a session or start a new one.',
    );
    this.composer.render(!!cur, !!cur?.busy);
    this.progress.render(cur?.live);
    this.controls.render(cur?.status, !!cur?.busy);
    if (!prev || cur?.approvals !== prev.current?.approvals || cur?.questions !== prev.current?.questions) {
      const hadFocus = this.panels.contains(document.activeElement);
      const panels = [
        ...(cur?.approvals ?? []).map((a) => approvalPanel(a, this.handlers)),
        ...(cur?.questions ?? []).map((q) => questionPanel(q, this.handlers)),
      ];
      replaceChildren(this.panels, panels);
      // A new panel takes the focus (keyboard users answer at once); an answered one gives it back to the prompt.
      const first = this.panels.querySelector<HTMLElement>('button, input, textarea');
      if (first && panels.length > (prev?.current?.approvals.length ?? 0) + (prev?.current?.questions.length ?? 0))
        first.focus();
      else if (hadFocus && !first) this.composer.input.focus();
    }
  }
}
