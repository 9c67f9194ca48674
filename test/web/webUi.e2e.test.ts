// The web UI end to end (docs/web.md "Tests"): `jarvis web` on the built CLI against the scripted model, driven in
// the system Chromium. The same walk runs at 1280×800 with the mouse, at 390×844 (a phone) with taps, and at
// 1280×800 with the keyboard alone: open the printed link, send a prompt and see the streamed answer and a Bash
// card, approve a Write from the approval panel and see its diff, reject one with feedback the model receives,
// answer an AskUserQuestion, stop a running turn, resume an older session. Screenshots go to docs/web/.
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliDirs, mockModelEnv, type CliDirs } from '../helpers/cli';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../helpers/mockModelServer';
import { launchChromium, startWeb, type WebServed } from '../helpers/webProcess';

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
  if (text.startsWith('<tool>')) {
    if (text.includes('web-ui-check')) return { text: 'The command printed **web-ui-check**.' };
    if (text.includes('rejected') || text.includes('feedback') || text.includes('name it b.txt'))
      return { text: 'Understood, I will not write it.' };
    if (text.includes('Blue')) return { text: 'You picked Blue.' };
    return { text: 'The file is written.' };
  }
  if (text.includes('say hello'))
    return { text: 'Hello from **Jarvis**.\n\n```ts\nconst answer = 42;\n```\n\n- one\n- two', chunkDelayMs: 30 };
  if (text.includes('run the check'))
    return { toolCalls: [{ name: 'Bash', arguments: { command: 'echo web-ui-check' } }] };
  if (text.includes('write the notes'))
    return { toolCalls: [{ name: 'Write', arguments: { path: 'notes.txt', content: 'first line\nsecond line\n' } }] };
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
  return { text: 'plain answer' };
}

beforeAll(async () => {
  model = await startMockModelServer({
    script: (req) => turnFor(lastUser(req.body.messages as Array<{ role: string; content: unknown }>)),
  });
  dirs = makeCliDirs();
  served = await startWeb(dirs, mockModelEnv(model.baseUrlFor('openai')));
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
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('textbox', { name: 'Prompt' }).fill('say hello');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('article', { name: 'answer' }).getByText('Jarvis').waitFor();
    await shot(page, 'answer-1280');
    await context.close();
  });
});
