// The jarvis-webbridge plugin through its browser extension (docs/plugins-official.md, "The browser
// extension"): Chromium in headless=new mode with the built extension loaded unpacked and a profile that
// holds the sign-in cookie of a loopback site; the user pairs once through the popup with the token
// `jarvis webbridge-pair` prints; then `jarvis -p` with a mock model opens the signed-in page, reads what
// only that cookie reveals and looks at a screenshot. One browser for the file.
import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBBRIDGE_EXTENSION_ID } from '../../src/platform/webbridge/extensionBridge';
import { BIN, cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { startExtensionChromium, type ExtensionChromium } from '../helpers/extensionChromium';
import { startFixtureServer, type FixtureServer } from '../helpers/fixtureServer';
import { startMockModelServer, type MockModelServer, type RecordedRequest } from '../helpers/mockModelServer';
import { requireSystemPart } from '../helpers/requireAll';

const hasChromium = requireSystemPart('chromium', 'the WebBridge extension runs in a real Chromium');
const PLUGIN = resolve(__dirname, '../../dist/plugins/jarvis-webbridge');
const EXTENSION = join(PLUGIN, 'extension');
const TOOL = (name: string) => `mcp__plugin-jarvis-webbridge_browser__${name}`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

let chrome: ExtensionChromium;
let site: FixtureServer;
let model: MockModelServer;
let dirs: CliDirs;
let env: NodeJS.ProcessEnv;
let port: number;

/** What the last tool result of a request said (OpenAI chat: the `tool` messages). */
function lastToolText(req: RecordedRequest): string {
  const tools = (req.body.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'tool');
  const last = tools[tools.length - 1]?.content;
  return typeof last === 'string' ? last : JSON.stringify(last ?? '');
}

beforeAll(async () => {
  if (!hasChromium) return;
  site = await startFixtureServer({
    '/account': (req, res) => {
      const signedIn = /(?:^|;\s*)session=ana-7f3c(?:;|$)/.test(req.headers.cookie ?? '');
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        signedIn
          ? '<html><head><title>Account</title></head><body><h1>Balance for Ana: 1,234.56</h1></body></html>'
          : '<html><head><title>Sign in</title></head><body><h1>Please sign in</h1></body></html>',
      );
    },
  });
  // The model: open the account page, read it, look at it, done — each step from the previous result.
  model = await startMockModelServer({
    script: (req) => {
      const text = lastToolText(req);
      const tabId = Number(/"id":\s*(\d+)/.exec(text)?.[1] ?? /"tab_id":\s*(\d+)/.exec(text)?.[1]);
      const calls = (req.body.messages as Array<{ role: string }>).filter((m) => m.role === 'tool').length;
      if (calls === 0) return { toolCalls: [{ name: TOOL('open_tab'), arguments: { url: `${site.url}/account` } }] };
      if (calls === 1) return { toolCalls: [{ name: TOOL('get_tab_content'), arguments: { tab_id: tabId } }] };
      if (calls === 2) return { toolCalls: [{ name: TOOL('screenshot'), arguments: { tab_id: tabId } }] };
      return { text: 'done' };
    },
  });
  chrome = await startExtensionChromium(EXTENSION);
  // The user's profile is signed in to the site.
  await chrome.browser.contexts()[0].addCookies([{ name: 'session', value: 'ana-7f3c', url: site.url }]);
  dirs = makeCliDirs();
  const binDir = join(dirs.home, 'bin');
  mkdirSync(binDir);
  symlinkSync(BIN, join(binDir, 'jarvis'));
  port = await freePort();
  env = cliEnv(dirs, {
    ...mockModelEnv(model.baseUrlFor('openai')),
    PATH: `${binDir}:${process.env.PATH ?? ''}`,
  });
  writeFileSync(join(dirs.home, 'config.toml'), `[webbridge]\nport = ${port}\n`);
  const install = await runJarvis(['plugin', 'install', PLUGIN, '--tier', 'official'], { env, cwd: dirs.cwd });
  expect(install.code, install.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await chrome?.close();
  await site?.close();
  await model?.close();
});

describe.runIf(hasChromium)('jarvis-webbridge through the browser extension', { timeout: 120_000 }, () => {
  it('headless=new runs the unpacked extension: a service worker with the id its manifest key fixes', async () => {
    const worker = `chrome-extension://${WEBBRIDGE_EXTENSION_ID}/background.js`;
    const end = Date.now() + 20_000;
    while (!(await chrome.targets()).some((t) => t.type === 'service_worker' && t.url === worker)) {
      if (Date.now() > end) throw new Error(`no ${worker}: ${JSON.stringify(await chrome.targets())}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it("pairs once with the CLI's token; jarvis -p reads the signed-in page and sees a screenshot", async () => {
    const pair = await runJarvis(['webbridge-pair'], { env, cwd: dirs.cwd });
    expect(pair.code, pair.stderr).toBe(0);
    const token = /token: (\S+)/.exec(pair.stdout)![1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pair.stdout).toContain(`port:  ${port}`);
    expect(statSync(join(dirs.home, 'webbridge', 'pairing-token')).mode & 0o777).toBe(0o600);
    // A second call shows the same token: pairing is once.
    expect((await runJarvis(['webbridge-pair'], { env, cwd: dirs.cwd })).stdout).toContain(token);
    expect(await chrome.pair(WEBBRIDGE_EXTENSION_ID, port, token)).toBe('');

    const before = model.requests.length;
    const r = await runJarvis(['-p', 'what is my balance?', '-y'], { env, cwd: dirs.cwd, timeoutMs: 90_000 });
    expect(r.code, r.stderr).toBe(0);
    const sent = model.requests.slice(before);
    expect(sent).toHaveLength(4);
    expect(lastToolText(sent[1])).toContain('"title": "Account"');
    expect(lastToolText(sent[2])).toContain('Balance for Ana: 1,234.56');
    // The screenshot reaches the model as an image (the mock model is image_in).
    expect(JSON.stringify(sent[3].body)).toMatch(/data:image\/png;base64,iVBORw0KGgo/);
    expect(site.hits.some((h) => h.path === '/account' && h.headers.cookie?.includes('session=ana-7f3c'))).toBe(true);
    // The agent's tab is open in the user's browser.
    expect((await chrome.targets()).some((t) => t.type === 'page' && t.url === `${site.url}/account`)).toBe(true);
  });

  it('whose tabs, a tab closed mid-call, a wrong token and Stop in the popup: each a clear error', async () => {
    // The server as the plugin's manifest starts it: `jarvis webbridge-mcp` from PATH, with only the home.
    const transport = new StdioClientTransport({
      command: 'jarvis',
      args: ['webbridge-mcp'],
      cwd: dirs.cwd,
      env: { PATH: env.PATH!, HOME: dirs.home, JARVIS_CODE_HOME: dirs.home },
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    const call = async (name: string, a: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: a });
      const text = (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
      return { isError: r.isError === true, text };
    };
    try {
      // The tab the browser started with is the user's own: not shared, so not listed and not usable.
      const listed = await call('list_tabs', {});
      expect(listed.text).not.toContain('about:blank');
      const opened = JSON.parse((await call('open_tab', { url: `${site.url}/account` })).text) as { id: number };
      expect((await call('list_tabs', {})).text).toContain(`"id": ${opened.id}`);
      const foreign = await call('get_tab_content', { tab_id: 999_999 });
      expect(foreign.text).toContain('Tab 999999 is not shared with the agent');

      // The user closes the tab while a script runs in it.
      const code = 'document.title = "busy"; await new Promise(() => {});';
      const running = call('execute_script', { target: 'page', tab_id: opened.id, code });
      const page = await (async () => {
        const end = Date.now() + 20_000;
        for (;;) {
          for (const p of chrome.browser.contexts()[0].pages())
            if (p.url() === `${site.url}/account` && (await p.title()) === 'busy') return p;
          if (Date.now() > end) throw new Error('the page script did not start');
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      await page.close();
      const closed = await running;
      expect(closed.isError).toBe(true);
      expect(closed.text).toMatch(new RegExp(`Tab ${opened.id} was closed`));

      // Paired with a wrong token: refused, and the call says to pair again.
      // Each side checks the other's proof; the extension, checking first, refuses the server's and says why.
      expect(await chrome.pair(WEBBRIDGE_EXTENSION_ID, port, 'x'.repeat(43))).toBe('');
      expect(await chrome.waitForStatus(WEBBRIDGE_EXTENSION_ID, 'refused')).toContain('did not prove');
      const wrong = await call('list_tabs', {});
      expect(wrong.text).toContain('connected with a wrong pairing token');
      const token = /token: (\S+)/.exec((await runJarvis(['webbridge-pair'], { env, cwd: dirs.cwd })).stdout)![1];
      expect(await chrome.pair(WEBBRIDGE_EXTENSION_ID, port, token)).toBe('');
      await chrome.waitForStatus(WEBBRIDGE_EXTENSION_ID, 'connected');
      expect((await call('list_tabs', {})).isError).toBe(false);

      // Stop in the popup: the agent is cut off until Resume.
      await chrome.press(WEBBRIDGE_EXTENSION_ID, '#stop');
      const stopped = await call('list_tabs', {});
      expect(stopped.text).toContain('The user stopped WebBridge from the extension popup');
      await chrome.press(WEBBRIDGE_EXTENSION_ID, '#resume');
      await chrome.waitForStatus(WEBBRIDGE_EXTENSION_ID, 'connected');
      expect((await call('list_tabs', {})).isError).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('a profile without the extension: the call says it is not installed and how to install it', async () => {
    const bare = await startExtensionChromium();
    try {
      const other = await freePort();
      const before = model.requests.length;
      writeFileSync(join(dirs.home, 'config.toml'), `[webbridge]\nport = ${other}\nconnect_timeout_s = 1\n`);
      const r = await runJarvis(['-p', 'what is my balance?', '-y'], { env, cwd: dirs.cwd, timeoutMs: 90_000 });
      writeFileSync(join(dirs.home, 'config.toml'), `[webbridge]\nport = ${port}\n`);
      expect(r.code, r.stderr).toBe(0);
      const said = lastToolText(model.requests[before + 1]);
      expect(said).toContain(`No Jarvis WebBridge extension connected to ws://127.0.0.1:${other}/webbridge within 1 s`);
      expect(said).toContain('Load unpacked');
      expect((await bare.targets()).some((t) => t.url.startsWith('chrome-extension://'))).toBe(false);
    } finally {
      await bare.close();
    }
  });
});
