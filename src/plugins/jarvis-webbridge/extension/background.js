// Jarvis WebBridge service worker (docs/plugins-official.md, "The browser extension"). It connects to the
// plugin's server on 127.0.0.1 over a WebSocket and pairs by mutual proof, never sending the pairing token the CLI
// printed (`jarvis webbridge-pair`): the server must first prove it holds the token, then the extension proves it
// too (HMAC-SHA256 over both sides' fresh nonces; the same strings as src/platform/webbridge/pairingProof.ts). A
// program that took the port learns nothing and gets nothing run. Then it runs the server's requests in the tabs
// the agent may use: the ones it opened and the ones the user shared from the popup. Every page action goes
// through chrome.debugger attached to that one tab, so Chrome shows its "is debugging this browser" bar while the
// agent works there.
const PROTOCOL = 'jarvis-webbridge.2';
const DEFAULT_PORT = 47841;
/**
 * While paired and not stopped, a lost or refused connection is retried this often, so a `jarvis` session that
 * starts later finds the extension within seconds. Each try reads chrome.storage, which keeps the worker alive;
 * the alarm below wakes it if Chrome stopped it anyway.
 */
const RETRY_MS = 2000;
const LOAD_WAIT_MS = 30_000;
/** A listener that does not finish pairing within this is treated as one that failed to prove the token. */
const PAIRING_WAIT_MS = 10_000;

let socket = null;
let state = { status: 'disconnected', detail: '' };
let retryTimer = null;
const attached = new Set();

const settings = () => chrome.storage.local.get({ port: DEFAULT_PORT, token: '', stopped: false });
const sharedTabs = async () => new Set((await chrome.storage.session.get({ tabs: [] })).tabs);
async function setShared(set) {
  await chrome.storage.session.set({ tabs: [...set] });
}
async function share(tabId) {
  const set = await sharedTabs();
  set.add(tabId);
  await setShared(set);
}
async function unshare(tabId) {
  const set = await sharedTabs();
  set.delete(tabId);
  await setShared(set);
  if (attached.has(tabId)) await chrome.debugger.detach({ tabId }).catch(() => undefined);
  attached.delete(tabId);
}

function setStatus(status, detail = '') {
  state = { status, detail };
  const badge = { connected: ['ON', '#1a7f37'], refused: ['!', '#cf222e'], unpaired: ['?', '#9a6700'] }[status];
  chrome.action.setBadgeText({ text: badge ? badge[0] : '' });
  if (badge) chrome.action.setBadgeBackgroundColor({ color: badge[1] });
  chrome.action.setTitle({ title: `Jarvis WebBridge: ${status}${detail ? ` (${detail})` : ''}` });
}

function wake() {
  void connect();
}

function scheduleRetry(paired) {
  clearTimeout(retryTimer);
  if (paired && state.status !== 'stopped') retryTimer = setTimeout(() => void connect(), RETRY_MS);
}

const NONCE = /^[A-Za-z0-9_-]{43}$/;
/** Our close code when the server's proof was wrong: it holds another token, or it is not Jarvis at all. */
const SERVER_UNPROVED = 4004;
const encoder = new TextEncoder();

function base64url(bytes) {
  let text = '';
  for (const b of new Uint8Array(bytes)) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function pairingProof(token, side, port, extensionNonce, serverNonce) {
  const key = await crypto.subtle.importKey('raw', encoder.encode(token), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const text = `${PROTOCOL}|${side}|${port}|${extensionNonce}|${serverNonce}`;
  return base64url(await crypto.subtle.sign('HMAC', key, encoder.encode(text)));
}

/** Compares without stopping at the first difference. */
function sameText(a, b) {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

async function connect() {
  if (socket) return;
  const s = await settings();
  if (s.stopped) return setStatus('stopped', 'press Resume in the popup');
  if (!s.token) setStatus('unpaired', 'run `jarvis webbridge-pair` and paste the token here');
  const ws = new WebSocket(`ws://127.0.0.1:${s.port}/webbridge`);
  socket = ws;
  // hello → (server's challenge and proof checked) → proved → (welcome) → ready. Before ready, nothing the
  // other side sends is run; the handshake's messages are handled one at a time, in order.
  const pairing = { stage: 'hello', nonce: base64url(crypto.getRandomValues(new Uint8Array(32))) };
  let queue = Promise.resolve();
  const giveUp = setTimeout(() => pairing.stage !== 'ready' && refuseServer(ws, s, pairing), PAIRING_WAIT_MS);
  const hello = { type: 'hello', protocol: PROTOCOL, nonce: pairing.nonce, ...(s.token ? {} : { paired: false }) };
  ws.onopen = () => ws.send(JSON.stringify(hello));
  ws.onmessage = (event) => {
    if (pairing.stage === 'ready') return void onMessage(ws, event.data);
    queue = queue.then(() => onPairing(ws, s, pairing, event.data));
  };
  ws.onclose = (event) => {
    clearTimeout(giveUp);
    if (socket === ws) socket = null;
    if (event.code === 4001) setStatus('refused', event.reason || 'wrong token: pair again');
    else if (event.code === 4003) setStatus('unpaired', event.reason);
    else if (event.code === 4005) setStatus('refused', event.reason);
    else if (event.code !== SERVER_UNPROVED && state.status !== 'stopped')
      setStatus(s.token ? 'disconnected' : 'unpaired', state.detail);
    scheduleRetry(!!s.token);
  };
}

/** One message of the pairing handshake; anything unexpected ends the connection before a request runs. */
async function onPairing(ws, s, pairing, data) {
  if (pairing.stage === 'ready') return onMessage(ws, data);
  let message;
  try {
    message = JSON.parse(data);
  } catch {
    message = {};
  }
  if (pairing.stage === 'hello' && message.type === 'challenge' && s.token) {
    const nonce = typeof message.nonce === 'string' && NONCE.test(message.nonce) ? message.nonce : undefined;
    const expected = nonce && (await pairingProof(s.token, 'server', s.port, pairing.nonce, nonce));
    if (expected && sameText(message.proof, expected)) {
      pairing.stage = 'proved';
      return send(ws, { type: 'proof', proof: await pairingProof(s.token, 'extension', s.port, pairing.nonce, nonce) });
    }
  } else if (pairing.stage === 'proved' && message.type === 'welcome') {
    pairing.stage = 'ready';
    return setStatus('connected', `port ${s.port}`);
  }
  refuseServer(ws, s, pairing);
}

function refuseServer(ws, s, pairing) {
  if (pairing.stage === 'refused') return;
  pairing.stage = 'refused';
  setStatus(
    'refused',
    `the program on port ${s.port} did not prove it holds the pairing token: pair again with the token ` +
      '`jarvis webbridge-pair` prints, or stop whatever else holds that port',
  );
  ws.close(SERVER_UNPROVED, 'the server did not prove the pairing token');
}

function send(ws, message) {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

async function onMessage(ws, data) {
  let message;
  try {
    message = JSON.parse(data);
  } catch {
    return send(ws, { type: 'error', error: 'the extension received a message that is not JSON' });
  }
  if (message.type === 'welcome') return setStatus('connected', `port ${message.port ?? ''}`.trim());
  if (message.type === 'ping') return send(ws, { type: 'pong' });
  if (typeof message.id !== 'number' || typeof message.method !== 'string') return;
  try {
    const handler = handlers[message.method];
    if (!handler) throw new Error(`the extension does not know "${message.method}"; update it`);
    send(ws, { id: message.id, result: await handler(message.params ?? {}) });
  } catch (e) {
    send(ws, { id: message.id, error: e instanceof Error ? e.message : String(e) });
  }
}

function tabInfo(tab) {
  const url = tab.url ?? tab.pendingUrl ?? '';
  return { id: tab.id, url, title: tab.title ?? '', active: tab.active, window_id: tab.windowId };
}

async function allowedTab(tabId) {
  if (!(await sharedTabs()).has(tabId))
    throw new Error(
      `Tab ${tabId} is not shared with the agent: it may use the tabs it opened and the ones you share from the ` +
        'Jarvis WebBridge popup. Call list_tabs for those.',
    );
  try {
    return await chrome.tabs.get(tabId);
  } catch {
    await unshare(tabId);
    throw new Error(`Tab ${tabId} was closed. Call list_tabs for the tabs that are open.`);
  }
}

/** Runs `work` on a tab and fails at once, saying so, if the tab is closed before it finishes. */
function whileTabOpen(tabId, what, work) {
  let onRemoved;
  const closed = new Promise((_, reject) => {
    onRemoved = (id) => id === tabId && reject(new Error(`Tab ${tabId} was closed while ${what}.`));
    chrome.tabs.onRemoved.addListener(onRemoved);
  });
  return Promise.race([work(), closed]).finally(() => chrome.tabs.onRemoved.removeListener(onRemoved));
}

async function debuggee(tabId) {
  if (!attached.has(tabId)) {
    try {
      await chrome.debugger.attach({ tabId }, '1.3');
    } catch (e) {
      throw new Error(`Could not attach to tab ${tabId}: ${e.message} (is DevTools or another debugger open there?)`);
    }
    attached.add(tabId);
  }
  return { tabId };
}

async function cdp(tabId, method, params) {
  return chrome.debugger.sendCommand(await debuggee(tabId), method, params);
}

function loaded(tabId, timeoutMs) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      chrome.tabs.onUpdated.removeListener(onUpdated);
      resolve();
    };
    const onUpdated = (id, change) => id === tabId && change.status === 'complete' && done();
    const timer = setTimeout(done, timeoutMs);
    chrome.tabs.onUpdated.addListener(onUpdated);
    chrome.tabs.get(tabId).then((t) => t.status === 'complete' && t.url && t.url !== 'about:blank' && done(), done);
  });
}

const handlers = {
  async list_tabs() {
    const shared = await sharedTabs();
    return (await chrome.tabs.query({})).filter((t) => shared.has(t.id)).map(tabInfo);
  },
  async open_tab({ url, tab_id, active, wait_until_loaded }) {
    let tab;
    if (tab_id !== undefined) {
      await allowedTab(tab_id);
      tab = await chrome.tabs.update(tab_id, { url, ...(active === undefined ? {} : { active }) });
    } else {
      tab = await chrome.tabs.create({ url, active: active ?? true });
      await share(tab.id);
    }
    if (wait_until_loaded !== false) await whileTabOpen(tab.id, 'it loaded', () => loaded(tab.id, LOAD_WAIT_MS));
    return tabInfo(await chrome.tabs.get(tab.id));
  },
  async close_tab({ tab_id }) {
    await allowedTab(tab_id);
    await unshare(tab_id);
    await chrome.tabs.remove(tab_id);
    return { success: true, tab_id };
  },
  async activate_tab({ tab_id }) {
    const tab = await allowedTab(tab_id);
    await chrome.tabs.update(tab_id, { active: true });
    await chrome.windows.update(tab.windowId, { focused: true });
    return tabInfo(await chrome.tabs.get(tab_id));
  },
  async evaluate({ tab_id, expression }) {
    await allowedTab(tab_id);
    return whileTabOpen(tab_id, 'the script ran', async () => {
      const out = await cdp(tab_id, 'Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
      const tab = await chrome.tabs.get(tab_id);
      if (out.exceptionDetails) {
        const text = out.exceptionDetails.exception?.description ?? out.exceptionDetails.text;
        return { threw: String(text).split('\n')[0], url: tab.url };
      }
      return { value: out.result.value ?? null, url: tab.url };
    });
  },
  async terminate({ tab_id }) {
    if (attached.has(tab_id)) await cdp(tab_id, 'Runtime.terminateExecution', {});
    return { success: true };
  },
  async screenshot({ tab_id, full_page }) {
    await allowedTab(tab_id);
    return whileTabOpen(tab_id, 'the screenshot was taken', async () => {
      const out = await cdp(tab_id, 'Page.captureScreenshot', { format: 'png', captureBeyondViewport: !!full_page });
      return { data: out.data, mime_type: 'image/png', url: (await chrome.tabs.get(tab_id)).url };
    });
  },
};

chrome.debugger.onDetach.addListener(({ tabId }, reason) => {
  attached.delete(tabId);
  // The user pressed Cancel on Chrome's debugging bar: that tab is no longer the agent's.
  if (reason === 'canceled_by_user') void unshare(tabId);
});
chrome.tabs.onRemoved.addListener((tabId) => {
  attached.delete(tabId);
  void sharedTabs().then((set) => set.delete(tabId) && setShared(set));
});

async function stop() {
  await chrome.storage.local.set({ stopped: true });
  for (const tabId of [...attached]) await chrome.debugger.detach({ tabId }).catch(() => undefined);
  attached.clear();
  await setShared(new Set());
  setStatus('stopped', 'press Resume in the popup');
  if (socket) {
    send(socket, { type: 'stopped' });
    socket.close(4000, 'stopped by the user');
    socket = null;
  }
}

chrome.runtime.onMessage.addListener((message, _sender, reply) => {
  const act = {
    async status() {
      const s = await settings();
      return { ...state, port: s.port, paired: !!s.token, tabs: await handlers.list_tabs() };
    },
    async pair() {
      const port = Number(message.port);
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`"${message.port}" is not a port`);
      if (!/^[A-Za-z0-9_-]{22,}$/.test(message.token ?? ''))
        throw new Error('That is not a pairing token: copy the one `jarvis webbridge-pair` printed.');
      await chrome.storage.local.set({ port, token: message.token, stopped: false });
      if (socket) socket.close(1000, 're-pairing');
      socket = null;
      setStatus('connecting');
      wake();
      return { ok: true };
    },
    async share() {
      const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
      if (!tab?.id) throw new Error('No active tab to share');
      await share(tab.id);
      return tabInfo(tab);
    },
    async unshare() {
      await unshare(message.tabId);
      return { ok: true };
    },
    stop,
    async resume() {
      await chrome.storage.local.set({ stopped: false });
      setStatus('disconnected');
      wake();
      return { ok: true };
    },
  }[message.type];
  if (!act) return false;
  act().then(
    (value) => reply({ value }),
    (e) => reply({ error: e.message }),
  );
  return true;
});

chrome.alarms.create('reconnect', { periodInMinutes: 0.5 });
chrome.alarms.onAlarm.addListener((alarm) => alarm.name === 'reconnect' && wake());
chrome.runtime.onStartup.addListener(wake);
chrome.runtime.onInstalled.addListener(wake);
wake();
