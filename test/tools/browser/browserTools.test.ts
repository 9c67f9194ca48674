// The browser tools against real Chromium and loopback fixture pages; one browser for the whole file.
// It starts in beforeAll, so its profile and shared memory (--disable-dev-shm-usage puts them in TMPDIR)
// live in the file's temporary folder: started inside a test, they would sit in that test's own folder,
// which test/helpers/tempRoot.ts removes when the test ends, and the next test would find it dead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserSession } from '../../../src/platform/browser/browserSession';
import { BROWSER_SERVICE } from '../../../src/tools/browser';
import { executeScriptTool } from '../../../src/tools/browser/executeScriptTool';
import { getTabContentTool } from '../../../src/tools/browser/getTabContentTool';
import { activateTabTool, closeTabTool, listTabsTool, openTabTool } from '../../../src/tools/browser/tabTools';
import { webFetchTool } from '../../../src/tools/browser/webFetchTool';
import { SUMMARY_SERVICE } from '../../../src/tools/browser/pageSummary';
import type { Tool } from '../../../src/tools/defineTool';
import { WEB_SERVICE } from '../../../src/tools/web';
import { serve, startFixtureServer, type FixtureServer } from '../../helpers/fixtureServer';
import { requireSystemPart } from '../../helpers/requireAll';
import { makeToolHarness } from '../../helpers/toolHarness';

const hasChromium = requireSystemPart('chromium', 'browser tools drive a real Chromium');
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

let site: FixtureServer;
let secret: FixtureServer;
let session: BrowserSession;
const h = makeToolHarness();

beforeAll(async () => {
  secret = await startFixtureServer({ '/secret': serve('internal', 'text/plain') });
  site = await startFixtureServer({
    '/alpha.html': serve(
      page(
        'Alpha page',
        '<main><h1 id="top">Alpha</h1><div class="card big"><p>First card</p></div><div class="card"><h2>Second</h2><p>Other card</p></div></main>',
      ),
      'text/html',
    ),
    '/beta.html': serve(page('Beta page', '<p>beta</p>'), 'text/html'),
    '/rendered.html': serve(
      page(
        'Rendered',
        '<div id="app">loading…</div><script>addEventListener("load", () => { document.getElementById("app").innerHTML = "<h2>RENDERED BY SCRIPT</h2><p>Only a real browser sees this paragraph, which is long enough to count.</p>"; });</script>',
      ),
      'text/html',
    ),
    '/app.html': serve(
      page(
        'App',
        '<ul id="items"><li>a</li></ul><script>window.appState = { count: 5 }; function double(x) { return x * 2; }</script>',
      ),
      'text/html',
    ),
    '/never-loads.html': serve(page('Slow', '<p>text</p><img src="/hang">'), 'text/html'),
    '/hang': () => undefined,
    '/leak.html': (_req, res) =>
      void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          page(
            'Leak',
            `<img src="${secret.url}/secret"><script>fetch("${secret.url}/secret").catch(() => {})</script>`,
          ),
        ),
    '/to-secret': (_req, res) => void res.writeHead(302, { location: `${secret.url}/secret` }).end(),
  });
  // The fixtures are on loopback, so this session's request check refuses the secret server, and
  // everything off this machine (Chromium's own background requests included).
  session = new BrowserSession({
    checkRequest: async (url) => {
      if (url.startsWith(secret.url)) return `Refused to fetch ${url}: a loopback address.`;
      if (!/^https?:/.test(url)) return undefined;
      return new URL(url).hostname === '127.0.0.1' ? undefined : `Refused to fetch ${url}: not a test fixture.`;
    },
  });
  // Started here, in the file's temporary folder: one started in a test would lose its folder after that test.
  await session.context();
  h.register(BROWSER_SERVICE, { session, pageScriptTimeoutMs: 2_000, loadWaitMs: 2_000 });
  h.register(WEB_SERVICE, { allowPrivateNetwork: true });
  if (hasChromium) await session.context();
  // The summary model, played by a function that records what it was sent (the model path is tested in test/engine/browserAgent.test.ts).
  h.register(SUMMARY_SERVICE, {
    summarize: async (prompt, content) => {
      summaries.push({ prompt, content });
      if (prompt === 'fail')
        throw new Error('The summary model test failed: HTTP 500. Call again without prompt to get the text itself.');
      return `SUMMARY of ${content.length} chars`;
    },
  });
});
const summaries: Array<{ prompt: string; content: string }> = [];
afterAll(async () => {
  await session?.close();
  await site.close();
  await secret.close();
});

async function call(tool: Tool, args: unknown) {
  const r = await h.run(tool, args);
  return { ...r, json: JSON.parse(r.text) as Record<string, unknown> & { error?: string } };
}
const open = async (path: string, extra: Record<string, unknown> = {}) =>
  (await call(openTabTool, { url: `${site.url}${path}`, ...extra })).json;

describe.runIf(hasChromium)('browser tools (Chromium)', { timeout: 90_000 }, () => {
  it('open_tab returns the new tab; list_tabs filters; activate_tab switches', async () => {
    const a = await open('/alpha.html');
    expect(a).toMatchObject({ url: `${site.url}/alpha.html`, title: 'Alpha page', windowId: 1 });
    const b = await open('/beta.html', { active: false });
    const tabs = (await call(listTabsTool, {})).json as unknown as Array<{
      id: number;
      active: boolean;
      status: string;
    }>;
    expect(tabs.find((t) => t.id === a.id)).toMatchObject({ active: true, status: 'complete' });
    // Other tests' tabs stay open in the shared browser (any order): every match is a Beta tab, this one too.
    const found = await call(listTabsTool, { title_pattern: 'BETA' });
    const betas = found.json as unknown as Array<{ title: string; id: number }>;
    expect(betas.map((t) => t.title)).toEqual(betas.map(() => 'Beta page'));
    expect(betas.map((t) => t.id)).toContain(b.id);
    expect((await call(listTabsTool, { url_pattern: '(' })).json.error).toBe('Invalid url_pattern regex: "("');
    expect((await call(activateTabTool, { tab_id: b.id })).json).toMatchObject({
      id: b.id,
      active: true,
      title: 'Beta page',
    });
    expect((await call(listTabsTool, { active: true })).json).toMatchObject([{ id: b.id }]);
    expect((await call(activateTabTool, { tab_id: 999 })).json.error).toBe(
      'Tab 999 not found; list_tabs shows the open tabs.',
    );
  });

  it('open_tab with tab_id navigates that tab; a page that never finishes loading returns after the wait', async () => {
    const t = await open('/beta.html');
    expect(await open('/alpha.html', { tab_id: t.id })).toMatchObject({
      id: t.id,
      title: 'Alpha page',
      status: 'complete',
    });
    const slow = await open('/never-loads.html');
    expect(slow.error).toBeUndefined();
    expect(slow.title).toBe('Slow');
  });

  it('restricted URLs are refused; about:blank is allowed; a refused address is never requested', async () => {
    for (const url of ['chrome://version', 'file:///etc/passwd', 'about:version', 'view-source:http://x']) {
      expect((await call(openTabTool, { url })).json.error).toMatch(/^Cannot open/);
    }
    expect((await call(openTabTool, { url: 'about:blank' })).json.error).toBeUndefined();
    const before = secret.hits.length;
    expect((await call(openTabTool, { url: `${secret.url}/secret` })).json.error).toContain('Refused to fetch');
    expect((await call(openTabTool, { url: `${site.url}/to-secret` })).json.error).toMatch(/ERR_BLOCKED_BY_CLIENT/);
    await open('/leak.html');
    expect(secret.hits.length).toBe(before);
  });

  it('get_tab_content reads the rendered page that web_fetch cannot see, with selector annotations', async () => {
    const t = await open('/rendered.html');
    const fetched = (await call(webFetchTool, { url: `${site.url}/rendered.html` })).json;
    expect(fetched.content).not.toContain('RENDERED BY SCRIPT');
    const read = (await call(getTabContentTool, { tab_id: t.id })).json;
    expect(read).toMatchObject({
      tab_id: t.id,
      url: `${site.url}/rendered.html`,
      title: 'Rendered',
      truncated: false,
      used_selector: null,
    });
    expect(read.content).toContain('## RENDERED BY SCRIPT <!-- #app > h2 -->');
  });

  it('get_tab_content: selector narrowing, selector not found, max_length', async () => {
    const t = await open('/alpha.html');
    const narrowed = (await call(getTabContentTool, { tab_id: t.id, selector: 'div.card.big' })).json;
    expect(narrowed.used_selector).toBe('div.card.big');
    expect(narrowed.content).toContain('First card');
    expect(narrowed.content).not.toContain('Other card');
    expect((await call(getTabContentTool, { tab_id: t.id, selector: '#nope' })).json).toMatchObject({
      content: 'Element not found: #nope',
      used_selector: '#nope',
    });
    expect((await call(getTabContentTool, { tab_id: t.id, selector: 'div[' })).json.error).toMatch(/Invalid selector/);
    const cut = (await call(getTabContentTool, { tab_id: t.id, max_length: 10 })).json;
    expect(cut).toMatchObject({ truncated: true });
    expect((cut.content as string).length).toBe(10);
  });

  it('get_tab_content with prompt: the rendered text, cut to max_length first, is summarised; a failure is an error', async () => {
    const t = await open('/rendered.html');
    const whole = (await call(getTabContentTool, { tab_id: t.id })).json.content as string;
    expect((await call(getTabContentTool, { tab_id: t.id, prompt: 'What did the script render?' })).json.content).toBe(
      `SUMMARY of ${whole.length} chars`,
    );
    expect(summaries.at(-1)).toEqual({ prompt: 'What did the script render?', content: whole });
    expect(whole).toContain('RENDERED BY SCRIPT');
    const read = (await call(getTabContentTool, { tab_id: t.id, prompt: 'short', max_length: 30 })).json;
    expect(read).toMatchObject({ tab_id: t.id, content: 'SUMMARY of 30 chars', truncated: false, used_selector: null });
    expect(summaries.at(-1)).toEqual({ prompt: 'short', content: whole.slice(0, 30) });
    expect((await call(getTabContentTool, { tab_id: t.id, prompt: 'fail' })).json.error).toContain(
      'The summary model test failed',
    );
  });

  it('execute_script in the page: globals, functions, DOM changes seen by get_tab_content, default active tab', async () => {
    const t = await open('/app.html');
    expect(
      (
        await call(executeScriptTool, {
          code: 'return window.appState.count + double(2)',
          target: 'page',
          tab_id: t.id,
        })
      ).json,
    ).toEqual({ result: 9, target: 'page', tab_id: t.id });
    expect(
      (
        await call(executeScriptTool, {
          code: 'document.querySelector("#items").innerHTML += "<li>added by script</li>";',
          target: 'page',
        })
      ).json,
    ).toEqual({ result: null, target: 'page', tab_id: t.id });
    expect((await call(getTabContentTool, { tab_id: t.id })).json.content).toContain('- added by script');
    expect(
      (
        await call(executeScriptTool, {
          code: 'await new Promise((r) => setTimeout(r, 10)); return document.title',
          target: 'page',
        })
      ).json.result,
    ).toBe('App');
    expect(
      (await call(executeScriptTool, { code: 'throw new Error("page boom")', target: 'page' })).json.error,
    ).toContain('page boom');
  });

  it('execute_script: a busy page script is terminated at its deadline and the tab keeps working', async () => {
    const t = await open('/app.html');
    expect((await call(executeScriptTool, { code: 'while (true) {}', target: 'page', tab_id: t.id })).json.error).toBe(
      'execute_script timed out after 2s; the page script was terminated.',
    );
    expect((await call(executeScriptTool, { code: 'return 1 + 1', target: 'page', tab_id: t.id })).json.result).toBe(2);
  });

  it('execute_script: invalid target, and the sandbox has no page', async () => {
    expect((await h.run(executeScriptTool, { code: 'return 1', target: 'worker' })).text).toContain(
      'Invalid target "worker": use "page" or "sandbox"',
    );
    expect(
      (await call(executeScriptTool, { code: 'return typeof document + typeof window', target: 'sandbox' })).json,
    ).toEqual({ result: 'undefinedundefined', target: 'sandbox' });
  });

  it('--headed launches a visible window: with no X server at DISPLAY the error names the display and the way out', async () => {
    const headed = new BrowserSession({ headed: true, env: { PATH: process.env.PATH, DISPLAY: ':87' } });
    try {
      await expect(headed.context()).rejects.toThrow(
        /^Could not start .*chromium as a visible window on display :87 \(--headed; without it the browser runs headless\)/,
      );
    } finally {
      await headed.close();
    }
  });

  it('a popup opened by the page gets a tab id; close_tab removes a tab', async () => {
    const t = await open('/alpha.html');
    const before = ((await call(listTabsTool, {})).json as unknown as unknown[]).length;
    await call(executeScriptTool, {
      code: `window.open("${site.url}/beta.html"); return true`,
      target: 'page',
      tab_id: t.id,
    });
    let tabs = (await call(listTabsTool, {})).json as unknown as Array<{ id: number; url: string }>;
    for (let i = 0; i < 50 && tabs.length === before; i++)
      tabs = (await call(listTabsTool, {})).json as unknown as Array<{ id: number; url: string }>;
    expect(tabs.length).toBe(before + 1);
    expect((await call(closeTabTool, { tab_id: t.id })).json).toEqual({ success: true, tab_id: t.id });
    expect(((await call(listTabsTool, {})).json as unknown as Array<{ id: number }>).some((x) => x.id === t.id)).toBe(
      false,
    );
    expect((await call(closeTabTool, { tab_id: t.id })).json.error).toMatch(/not found/);
  });
});
