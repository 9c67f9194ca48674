// The prompt input (docs/web.md): Enter sends, Shift+Enter starts a new line; Stop ends the running turn. The
// element stays the same across redraws so what the user is typing is never lost.
import { h } from '../dom';

export interface ComposerHandlers {
  send(text: string): Promise<boolean>;
  stop(): void;
}

export class Composer {
  readonly el: HTMLElement;
  readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;

  constructor(on: ComposerHandlers) {
    this.input = h('textarea', {
      id: 'prompt',
      rows: 2,
      placeholder: 'Ask Jarvis… (Enter sends, Shift+Enter: new line)',
      'aria-label': 'Prompt',
    });
    const submit = async () => {
      const text = this.input.value;
      if (!text.trim()) return;
      this.sendButton.disabled = true;
      if (await on.send(text)) this.input.value = '';
      this.sendButton.disabled = false;
      // Back to the input, unless a panel that came meanwhile took the focus (an approval to answer first).
      const active = document.activeElement;
      if (!active || active === document.body || this.el.contains(active)) this.input.focus();
    };
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        void submit();
      }
    });
    this.sendButton = h('button', { type: 'submit', class: 'primary' }, 'Send');
    this.stopButton = h('button', { type: 'button', class: 'danger', hidden: true, onclick: () => on.stop() }, 'Stop');
    this.el = h(
      'form',
      {
        class: 'composer',
        'aria-label': 'Send a prompt',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void submit();
        },
      },
      this.input,
      h('div', { class: 'composer-buttons' }, this.stopButton, this.sendButton),
    );
  }

  render(enabled: boolean, busy: boolean): void {
    this.input.disabled = !enabled;
    this.sendButton.disabled = !enabled;
    this.stopButton.hidden = !busy;
  }
}
