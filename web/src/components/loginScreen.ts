// Shown when the browser has no live login (docs/web.md "Login"): how to get a link. A pasted link or code is
// exchanged like an opened one.
import { h } from '../dom';

export function loginScreen(message: string | undefined, submit: (codeOrLink: string) => void): HTMLElement {
  const input = h('input', {
    type: 'password',
    id: 'login-code',
    autocomplete: 'off',
    'aria-label': 'Login link or code',
  });
  return h(
    'main',
    { class: 'login', 'aria-labelledby': 'login-title' },
    h('h1', { id: 'login-title' }, 'Jarvis'),
    h('p', null, 'Open the one-time link that ', h('code', null, 'jarvis web'), ' printed, or paste it here.'),
    message ? h('p', { class: 'notice notice-error', role: 'alert' }, message) : null,
    h(
      'form',
      {
        onsubmit: (e: Event) => {
          e.preventDefault();
          submit(input.value.trim());
        },
      },
      h('label', { for: 'login-code' }, 'Login link'),
      input,
      h('button', { type: 'submit', class: 'primary' }, 'Log in'),
    ),
  );
}
