// The session's controls (docs/web.md "Controls"): model and permission mode (and plan mode) switches, undo,
// compact, fork and archive, the theme (system, dark, light: kept in this browser) and browser notifications
// (asked for only when the user turns them on). They sit under the prompt input, in Tab order after it.
import { h } from '../dom';
import type { ControlActions } from '../state/controlActions';
import { ModelPicker } from './modelPicker';
import type { Status } from '../state/types';

const THEME_KEY = 'jarvis-web-theme';
const THEMES = ['system', 'dark', 'light'] as const;

export function applyStoredTheme(): void {
  const t = localStorage.getItem(THEME_KEY);
  if (t === 'dark' || t === 'light') document.documentElement.dataset.theme = t;
  else delete document.documentElement.dataset.theme;
}

export interface ControlHandlers {
  controls: ControlActions;
  notifications: { enabled(): boolean; enable(): Promise<string> };
}

export class SessionControls {
  readonly el: HTMLElement;
  private readonly mode: HTMLSelectElement;
  private readonly plan: HTMLInputElement;
  private readonly model: ModelPicker;
  private readonly session: HTMLElement;
  private readonly notifyButton: HTMLButtonElement;
  private readonly notifyState = h('span', { class: 'muted', role: 'status' });

  constructor(on: ControlHandlers) {
    const c = on.controls;
    this.mode = h(
      'select',
      { id: 'permission-mode', onchange: () => void c.profile({ permission_mode: this.mode.value }) },
      ['manual', 'auto', 'yolo'].map((m) => h('option', { value: m }, m)),
    );
    this.plan = h('input', {
      type: 'checkbox',
      id: 'plan-mode',
      'aria-label': 'Plan mode',
      onchange: () => void c.profile({ plan_mode: this.plan.checked }),
    });
    this.model = new ModelPicker(c);
    const theme = h(
      'select',
      {
        id: 'theme',
        onchange: () => {
          localStorage.setItem(THEME_KEY, theme.value);
          applyStoredTheme();
        },
      },
      THEMES.map((t) => h('option', { value: t }, t)),
    );
    theme.value = localStorage.getItem(THEME_KEY) ?? 'system';
    this.notifyButton = h(
      'button',
      {
        type: 'button',
        onclick: () =>
          void on.notifications.enable().then((s) => {
            this.notifyState.textContent = s;
            this.notifyButton.hidden = on.notifications.enabled();
          }),
      },
      'Notify me',
    );
    this.notifyButton.hidden = on.notifications.enabled();
    const button = (label: string, run: () => Promise<void>, title: string) =>
      h('button', { type: 'button', title, onclick: () => void run() }, label);
    this.session = h(
      'div',
      { class: 'controls-session' },
      h('span', { class: 'control-model' }, this.model.label, this.model.select, this.model.detail),
      h('label', { for: 'permission-mode' }, 'Permission mode'),
      this.mode,
      h('label', { class: 'check' }, this.plan, ' Plan mode'),
      button('Undo', () => c.undo(), 'Rewind the last prompt: conversation and files'),
      button('Compact', () => c.compact(), 'Summarise the conversation to free context'),
      button('Fork', () => c.fork(), 'Copy this session into a new one'),
      button('Archive', () => c.archive(), 'Close this session and hide it from the list'),
    );
    this.el = h(
      'section',
      { class: 'controls', 'aria-label': 'Session controls' },
      this.session,
      h(
        'div',
        { class: 'controls-app' },
        h('label', { for: 'theme' }, 'Theme'),
        theme,
        this.notifyButton,
        this.notifyState,
      ),
    );
  }

  render(status: Status | undefined, busy: boolean): void {
    this.session.hidden = !status;
    if (!status) return;
    if (document.activeElement !== this.mode) this.mode.value = status.permission_mode;
    this.plan.checked = status.plan_mode;
    this.model.render(status);
    for (const b of this.session.querySelectorAll<HTMLButtonElement>('button'))
      b.disabled = busy && b.textContent !== 'Archive';
  }
}
