// The web UI's entry (docs/web.md). First of all, a login code in the address (`#login=<code>`) is taken out of
// the address bar and the history, then exchanged for the cookie; then the app starts.
import { call, logIn, whenUnauthorized } from './api/http';
import { App } from './components/app';
import { applyStoredTheme } from './components/sessionControls';
import { loginScreen } from './components/loginScreen';
import { Actions } from './state/actions';
import { initialState, Store } from './state/store';
import './styles.css';
import './components.css';
import 'jarvis:theme.css';

const code = /^#login=([A-Za-z0-9_-]{1,128})$/.exec(location.hash)?.[1];
if (code !== undefined) history.replaceState(null, '', location.pathname);

applyStoredTheme();
const root = document.getElementById('app')!;
const store = new Store(initialState);
let started = false;

function showLogin(message?: string): void {
  store.update({ login: 'out', loginMessage: message });
  root.replaceChildren(
    loginScreen(message, (given) => {
      const c =
        /#login=([A-Za-z0-9_-]{1,128})$/.exec(given)?.[1] ?? (/^[A-Za-z0-9_-]{1,128}$/.test(given) ? given : undefined);
      if (!c) return showLogin('That is not a login link from jarvis web.');
      void enter(c);
    }),
  );
  document.getElementById('login-code')?.focus();
}

async function start(): Promise<void> {
  if (started) return location.reload();
  started = true;
  store.update({ login: 'in' });
  const actions = new Actions(store);
  const ended = (message: string) => {
    actions.stream.stop();
    started = false;
    showLogin(message);
  };
  whenUnauthorized(() => ended('The login has ended (the server restarted, or you logged out). Open a new link.'));
  actions.onLoggedOut = () => ended('Logged out. Open a new link from jarvis web to come back.');
  const app = new App(store, actions);
  root.replaceChildren(app.el);
  actions.stream.connect();
  await actions.loadSessions();
  const wanted = /^#s=([0-9A-Z]{26})$/.exec(location.hash)?.[1];
  if (wanted) await actions.openSession(wanted);
  else (document.getElementById('session-search') as HTMLElement | null)?.focus();
}

async function enter(loginCode?: string): Promise<void> {
  if (loginCode !== undefined) {
    const r = await logIn(loginCode).catch((e: Error) => ({ ok: false, message: e.message }));
    if (!r.ok) return showLogin(r.message);
  }
  try {
    await call('GET', '/api/v1/meta');
  } catch {
    return showLogin();
  }
  await start();
}

void enter(code);
