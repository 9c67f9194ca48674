// The world of the web UI's browser tests (test/web/*.e2e.test.ts, docs/web.md "Tests"): the scripted model's turns,
// `jarvis web` on the built CLI, the system Chromium, pages that report their errors, screenshots (test/helpers/screenshots.ts),
// and a user who clicks, taps, or uses the keyboard alone.
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { makeCliDirs, mockModelEnv, type CliDirs } from './cli';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from './mockModelServer';
import { launchChromium, startWeb, type WebServed } from './webProcess';
import { SHOTS } from './screenshots';

// A model answer written the way an injected prompt would make it: script tags, event handlers, javascript: and
// data: links in every spelling, an HTML block, an iframe, a remote image (a tracking pixel) and a form.
export const HOSTILE = [
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

function lastUser(messages: Array<{ role: string; content: unknown }>): string {
  if (messages.at(-1)!.role === 'tool') return `<tool>${JSON.stringify(messages.at(-1)!.content)}`;
  return JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
}

export function turnFor(text: string): ScriptedTurn {
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

export interface WebWorld {
  model: MockModelServer;
  dirs: CliDirs;
  served: WebServed;
  browser: Browser;
  close(): Promise<void>;
}

export async function startWebWorld(): Promise<WebWorld> {
  const model = await startMockModelServer({
    script: (req) => turnFor(lastUser(req.body.messages as Array<{ role: string; content: unknown }>)),
  });
  const dirs = makeCliDirs();
  const served = await startWeb(dirs, mockModelEnv(model.baseUrlFor('openai')));
  const browser = await launchChromium();
  return {
    model,
    dirs,
    served,
    browser,
    close: async () => {
      await browser.close();
      process.stderr.write(`web stderr:\n${served.stderr()}\n`);
      await served.stop();
      await model.close();
    },
  };
}

/** A page whose console errors and failures are printed, with short waits (a missing element fails fast). */
export async function watched(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('console', (m) => m.type() !== 'log' && process.stderr.write(`[page ${m.type()}] ${m.text()}\n`));
  page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`));
  return page;
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

export type Mode = 'mouse-1280' | 'phone-390' | 'keyboard-1280';

/** How the user acts in each mode: a click, a tap, or Tab until the control has the focus, then Enter. */
export class User {
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
