// The popup (docs/plugins-official.md): pair once with the token `jarvis webbridge-pair` prints, share
// the current tab, take a tab back, or stop everything. All state lives in the service worker.
const $ = (id) => document.getElementById(id);

async function ask(type, extra = {}) {
  const answer = await chrome.runtime.sendMessage({ type, ...extra });
  if (answer?.error) throw new Error(answer.error);
  return answer?.value;
}

async function act(type, extra) {
  $('error').textContent = '';
  try {
    await ask(type, extra);
  } catch (e) {
    $('error').textContent = e.message;
  }
  await render();
}

async function render() {
  const s = await ask('status');
  $('status').textContent = s.status;
  $('detail').textContent = s.detail ? `(${s.detail})` : '';
  if (!$('port').value) $('port').value = String(s.port);
  $('stop').hidden = s.status === 'stopped';
  $('resume').hidden = s.status !== 'stopped';
  $('tabs').replaceChildren(
    ...s.tabs.map((tab) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.textContent = 'Take back';
      button.onclick = () => act('unshare', { tabId: tab.id });
      item.append(`${tab.title || tab.url} `, button);
      return item;
    }),
  );
}

$('pair').onclick = () => act('pair', { port: $('port').value.trim(), token: $('token').value.trim() });
$('share').onclick = () => act('share');
$('stop').onclick = () => act('stop');
$('resume').onclick = () => act('resume');
void render();
// The status follows the connection while the popup is open (it closes with the popup).
setInterval(() => void render(), 1000);
