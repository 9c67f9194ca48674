// The web UI end to end (docs/web.md "Tests"): `jarvis web` on the built CLI against the scripted model, driven in
// the system Chromium. The same walk runs at 1280×800 with the mouse, at 390×844 (a phone) with taps, and at
// 1280×800 with the keyboard alone: open the printed link, send a prompt and see the streamed answer and a Bash
// card, approve a Write from the approval panel and see its diff, reject one with feedback the model receives,
// answer an AskUserQuestion, stop a running turn, resume an older session. Screenshots go to docs/web/.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliDirs, mockModelEnv, waitUntil, type CliDirs } from '../helpers/cli';
import { api } from '../helpers/serveProcess';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../helpers/mockModelServer';
import { launchChromium, newLink, startWeb, type WebServed } from '../helpers/webProcess';

// A model answer written the way an injected prompt would make it: script tags, event handlers, javascript: and
// data: links in every spelling, an HTML block, an iframe, a remote image (a tracking pixel) and a form.
const HOSTILE = [
  'Here is the **report**.',
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  "[click me](javascript:window.__pwned='link')",
  "[upper](JAVASCRIPT:window.__pwned='upper')",
  "[spaced]( javascript:window.__pwned='spaced')",
  "[entity](&#106;avascript:window.__pwned='entity')",
  '[data](data:text/html,<script>parent.__pwned=1</script>)',
  '<a href="javascript:window.__pwned=\'anchor\'">anchor</a>',
  '<div onmouseover="window.__pwned=\'div\'"><iframe src="javascript:parent.__pwned=\'frame\'"></iframe></div>',
  '![pixel](http://tracker.invalid/pixel.png)',
  '<form action="http://attacker.invalid/"><button>Approve</button></form>',
  '[a fine link](https://example.com/docs) and <https://example.org/auto>',
].join('\n\n');

let model: MockModelServer;
let dirs: CliDirs;
let served: WebServed;
let browser: Browser;
const SHOTS = join(__dirname, '../../docs/web');

function lastUser(messages: Array<{ role: string; content: unknown }>): string {
  if (messages.at(-1)!.role === 'tool') return `<tool>${JSON.stringify(messages.at(-1)!.content)}`;
  return JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
}

function turnFor(text: string): ScriptedTurn {
  // Plan mode: enter, write the plan file it names, submit it for review.
  const planFile = /Plan file: (\/\S+\.md)/.exec(text);
  if (text.startsWith('<tool>') && planFile)
    return {
      toolCalls: [
        {
          name: 'Write',
          arguments: { path: planFile[1], content: '# The plan\n\n1. Read `src/a.ts`\n2. Change it\n' },
        },
      ],
    };
  if (text.startsWith('<tool>') && /plan-[0-9a-f]+\.md: wrote/.test(text))
    return { toolCalls: [{ name: 'ExitPlanMode', arguments: {} }] };
  if (text.startsWith('<tool>') && text.includes('approved the plan')) return { text: 'Plan approved; starting.' };
  if (text.includes('make a plan')) return { toolCalls: [{ name: 'EnterPlanMode', arguments: {} }] };
  if (text.startsWith('<tool>')) {
    if (text.includes('web-ui-check')) return { text: 'The command printed **web-ui-check**.' };
    if (text.includes('name it')) return { text: 'Understood, I will not write it.' };
    if (text.includes('Blue')) return { text: 'You picked Blue.' };
    return { text: 'The file is written.' };
  }
  if (text.includes('say hello'))
    return { text: 'Hello from **Jarvis**.\n\n```ts\nconst answer = 42;\n```\n\n- one\n- two', chunkDelayMs: 30 };
  if (text.includes('run the check'))
    return { toolCalls: [{ name: 'Bash', arguments: { command: 'echo web-ui-check' } }] };
  const notes = /write the notes for ([a-z0-9-]+)/.exec(text);
  if (notes)
    return {
      toolCalls: [
        { name: 'Write', arguments: { path: `notes-${notes[1]}.txt`, content: 'first line\nsecond line\n' } },
      ],
    };
  if (text.includes('write the secret'))
    return { toolCalls: [{ name: 'Write', arguments: { path: 'secret.txt', content: 'do not\n' } }] };
  if (text.includes('ask me'))
    return {
      toolCalls: [
        {
          name: 'AskUserQuestion',
          arguments: {
            questions: [
              {
                question: 'Which colour?',
                header: 'Colour',
                options: [
                  { label: 'Red', description: 'warm' },
                  { label: 'Blue', description: 'cool' },
                ],
              },
            ],
          },
        },
      ],
    };
  if (text.includes('think forever')) return { hang: true };
  if (text.includes('an older session')) return { text: 'This is the older answer.' };
  if (text.includes('be hostile')) return { text: HOSTILE };
  return { text: 'plain answer' };
}

beforeAll(async () => {
  model = await startMockModelServer({
    script: (req) => turnFor(lastUser(req.body.messages as Array<{ role: string; content: unknown }>)),
  });
  dirs = makeCliDirs();
  served = await startWeb(dirs, mockModelEnv(model.baseUrlFor('openai')));
  const older = await api(served, 'POST', '/api/v1/sessions', {});
  const sid = older.data.session_id as string;
  const prompt = await api(served, 'POST', `/api/v1/sessions/${sid}/prompts`, {
    content: [{ type: 'text', text: 'an older session' }],
  });
  expect(prompt.code, prompt.msg).toBe(0);
  await waitUntil(() => model.requests.length > 0, 30_000, 'the older session to ask the model');
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (served) process.stderr.write(`web stderr:\n${served.stderr()}\n`);
  await served?.stop();
  await model?.close();
});

/** A page whose console errors and failures are printed, with short waits (a missing element fails fast). */
async function watched(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('console', (m) => m.type() !== 'log' && process.stderr.write(`[page ${m.type()}] ${m.text()}\n`));
  page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`));
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

type Mode = 'mouse-1280' | 'phone-390' | 'keyboard-1280';

/** How the user acts in each mode: a click, a tap, or Tab until the control has the focus, then Enter. */
class User {
  constructor(
    readonly page: Page,
    readonly mode: Mode,
  ) {}

  async press(target: Locator, name: string): Promise<void> {
    if (this.mode === 'mouse-1280') return target.click();
    if (this.mode === 'phone-390') return target.tap();
    await this.focus(name);
    await this.page.keyboard.press('Enter');
  }

  async type(target: Locator, name: string, text: string): Promise<void> {
    if (this.mode === 'keyboard-1280') {
      await this.focus(name);
      await this.page.keyboard.type(text);
    } else {
      await this.press(target, name);
      await target.fill(text);
    }
  }

  async send(text: string): Promise<void> {
    await this.type(this.page.getByRole('textbox', { name: 'Prompt' }), 'Prompt', text);
    if (this.mode === 'keyboard-1280') await this.page.keyboard.press('Enter');
    else await this.press(this.page.getByRole('button', { name: 'Send' }), 'Send');
  }

  /** Tab (at most 80 times) until the focused element's accessible name starts with `name`. */
  async focus(name: string): Promise<void> {
    for (let i = 0; i < 80; i++) {
      const current = await this.page.evaluate(`(() => {
        const el = document.activeElement;
        if (!el) return '';
        const label = el.getAttribute('aria-label') || (el.id && document.querySelector('label[for="' + el.id + '"]')?.textContent) || el.textContent || '';
        return label.trim();
      })()`);
      if (typeof current === 'string' && current.startsWith(name)) return;
      await this.page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached "${name}"`);
  }
}

const user = (page: Page) => new User(page, 'mouse-1280');

async function walk(mode: Mode): Promise<void> {
  const phone = mode === 'phone-390';
  const context = await browser.newContext({
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
    ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 1 } : {}),
  });
  const page = await watched(context);
  const user = new User(page, mode);
  await page.goto(await newLink(served));
  const newSession = page.getByRole('button', { name: 'New session' });
  await newSession.waitFor();
  await user.press(newSession, 'New session');
  await page.getByRole('textbox', { name: 'Prompt' }).and(page.locator(':enabled')).waitFor();

  // A prompt and its answer, Markdown and code included.
  await user.send('say hello');
  const answer = page.getByRole('article', { name: 'answer' }).first();
  await answer.getByText('Jarvis').waitFor();
  // The answer streams in (message.delta): the code block is whole once the message has arrived.
  await expect.poll(() => answer.locator('pre code').textContent()).toBe('const answer = 42;');
  await shot(page, `${mode}-answer`);

  // A Bash card with its command and output (approved first if the mode asks).
  await user.send('run the check');
  const bash = page.locator('article[data-tool="Bash"]').last();
  await bash.waitFor();
  const bashApproval = page.getByRole('region', { name: 'Approval: Bash' });
  await Promise.race([bashApproval.waitFor(), bash.locator('.tool-out').waitFor()]);
  if (await bashApproval.isVisible())
    await user.press(bashApproval.getByRole('button', { name: 'Approve once' }), 'Approve once');
  await expect.poll(() => bash.locator('.tool-out').textContent()).toContain('web-ui-check');
  await page.getByText('The command printed').waitFor();
  await shot(page, `${mode}-bash`);

  // A Write approved from the panel, its diff shown there and in the card.
  await user.send(`write the notes for ${mode}`);
  const approval = page.getByRole('region', { name: 'Approval: Write' });
  await approval.waitFor();
  const diff = approval.locator('figure.diff');
  expect(await diff.getAttribute('aria-label')).toBe(`Write notes-${mode}.txt: 2 lines added, 0 removed`);
  expect(await diff.locator('.dl-add').allTextContents()).toEqual(['+ first line\n', '+ second line\n']);
  await shot(page, `${mode}-approval`);
  await user.press(approval.getByRole('button', { name: 'Approve once' }), 'Approve once');
  await page.getByText('The file is written.').last().waitFor();
  expect(readFileSync(join(dirs.cwd, `notes-${mode}.txt`), 'utf8')).toBe('first line\nsecond line\n');
  await expect
    .poll(() => page.locator('article[data-tool="Write"]').last().getAttribute('aria-label'))
    .toBe('Write tool call, done');

  // A Write rejected with feedback, which the model receives.
  await user.send('write the secret');
  const second = page.getByRole('region', { name: 'Approval: Write' });
  await second.waitFor();
  await user.press(second.getByRole('button', { name: 'Reject…' }), 'Reject…');
  const feedback = `name it b-${mode}.txt`;
  await user.type(second.getByRole('textbox', { name: 'Feedback for the model' }), 'Feedback for the model', feedback);
  await shot(page, `${mode}-reject`);
  await user.press(second.getByRole('button', { name: 'Reject', exact: true }), 'Reject');
  await page.getByText('Understood, I will not write it.').last().waitFor();
  expect(existsSync(join(dirs.cwd, 'secret.txt'))).toBe(false);
  expect(await page.locator('article[data-tool="Write"]').last().getAttribute('aria-label')).toBe(
    'Write tool call, rejected',
  );
  expect(JSON.stringify(model.requests.at(-1)!.body.messages.at(-1))).toContain(feedback);

  // An AskUserQuestion answered.
  await user.send('ask me');
  const question = page.getByRole('region', { name: 'Question' });
  await question.waitFor();
  await shot(page, `${mode}-question`);
  if (mode === 'keyboard-1280') {
    // The panel took the focus on its first option; the arrow key moves to the next one.
    await page.keyboard.press('ArrowDown');
    expect(await question.getByRole('radio', { name: /Blue/ }).isChecked()).toBe(true);
    await user.focus('Answer');
    await page.keyboard.press('Enter');
  } else {
    await user.press(question.getByText('Blue', { exact: true }), 'Blue');
    await user.press(question.getByRole('button', { name: 'Answer' }), 'Answer');
  }
  await page.getByText('You picked Blue.').last().waitFor();

  // A running turn stopped.
  await user.send('think forever');
  const stop = page.getByRole('button', { name: 'Stop' });
  await stop.waitFor();
  await user.press(stop, 'Stop');
  await page.getByText('turn ended: interrupted').last().waitFor();
  await stop.waitFor({ state: 'hidden' });
  await shot(page, `${mode}-stopped`);

  // An older session resumed from the list.
  if (phone) await user.press(page.getByRole('button', { name: 'Sessions' }), 'Sessions');
  await user.type(page.getByRole('searchbox', { name: 'Search sessions' }), 'Search sessions', 'older');
  const older = page.getByRole('button', { name: /^an older session/ });
  await user.press(older, 'an older session');
  await page.getByText('This is the older answer.').waitFor();
  await page.getByRole('textbox', { name: 'Prompt' }).and(page.locator(':enabled')).waitFor();
  await shot(page, `${mode}-resumed`);
  await context.close();
}

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
    // Every control of the page has an accessible name.
    const unnamed = await second.evaluate(`[...document.querySelectorAll('button, input, textarea, select, a')]
      .filter((el) => !(el.getAttribute('aria-label') || el.textContent.trim() || (el.id && document.querySelector('label[for="' + el.id + '"]'))))
      .map((el) => el.outerHTML)`);
    expect(unnamed).toEqual([]);
    await panel(second).getByRole('button', { name: 'Approve once' }).click();
    await panel(first).waitFor({ state: 'detached' });
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

  it('at 1280×800 with the mouse: prompt, Bash card, approve with diff, reject with feedback, question, stop, resume', async () => {
    await walk('mouse-1280');
  }, 120_000);

  it('at 390×844 on a phone: the same walk with taps', async () => {
    await walk('phone-390');
  }, 120_000);

  it('at 1280×800 with the keyboard alone: the same walk', async () => {
    await walk('keyboard-1280');
  }, 120_000);
});
