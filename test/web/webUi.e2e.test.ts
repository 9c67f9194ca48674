// The web UI end to end (docs/web.md "Tests"): `jarvis web` on the built CLI against the scripted model, in the
// system Chromium: the link login (no trace in the history, the cookie's flags, log out, a spent link), a hostile
// answer shown as text, two tabs on one session, a dropped connection caught up, a plan review. The Must-show walk
// at both sizes and with the keyboard is webWalk.e2e.test.ts.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/cli';
import { api } from '../helpers/serveProcess';
import type { MockModelServer } from '../helpers/mockModelServer';
import { newLink, type WebServed } from '../helpers/webProcess';
import { shot, startWebWorld, User, watched, type WebWorld } from '../helpers/webUiWorld';

let world: WebWorld;
let browser: Browser;
let served: WebServed;
let model: MockModelServer;

beforeAll(async () => {
  world = await startWebWorld();
  ({ browser, served, model } = world);
}, 60_000);

afterAll(async () => {
  await world?.close();
});

const user = (page: Page) => new User(page, 'mouse-1280');

describe('jarvis web: the UI in Chromium', () => {
  it('logs in with the printed link, which leaves no trace in the address or the history', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await watched(context);
    await page.goto(served.link);
    await page.getByRole('button', { name: 'New session' }).waitFor();
    expect(page.url()).toBe(`${served.url}/`);
    const cdp = await context.newCDPSession(page);
    const { entries } = (await cdp.send('Page.getNavigationHistory')) as { entries: Array<{ url: string }> };
    expect(entries.map((e) => e.url)).not.toContainEqual(expect.stringContaining('login='));
    const cookies = await context.cookies();
    expect(cookies).toEqual([
      expect.objectContaining({ name: `jarvis_web_${served.port}`, httpOnly: true, sameSite: 'Strict', path: '/' }),
    ]);
    expect(await page.evaluate('document.cookie')).toBe('');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('alert').getByText('Logged out.').waitFor();
    await page.reload();
    await page.getByRole('textbox', { name: 'Login link or code' }).waitFor();
    // The link is spent: opened again it shows the login screen.
    const again = await watched(await browser.newContext());
    await again.goto(served.link);
    await again.getByRole('alert').getByText('used, expired or unknown').waitFor();
    await context.close();
  });

  it('shows a hostile answer as text: nothing in it runs, loads or links anywhere but http(s)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Set before any page script: a CSP violation or a run handler would leave a trace here.
    await context.addInitScript(`window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));`);
    const page = await watched(context);
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(await newLink(served));
    await user(page).press(page.getByRole('button', { name: 'New session' }), 'New session');
    await new User(page, 'mouse-1280').send('<img src=x onerror="window.__pwned=\'prompt\'"> be hostile');
    const answer = page.getByRole('article', { name: 'answer' }).last();
    await answer.getByText('report').waitFor();
    // The whole message, not the streamed part of it (deltas arrive first; the finished message replaces them).
    await page.locator('.msg-assistant.streaming').waitFor({ state: 'detached' });
    await answer.getByText('a fine link').waitFor();
    const md = answer.locator('.md');
    expect(await md.locator('script, img, iframe, form, object, embed, [onerror], [onmouseover]').count()).toBe(0);
    expect(await page.locator('.conversation script, .conversation img, .conversation iframe').count()).toBe(0);
    const anchors = await md
      .locator('a')
      .evaluateAll((as) => as.map((a) => ({ href: a.getAttribute('href'), rel: a.getAttribute('rel') })));
    expect(anchors).toEqual([
      // The image is not loaded: it is shown as its alt text and a link to its address.
      { href: 'http://tracker.invalid/pixel.png', rel: 'noopener noreferrer' },
      { href: 'https://example.com/docs', rel: 'noopener noreferrer' },
      { href: 'https://example.org/auto', rel: 'noopener noreferrer' },
    ]);
    // The markup is there to read, as text.
    await answer.getByText('<script>window.__pwned = "script"</script>').waitFor();
    await page
      .getByRole('article', { name: 'your prompt' })
      .getByText('<img src=x onerror="window.__pwned=\'prompt\'"> be hostile')
      .waitFor();
    await answer.hover();
    // The javascript: links are plain text: clicking them does nothing.
    for (const name of ['click me', 'upper', 'spaced', 'entity', 'data']) await answer.getByText(name).first().click();
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.evaluate('window.__violations')).toEqual([]);
    expect(requested.filter((u) => !u.startsWith(served.url))).toEqual([]);
    await shot(page, 'hostile-answer');
    await context.close();
  });

  it('two tabs on one session: the approval answered in one closes in the other, which names who answered', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    const first = await watched(context);
    await first.goto(await newLink(served));
    await user(first).press(first.getByRole('button', { name: 'New session' }), 'New session');
    await first.getByRole('textbox', { name: 'Prompt' }).and(first.locator(':enabled')).waitFor();
    const sessionUrl = first.url();
    // The second tab shares the cookie (same browser profile) and opens the same session from its address.
    const second = await watched(context);
    await second.goto(sessionUrl);
    await second.getByRole('textbox', { name: 'Prompt' }).and(second.locator(':enabled')).waitFor();
    await user(first).send('write the notes for two-tabs');
    const panel = (p: Page) => p.getByRole('region', { name: 'Approval: Write' });
    await panel(first).waitFor();
    await panel(second).waitFor();
    expect(await second.title()).toMatch(/^\(1\) waiting · /);
    // Every control of the page has an accessible name.
    const unnamed = await second.evaluate(`[...document.querySelectorAll('button, input, textarea, select, a')]
      .filter((el) => !(el.getAttribute('aria-label') || el.textContent.trim() || (el.id && document.querySelector('label[for="' + el.id + '"]'))))
      .map((el) => el.outerHTML)`);
    expect(unnamed).toEqual([]);
    await panel(second).getByRole('button', { name: 'Approve once' }).click();
    await panel(first).waitFor({ state: 'detached' });
    expect(await first.title()).not.toContain('waiting');
    await first
      .getByRole('status')
      .getByText(/^Write: approved by web:[0-9a-f]{12}\.$/)
      .waitFor();
    await first.getByText('The file is written.').waitFor();
    await shot(first, 'answered-elsewhere-dark');
    await context.close();
  });

  it('catches up after the connection drops: what happened meanwhile shows once it is back', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    // The network drop, played by the test: the page's sockets are kept to be closed, and while "away" a new one
    // is refused (as a phone out of reach would fail to connect).
    await context.addInitScript(`(() => {
      const Real = window.WebSocket;
      window.__sockets = [];
      window.__away = false;
      window.WebSocket = class extends Real {
        constructor(url, protocols) {
          super(window.__away ? 'ws://127.0.0.1:' + location.port + '/no-such-socket' : url, protocols);
          window.__sockets.push(this);
        }
      };
    })()`);
    const page = await watched(context);
    await page.goto(await newLink(served));
    await page.getByRole('button', { name: 'New session' }).tap();
    await page.getByRole('textbox', { name: 'Prompt' }).and(page.locator(':enabled')).waitFor();
    const sid = /#s=([0-9A-Z]{26})$/.exec(page.url())![1];
    await page.evaluate('window.__away = true; window.__sockets.forEach((s) => s.close())');
    await page
      .getByRole('status')
      .getByText(/reconnecting/)
      .waitFor();
    // Meanwhile the session goes on (another client prompts it).
    const sent = await api(served, 'POST', `/api/v1/sessions/${sid}/prompts`, {
      content: [{ type: 'text', text: 'say hello while away' }],
    });
    expect(sent.code, sent.msg).toBe(0);
    await waitUntil(() => model.requests.some((r) => JSON.stringify(r.body.messages).includes('while away')), 30_000);
    // The turn ends while the page is away: everything it missed is in the server's buffer.
    await expect
      .poll(async () => (await api(served, 'GET', `/api/v1/sessions/${sid}/status`)).data.busy, { timeout: 30_000 })
      .toBe(false);
    await page.evaluate('window.__away = false');
    await page.getByRole('article', { name: 'your prompt' }).getByText('say hello while away').waitFor();
    await page.getByRole('article', { name: 'answer' }).getByText('Jarvis').waitFor();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('');
    await context.close();
  });

  it('reviews a plan: the plan shown as Markdown, approved from the panel', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await watched(context);
    await page.goto(await newLink(served));
    await user(page).press(page.getByRole('button', { name: 'New session' }), 'New session');
    await user(page).send('make a plan');
    const review = page.getByRole('region', { name: 'Plan review' });
    await review.waitFor().catch(async (e) => {
      process.stderr.write(`${await page.locator('.conversation').innerText()}\n`);
      throw e;
    });
    await review.getByRole('listitem').filter({ hasText: 'Change it' }).waitFor();
    expect(await review.locator('code').allTextContents()).toContain('src/a.ts');
    await shot(page, 'plan-review');
    await review.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByText('Plan approved; starting.').waitFor();
    await context.close();
  });
});
